import pretty from 'pino-pretty';

/**
 * Where the server's log goes: JSON lines when stdout is a file, a pipe or a journal (what a log collector
 * reads; systemd's journal too), lines a person reads when it is a terminal — time, level, message, and the
 * request id of every request line, so a support call can still be traced. Undefined: pino's JSON on stdout.
 */
export function logStreamFor(out: NodeJS.WriteStream = process.stdout): NodeJS.WritableStream | undefined {
  if (!out.isTTY) return undefined;
  return pretty({
    destination: out,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    sync: true,
  });
}
