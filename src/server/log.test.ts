import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logStreamFor } from './log.ts';

/** A stdout that records what is written, on a terminal or not. */
function fakeStdout(isTTY: boolean) {
  const written: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  return { written, out: Object.assign(out, { isTTY }) as unknown as NodeJS.WriteStream };
}

describe('the server log', () => {
  it('is readable lines on a terminal, with the level, the message and the request id', () => {
    const { out, written } = fakeStdout(true);
    const stream = logStreamFor(out);
    expect(stream).toBeDefined();
    const log = pino({ level: 'info' }, stream);
    log.info({ reqId: 'req-4711' }, 'Lagerscanner läuft');
    const line = written.join('');
    expect(line).toMatch(/INFO/);
    expect(line).toContain('Lagerscanner läuft');
    expect(line).toContain('req-4711');
    expect(() => JSON.parse(line)).toThrow(); // not JSON
  });

  it('stays JSON lines when stdout is a file, a pipe or the journal', () => {
    const { out } = fakeStdout(false);
    expect(logStreamFor(out)).toBeUndefined();
  });
});
