import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, serverCommand } from '../../src/server/build-server.ts';

/**
 * Builds the web app and the server and starts it, as `npm start` does, on a fresh embedded database for this run. Returns the
 * teardown (Playwright calls it at the end): stop the server, delete the data.
 */
const root = path.resolve(import.meta.dirname, '../..');

/** The packing station's cheat code for this run (server configuration, see docs/configuration.md). */
export const E2E_CHEAT_CODE = 'E2E-ALLES-FERTIG';

/** The network label printer this run's server knows (PRINTERS); e2e/etiketten.spec.ts listens on its port. */
export const E2E_PRINTER = 'E2E-Drucker';

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!process.env.E2E_BASE_URL) {
    if (process.env.E2E_SKIP_BUILD !== '1') {
      const build = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
        cwd: root,
        stdio: 'inherit',
      });
      if (build.status !== 0) throw new Error('vite build failed');
    }
  } else {
    return async () => {}; // a server someone else runs
  }

  // A port someone chose is kept; the default (playwright.config.ts) moves on when another process holds it,
  // and the workers, started after this, read the port from the environment.
  const chosen = process.env.E2E_PORT_DEFAULT !== '1';
  for (let attempt = 1; ; attempt++) {
    const port = Number(process.env.E2E_PORT);
    const started = await startServer(port);
    if (started.ok) return started.stop;
    if (!started.portTaken || chosen || attempt === 5) {
      throw new Error(`The server did not become ready on 127.0.0.1:${port}:\n${started.output}`);
    }
    process.env.E2E_PORT = String(20_000 + ((port - 20_000 + 1 + Math.floor(Math.random() * 500)) % 12_000));
  }
}

type Started = { ok: true; stop: () => Promise<void> } | { ok: false; portTaken: boolean; output: string };

async function startServer(port: number): Promise<Started> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lagerscanner-e2e-'));
  let output = '';
  await buildServer();
  const { command, args, env: serverEnv } = serverCommand();
  const server: ChildProcess = spawn(command, args, {
    cwd: root,
    env: {
      ...serverEnv,
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      CHEAT_CODE: E2E_CHEAT_CODE,
      // The label printer of e2e/etiketten.spec.ts: a TCP listener the spec opens on the port after the server's.
      PRINTERS: `${E2E_PRINTER}=127.0.0.1:${port + 1},203`,
      // A printer on this machine and on a port other than 9100 is refused unless named (issue 39).
      PRINTER_PORTS: String(port + 1),
      PRINTER_ALLOWED_ADDRESSES: '127.0.0.1',
      // The import's and the labels' workers at the server's own priority: beside Chromium at full tilt, a
      // worker at the lowest (the default, 19) made a 20,000-article import outlast its test's 30 s.
      BACK_OFFICE_NICE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  server.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  let exited = false;
  server.on('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (!exited) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const onInterrupt = () => void stop().then(() => process.exit(130));
  process.once('SIGINT', onInterrupt);

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !exited) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) {
        // For e2e/leitstand-datensicherung.spec.ts, which backs this server up with `npm run backup`.
        process.env.E2E_DATA_DIR = dataDir;
        return { ok: true, stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  process.off('SIGINT', onInterrupt);
  return { ok: false, portTaken: output.includes('EADDRINUSE'), output };
}
