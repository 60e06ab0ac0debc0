#!/usr/bin/env node
// nginx's list of Lagerscanner instances, kept to those that are ready (lagerscanner-upstream.service runs
// it; docs/operating.md "Operating it"). Every 2 s it asks each instance GET http://127.0.0.1:<port>/readyz and writes
// the server lines of the site's upstream (deploy/nginx-lagerscanner.conf includes the file), `down` on each
// instance that did not answer 200; when the file changed, it has nginx reload it.
//   node deploy/nginx-upstream.mjs 3001 3002          keep at it (the service)
//   node deploy/nginx-upstream.mjs --once 3001 3002   write the file once (before nginx first reads it)
//   --every SECONDS (2), --file PATH (/etc/nginx/lagerscanner-upstream.conf), --pid PATH (/run/nginx.pid)
// Why a script: nginx open source checks its upstreams only passively — a request has to fail on an
// instance first (active `health_check` is nginx Plus). HAProxy polls actively, but it would be a second
// proxy to run and learn beside the nginx that does TLS. This is plain Node, no packages, like readyz.mjs.
import fs from 'node:fs';
import { parseArgs } from 'node:util';

let options;
try {
  options = parseArgs({
    allowPositionals: true,
    options: {
      once: { type: 'boolean', default: false },
      every: { type: 'string', default: '2' },
      file: { type: 'string', default: '/etc/nginx/lagerscanner-upstream.conf' },
      pid: { type: 'string', default: '/run/nginx.pid' },
    },
  });
} catch {} // an unknown option or a missing value: the usage below
const ports = options?.positionals.map(Number) ?? [];
const everyMs = Number(options?.values.every) * 1000;
if (!(everyMs > 0) || ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1)) {
  console.error(
    'Usage: node deploy/nginx-upstream.mjs [--once] [--every SECONDS] [--file PATH] [--pid PATH] PORT...',
  );
  process.exit(2);
}
const { once, file, pid: pidFile } = options.values;

/** null when the instance answers /readyz 200, else why not (for the log). */
async function notReady(port) {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3000) });
    await answer.body?.cancel(); // the connection is free again at once, not when it is collected
    return answer.status === 200 ? null : `/readyz answered ${answer.status}`;
  } catch (error) {
    return error.cause?.code ?? error.cause?.message ?? error.name;
  }
}

/** The file's text. Reasons go to the log, not here: a new reason alone must not reload nginx. */
function upstreamFile(failures) {
  const noneReady = failures.every((why) => why !== null);
  const lines = [
    "# Written by deploy/nginx-upstream.mjs from each instance's GET /readyz; edits are overwritten.",
  ];
  if (noneReady) {
    // With every server `down` nginx answers 502 at once and tries nobody. Listed, each still gets the
    // request, and nginx's passive check (max_fails) moves on from those that fail: one may answer.
    lines.push('# No instance is ready: all are listed, so nginx still tries them.');
  }
  ports.forEach((port, i) => {
    const down = !noneReady && failures[i] !== null;
    lines.push(`server 127.0.0.1:${port} max_fails=1 fail_timeout=5s${down ? ' down' : ''};`);
  });
  return `${lines.join('\n')}\n`;
}

/** What `nginx -s reload` and `systemctl reload nginx` do: SIGHUP to the master process. */
function reloadNginx() {
  let pid;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return 'nginx is not running; it reads the file when it starts';
    throw error;
  }
  // A pid file left behind by a crash may name some other process by now: signal only nginx's master.
  const command = fs.existsSync(`/proc/${pid}/cmdline`)
    ? fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    : '';
  if (!command.startsWith('nginx: master process')) return `nginx is not running (${pidFile} is stale)`;
  process.kill(pid, 'SIGHUP');
  return `nginx reloaded (pid ${pid})`;
}

// What nginx was last given: the file as it is (a restarted service does not reload nginx for nothing).
let applied = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
for (;;) {
  const started = Date.now();
  const failures = await Promise.all(ports.map(notReady));
  const text = upstreamFile(failures);
  if (text !== applied) {
    // Atomic: nginx (or a reload under way) reads the old file or the new one, never half of one.
    fs.writeFileSync(`${file}.tmp`, text, { mode: 0o644 });
    fs.renameSync(`${file}.tmp`, file);
    const state = ports.map(
      (port, i) => `${port} ${failures[i] === null ? 'ready' : `not ready (${failures[i]})`}`,
    );
    if (failures.every((why) => why !== null)) state.push('none ready, so all listed');
    try {
      console.log(`${state.join(', ')}: ${file} written, ${reloadNginx()}`);
      applied = text;
    } catch (error) {
      // Not applied: the next round writes and reloads again.
      console.error(`${state.join(', ')}: ${file} written, but nginx not reloaded: ${error.message}`);
      applied = null;
      if (once) process.exit(1);
    }
  }
  if (once) break;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (Date.now() - started))));
}
