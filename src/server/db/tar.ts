import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/**
 * The few parts of the tar format (POSIX ustar) a backup of the embedded database needs: files and folders,
 * written and read as streams, so a database of gigabytes never has to fit in memory — and the same format
 * PGlite's own `dumpDataDir` writes, so backups from before this module restore as well.
 */

const BLOCK = 512;
const END = Buffer.alloc(BLOCK * 2);

/** A tar entry's 512-byte header (ustar). Names up to 255 bytes, split into prefix and name at a '/'. */
export function tarHeader(
  name: string,
  size: number,
  kind: 'file' | 'directory',
  mtime = new Date(),
): Buffer {
  const header = Buffer.alloc(BLOCK);
  let base = name;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 154);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100)
      throw new Error(`tar: name too long: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  header.write(base, 0, 100);
  header.write(kind === 'directory' ? '0000755\0' : '0000600\0', 100);
  header.write('0000000\0', 108); // uid
  header.write('0000000\0', 116); // gid
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  header.write(
    `${Math.floor(mtime.getTime() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
  );
  header.write('        ', 148); // the checksum counts itself as spaces
  header.write(kind === 'directory' ? '5' : '0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  header.write(prefix, 345, 155);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

/** Zero bytes that fill a file's content up to the next 512-byte block. */
export function tarPadding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The two empty blocks that end an archive. */
export function tarEnd(): Buffer {
  return END;
}

export interface TarEntry {
  name: string;
  kind: 'file' | 'directory';
  size: number;
}

/** Where an entry's content goes: each part in order, then the end. */
export interface TarSink {
  write(part: Buffer): Promise<void>;
  end(): Promise<void>;
}

/**
 * Reads a tar stream (gzip-compressed or not: the first two bytes tell) and hands each entry to `onEntry`;
 * the sink it answers gets the content (null: skipped). A stream that ends before the archive's end marker
 * is refused (a backup cut short).
 */
export async function readTar(
  input: AsyncIterable<Buffer>,
  onEntry: (entry: TarEntry) => Promise<TarSink | null>,
): Promise<void> {
  let buffer: Buffer = Buffer.alloc(0);
  type Current = { sink: TarSink | null; left: number; padding: number };
  let current = null as Current | null;
  let ended = false;
  try {
    await readEntries();
  } catch (error) {
    await current?.sink?.end().catch(() => undefined); // a file left open would leak its handle
    throw error;
  }
  if (!ended) {
    await current?.sink?.end();
    throw new Error('tar: the archive ends before its end marker (a backup cut short?)');
  }

  async function readEntries(): Promise<void> {
    for await (const chunk of sniffGzip(input)) {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      for (;;) {
        if (ended) {
          buffer = Buffer.alloc(0);
          break;
        }
        if (current) {
          if (current.left > 0) {
            if (buffer.length === 0) break;
            const part = buffer.subarray(0, Math.min(current.left, buffer.length));
            buffer = buffer.subarray(part.length);
            current.left -= part.length;
            await current.sink?.write(part);
            if (current.left > 0) break;
            await current.sink?.end();
          }
          if (buffer.length < current.padding) break;
          buffer = buffer.subarray(current.padding);
          current = null;
          continue;
        }
        if (buffer.length < BLOCK) break;
        const header = buffer.subarray(0, BLOCK);
        buffer = buffer.subarray(BLOCK);
        if (header.every((byte) => byte === 0)) {
          ended = true;
          continue;
        }
        const entry = parseHeader(header);
        const sink = await onEntry(entry);
        if (entry.size === 0) await sink?.end();
        else current = { sink, left: entry.size, padding: tarPadding(entry.size).length };
      }
    }
  }
}

/** Passes the stream through gunzip when it starts with gzip's magic bytes. */
async function* sniffGzip(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const iterator = input[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const head = first.value;
  async function* all(): AsyncGenerator<Buffer> {
    yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const gunzip = zlib.createGunzip();
    const feeding = pipeline(Readable.from(all()), gunzip);
    feeding.catch(() => {}); // the read below fails with the same error
    for await (const chunk of gunzip) yield chunk as Buffer;
    await feeding;
  } else yield* all();
}

function parseHeader(header: Buffer): TarEntry {
  const field = (start: number, length: number) =>
    header
      .subarray(start, start + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] as number);
  if (Number.parseInt(field(148, 8).trim(), 8) !== sum)
    throw new Error('tar: a header is damaged (not a backup file?)');
  const prefix = field(345, 155);
  const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
  const type = field(156, 1);
  const size = Number.parseInt(field(124, 12).trim() || '0', 8);
  return { name, kind: type === '5' ? 'directory' : 'file', size: type === '5' ? 0 : size };
}

/**
 * Unpacks an archive below `target`: names are taken relative (the leading '/' of PGlite's own dumps
 * dropped), and an entry that would land outside `target` ('..') is refused. Answers the names unpacked.
 */
export async function extractTar(input: AsyncIterable<Buffer>, target: string): Promise<string[]> {
  const root = path.resolve(target);
  const names: string[] = [];
  await readTar(input, async (entry) => {
    const relative = entry.name.replace(/^\/+/, '').replace(/\/+$/, '');
    const full = path.resolve(root, relative);
    if (relative === '' || relative === '.') return null;
    if (!full.startsWith(`${root}${path.sep}`))
      throw new Error(`tar: the entry ${entry.name} would be written outside ${root}`);
    names.push(relative);
    if (entry.kind === 'directory') {
      await fs.promises.mkdir(full, { recursive: true });
      return null;
    }
    await fs.promises.mkdir(path.dirname(full), { recursive: true });
    const file = await fs.promises.open(full, 'w', 0o600);
    return {
      write: async (part) => {
        await file.write(part);
      },
      end: () => file.close(),
    };
  });
  return names;
}
