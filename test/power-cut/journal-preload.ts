/**
 * Loaded into the server process (`--require`, bundled to CommonJS by journal.ts; it runs in the sync
 * thread too): logs every change the process makes under FS_JOURNAL_ROOT — writes with their bytes,
 * truncations, creations, renames, removals — and every sync (its begin and its end), in the order they
 * happen, to FS_JOURNAL. Also each HTTP answer as it starts to go out (status, X-Idempotency-Key). From
 * that log the power-cut test rebuilds what a disk would hold at any moment (model.ts).
 *
 * Files are named by inode (a descriptor's file may have been renamed since it was opened); directory entries
 * by the directory's inode and the name. Writes are logged after they happened, a sync's begin before it
 * starts: a write logged before a sync's begin is covered by it, one logged after may not be.
 */
import fs from 'node:fs';
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { RECORD } from './records.ts';

const journalPath = process.env.FS_JOURNAL;
const rootSetting = process.env.FS_JOURNAL_ROOT;
if (journalPath && rootSetting) install(journalPath, path.resolve(rootSetting));

function install(journalPath: string, root: string): void {
  const original = {
    openSync: fs.openSync,
    writeSync: fs.writeSync,
    writeFileSync: fs.writeFileSync,
    ftruncateSync: fs.ftruncateSync,
    truncateSync: fs.truncateSync,
    mkdirSync: fs.mkdirSync,
    renameSync: fs.renameSync,
    unlinkSync: fs.unlinkSync,
    rmdirSync: fs.rmdirSync,
    fsyncSync: fs.fsyncSync,
    fdatasyncSync: fs.fdatasyncSync,
    symlinkSync: fs.symlinkSync,
  };
  const journal = original.openSync(journalPath, 'a');
  let syncIds = 0;
  const threadTag = Math.floor(Math.random() * 1e9);

  /** One record, one write(2) to a file opened O_APPEND: whole and in order across threads. */
  const append = (type: number, meta: unknown, data?: Uint8Array) => {
    const json = Buffer.from(JSON.stringify(meta));
    const head = Buffer.alloc(9);
    const length = 9 + json.length + (data?.length ?? 0);
    head.writeUInt32LE(length, 0);
    head.writeUInt8(type, 4);
    head.writeUInt32LE(json.length, 5);
    const record = Buffer.concat(data ? [head, json, data] : [head, json]);
    original.writeSync(journal, record, 0, record.length, null);
  };
  const inside = (target: string) => {
    const full = path.resolve(target);
    return full === root || full.startsWith(`${root}${path.sep}`);
  };
  const fdPath = (fd: number): string | null => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return null;
    }
  };
  const ino = (target: string | number) =>
    Number(typeof target === 'number' ? fs.fstatSync(target).ino : fs.lstatSync(target).ino);
  const exists = (target: string) => {
    try {
      fs.lstatSync(target);
      return true;
    } catch {
      return false;
    }
  };
  const entry = (target: string) => ({
    dir: ino(path.dirname(path.resolve(target))),
    name: path.basename(target),
  });
  const createsOrTruncates = (flags: unknown) => {
    if (typeof flags === 'string')
      return { create: /[wa+x]/.test(flags) && flags !== 'r+', truncate: flags.startsWith('w') };
    const value = typeof flags === 'number' ? flags : 0;
    return { create: (value & fs.constants.O_CREAT) !== 0, truncate: (value & fs.constants.O_TRUNC) !== 0 };
  };
  const created = (target: string, directory: boolean) =>
    append(RECORD.create, { ...entry(target), ino: ino(target), directory });

  const patched: Partial<typeof original> = {
    openSync(target: fs.PathLike, flags: fs.OpenMode = 'r', mode?: fs.Mode | null) {
      const name = String(target);
      if (!inside(name)) return original.openSync(target, flags, mode);
      const { create, truncate } = createsOrTruncates(flags);
      const existed = create ? exists(name) : true;
      const fd = original.openSync(target, flags, mode);
      if (!existed) created(name, false);
      else if (truncate) append(RECORD.truncate, { ino: ino(fd), size: 0 });
      return fd;
    },
    writeSync(fd: number, buffer: unknown, ...rest: unknown[]) {
      const written = (original.writeSync as (...args: unknown[]) => number)(fd, buffer, ...rest);
      const where = fd === journal ? null : fdPath(fd);
      if (where !== null && inside(where)) {
        if (!ArrayBuffer.isView(buffer)) throw new Error(`journal: unmodelled string write to ${where}`);
        const [offset = 0, , position] = rest as [
          number | undefined,
          number | undefined,
          number | null | undefined,
        ];
        if (typeof position !== 'number') throw new Error(`journal: write without a position to ${where}`);
        const start = buffer.byteOffset + offset;
        append(
          RECORD.write,
          { ino: ino(fd), offset: position },
          new Uint8Array(buffer.buffer, start, written),
        );
      }
      return written;
    },
    writeFileSync(
      target: fs.PathOrFileDescriptor,
      data: string | NodeJS.ArrayBufferView,
      options?: fs.WriteFileOptions,
    ) {
      if (typeof target === 'number' || !inside(String(target)))
        return original.writeFileSync(target, data, options);
      const name = String(target);
      const existed = exists(name);
      const bytes =
        typeof data === 'string'
          ? Buffer.from(data)
          : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      // Opened, truncated and written here, so that nothing inside Node's own writeFileSync is logged twice.
      const fd = original.openSync(
        name,
        'w',
        typeof options === 'object' && options?.mode !== undefined ? options.mode : 0o666,
      );
      try {
        if (!existed) created(name, false);
        else append(RECORD.truncate, { ino: ino(fd), size: 0 });
        let done = 0;
        while (done < bytes.length) done += original.writeSync(fd, bytes, done, bytes.length - done, done);
        if (bytes.length > 0) append(RECORD.write, { ino: ino(fd), offset: 0 }, bytes);
      } finally {
        fs.closeSync(fd);
      }
    },
    ftruncateSync(fd: number, size?: number) {
      original.ftruncateSync(fd, size);
      const where = fdPath(fd);
      if (where !== null && inside(where)) append(RECORD.truncate, { ino: ino(fd), size: size ?? 0 });
    },
    truncateSync(target: fs.PathLike, size?: number) {
      original.truncateSync(target, size);
      if (inside(String(target))) append(RECORD.truncate, { ino: ino(String(target)), size: size ?? 0 });
    },
    mkdirSync(target: fs.PathLike, options?: fs.Mode | fs.MakeDirectoryOptions | null) {
      const name = String(target);
      if (!inside(name)) return original.mkdirSync(target, options as fs.MakeDirectoryOptions);
      if (typeof options === 'object' && options?.recursive)
        throw new Error(`journal: unmodelled recursive mkdir ${name}`);
      const result = original.mkdirSync(target, options as fs.MakeDirectoryOptions);
      created(name, true);
      return result;
    },
    renameSync(from: fs.PathLike, to: fs.PathLike) {
      if (!inside(String(from)) && !inside(String(to))) return original.renameSync(from, to);
      const source = entry(String(from));
      const moved = ino(String(from));
      original.renameSync(from, to);
      append(RECORD.rename, { from: source, to: entry(String(to)), ino: moved });
    },
    unlinkSync(target: fs.PathLike) {
      if (!inside(String(target))) return original.unlinkSync(target);
      const removed = entry(String(target));
      original.unlinkSync(target);
      append(RECORD.remove, removed);
    },
    rmdirSync(target: fs.PathLike, options?: fs.RmDirOptions) {
      if (!inside(String(target))) return original.rmdirSync(target, options);
      const removed = entry(String(target));
      original.rmdirSync(target, options);
      append(RECORD.remove, removed);
    },
    symlinkSync(target: fs.PathLike, link: fs.PathLike, type?: fs.symlink.Type | null) {
      if (inside(String(link))) throw new Error(`journal: unmodelled symlink ${String(link)}`);
      return original.symlinkSync(target, link, type);
    },
  };
  for (const name of ['fsyncSync', 'fdatasyncSync'] as const) {
    patched[name] = (fd: number) => {
      const where = fdPath(fd);
      if (where === null || !inside(where)) return original[name](fd);
      const id = `${threadTag}.${++syncIds}`;
      append(RECORD.syncBegin, { ino: ino(fd), id });
      original[name](fd);
      append(RECORD.syncEnd, { id });
    };
  }
  Object.assign(fs, patched);
  syncBuiltinESMExports();

  const writeHead = http.ServerResponse.prototype.writeHead;
  http.ServerResponse.prototype.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    const key = this.req?.headers['x-idempotency-key'];
    if (typeof key === 'string') append(RECORD.answer, { key, status: args[0] });
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof writeHead;
}
