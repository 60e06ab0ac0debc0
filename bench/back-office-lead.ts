import { createInterface } from 'node:readline';
import {
  type BackOfficeContext,
  backOfficeOperations,
  backupOperation,
  type LeadSpec,
} from './back-office.ts';

/**
 * The lead's or admin's side of one back-office operation, in a process of its own (`floorUnderBackOffice`
 * with `lead`): in a warehouse it is a browser or an ERP on another machine. Run in the bench's process, its
 * own work — building a 5 MB upload, reading 211 MB of CSV — held the thread that sends the floor's calls and
 * times their answers: the floor's p99 "during the import" was the load generator's stall of 150–200 ms at
 * the operation's start, not the server's.
 *
 * argv[2]: JSON { name, ctx, spec }. Prepares the operation, writes "ready", waits for a line on stdin, runs
 * it, writes one JSON line { did } or { error }.
 */
const { name, ctx, spec } = JSON.parse(process.argv[2] ?? '{}') as {
  name: string;
  ctx: BackOfficeContext;
  spec: LeadSpec;
};
const operation = backOfficeOperations({
  scale: ctx.scale,
  liveSeconds: spec.liveSeconds,
  ...(spec.backupEnv ? { backup: backupOperation(spec.backupEnv) } : {}),
}).find((op) => op.name === name);
if (!operation) throw new Error(`no back-office operation named ${name}`);
const prepared = await operation.prepare?.(ctx);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
process.stdout.write('ready\n');
await lines.next();
let answer: { did: string } | { error: string };
try {
  answer = { did: await operation.run(ctx, prepared) };
} catch (failure) {
  answer = { error: (failure as Error).message.slice(0, 200) };
}
process.stdout.write(`${JSON.stringify(answer)}\n`);
process.exit(0);
