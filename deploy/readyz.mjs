#!/usr/bin/env node
// Asks each local Lagerscanner instance GET http://127.0.0.1:<port>/readyz (200: it reaches its database
// and takes requests). Exit 0 when every one answered 200, else 1 with the instances that did not.
//   node deploy/readyz.mjs 3001 3002              check once (monitoring, or by hand after a change)
//   node deploy/readyz.mjs --wait 60 3001         wait up to 60 s (the unit's ExecStartPost)
// Plain Node, no packages: it runs wherever the server runs.
const args = process.argv.slice(2);
let waitSeconds = 0;
if (args[0] === '--wait') {
  waitSeconds = Number(args[1]);
  args.splice(0, 2);
}
const ports = args.map(Number);
if (!Number.isFinite(waitSeconds) || ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1)) {
  console.error('Usage: node deploy/readyz.mjs [--wait SECONDS] PORT...');
  process.exit(2);
}

async function ready(port) {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3000) });
    return answer.status === 200 ? null : `${port}: ${answer.status}`;
  } catch (error) {
    return `${port}: ${error.cause?.code ?? error.name}`;
  }
}

const deadline = Date.now() + waitSeconds * 1000;
for (;;) {
  const failures = (await Promise.all(ports.map(ready))).filter((f) => f !== null);
  if (failures.length === 0) process.exit(0);
  if (Date.now() >= deadline) {
    console.error(`Not ready: ${failures.join(', ')}`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
