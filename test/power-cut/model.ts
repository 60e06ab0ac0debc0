import fs from 'node:fs';
import path from 'node:path';
import { RECORD } from './records.ts';

/**
 * A disk as PostgreSQL may assume it, rebuilt from the server's file journal (journal-preload.ts): what it
 * would hold had the power gone at any record of the log.
 *
 * - A write reaches stable storage only through a sync of its file that began after it (fsync/fdatasync);
 *   the sync makes the file's size durable too.
 * - A directory entry (a file created, renamed or removed) only through a sync of that directory.
 * - Everything else the process wrote is thrown away ('synced'); or — as the kernel may write any dirty page
 *   back whenever it likes — each 4 KiB block written since its file's last sync is kept in any one of the
 *   states it went through, or not at all, and an unsynced size change kept or not ('any-block'); or every
 *   file but the WAL was written back whole and the WAL only as far as it was synced ('data-first'): data
 *   reaching the disk before the WAL that describes it, what PostgreSQL's order of syncs must rule out.
 *
 * Files are followed by inode, as the journal names them; a directory's entries point at the file they
 * named, so a file removed (or renamed) without a sync of its directory is still there after the cut.
 */
const BLOCK = 4096;

interface File {
  kind: 'file';
  /** A WAL segment (pg_wal/ and 24 hex digits), for the 'data-first' retention. */
  wal: boolean;
  /** Its content when the server started (durable); null for a file created during the run. */
  basePath: string | null;
  base: Buffer;
  size: number;
  durableSize: number;
  /** Blocks changed since the start: now, and as last synced. */
  current: Map<number, Buffer>;
  durable: Map<number, Buffer>;
  /** Each state a block went through since its last sync, with the record that made it. */
  unsynced: Map<number, { at: number; data: Buffer }[]>;
}
interface Directory {
  kind: 'dir';
  name: string;
  current: Map<string, Node>;
  durable: Map<string, Node>;
}
type Node = File | Directory;

export interface Answer {
  /** Index of the record: answered before a cut at a greater index. */
  at: number;
  key: string;
  status: number;
}

export interface JournalRecord {
  type: number;
  meta: JournalMeta;
  data: Buffer | null;
}
// biome-ignore lint/suspicious/noExplicitAny: the journal's JSON, as written by the preload
type JournalMeta = any;

export function readJournal(journalPath: string): JournalRecord[] {
  const bytes = fs.readFileSync(journalPath);
  const records: JournalRecord[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const length = bytes.readUInt32LE(offset);
    const type = bytes.readUInt8(offset + 4);
    const jsonLength = bytes.readUInt32LE(offset + 5);
    const meta = JSON.parse(bytes.toString('utf8', offset + 9, offset + 9 + jsonLength));
    const data = length > 9 + jsonLength ? bytes.subarray(offset + 9 + jsonLength, offset + length) : null;
    records.push({ type, meta, data });
    offset += length;
  }
  return records;
}

export type Retention = 'synced' | 'any-block' | 'data-first';

export class DiskModel {
  private readonly byIno = new Map<number, Node>();
  private readonly syncs = new Map<
    string,
    { node: Node; upTo: number; size: number; entries?: Map<string, Node> }
  >();
  private readonly root: Directory;
  /** Records applied so far: the moment the power would go. */
  position = 0;
  readonly answers: Answer[] = [];

  /**
   * The folder as the server found it at start, all of it on stable storage: `running`, where the server
   * runs (the journal names its inodes), and `pristine`, an identical copy nobody writes to (the content).
   */
  constructor(running: string, pristine: string) {
    this.root = this.scan(running, pristine);
  }

  private scan(dir: string, pristine: string): Directory {
    const node: Directory = { kind: 'dir', name: path.basename(dir), current: new Map(), durable: new Map() };
    this.byIno.set(Number(fs.lstatSync(dir).ino), node);
    for (const entry of fs.readdirSync(pristine, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const source = path.join(pristine, entry.name);
      let child: Node;
      if (entry.isDirectory()) child = this.scan(full, source);
      else if (entry.isFile()) {
        child = newFile(source, fs.readFileSync(source), isWal(path.basename(dir), entry.name));
        this.byIno.set(Number(fs.lstatSync(full).ino), child);
      } else throw new Error(`power-cut model: ${source} is neither file nor directory`);
      node.current.set(entry.name, child);
      node.durable.set(entry.name, child);
    }
    return node;
  }

  /** Applies the records up to (not including) `end`. */
  advance(records: JournalRecord[], end: number): void {
    for (; this.position < end; this.position++) {
      const record = records[this.position];
      if (record) this.apply(record, this.position);
    }
  }

  private node(ino: number): Node {
    const node = this.byIno.get(ino);
    if (!node) throw new Error(`power-cut model: unknown inode ${ino} at record ${this.position}`);
    return node;
  }
  private file(ino: number): File {
    const node = this.node(ino);
    if (node.kind !== 'file') throw new Error(`power-cut model: inode ${ino} is a directory`);
    return node;
  }
  private dir(ino: number): Directory {
    const node = this.node(ino);
    if (node.kind !== 'dir') throw new Error(`power-cut model: inode ${ino} is a file`);
    return node;
  }

  private apply(record: JournalRecord, at: number): void {
    const m = record.meta;
    switch (record.type) {
      case RECORD.write: {
        const file = this.file(m.ino);
        const data = record.data ?? Buffer.alloc(0);
        let done = 0;
        while (done < data.length) {
          const position = m.offset + done;
          const index = Math.floor(position / BLOCK);
          const within = position - index * BLOCK;
          const count = Math.min(BLOCK - within, data.length - done);
          const block = Buffer.from(currentBlock(file, index));
          data.copy(block, within, done, done + count);
          setBlock(file, index, block, at);
          done += count;
        }
        file.size = Math.max(file.size, m.offset + data.length);
        break;
      }
      case RECORD.truncate: {
        const file = this.file(m.ino);
        const first = Math.floor(m.size / BLOCK);
        const last = Math.ceil(Math.max(file.size, file.base.length) / BLOCK);
        for (let index = first; index < last; index++) {
          const block = Buffer.from(currentBlock(file, index));
          block.fill(0, index === first ? m.size - first * BLOCK : 0);
          setBlock(file, index, block, at);
        }
        file.size = m.size;
        break;
      }
      case RECORD.create: {
        const parent = this.dir(m.dir);
        const node: Node = m.directory
          ? { kind: 'dir', name: m.name, current: new Map(), durable: new Map() }
          : newFile(null, Buffer.alloc(0), isWal(parent.name, m.name));
        this.byIno.set(m.ino, node);
        parent.current.set(m.name, node);
        break;
      }
      case RECORD.rename: {
        const from = this.dir(m.from.dir);
        const node = from.current.get(m.from.name);
        if (!node) throw new Error(`power-cut model: rename of unknown ${m.from.name}`);
        from.current.delete(m.from.name);
        const to = this.dir(m.to.dir);
        to.current.set(m.to.name, node);
        if (node.kind === 'file') node.wal = isWal(to.name, m.to.name);
        break;
      }
      case RECORD.remove:
        this.dir(m.dir).current.delete(m.name);
        break;
      case RECORD.syncBegin: {
        const node = this.node(m.ino);
        this.syncs.set(
          m.id,
          node.kind === 'dir'
            ? { node, upTo: at, size: 0, entries: new Map(node.current) }
            : { node, upTo: at, size: node.size },
        );
        break;
      }
      case RECORD.syncEnd: {
        const sync = this.syncs.get(m.id);
        if (!sync) throw new Error(`power-cut model: end of an unknown sync ${m.id}`);
        this.syncs.delete(m.id);
        if (sync.node.kind === 'dir') {
          sync.node.durable = sync.entries ?? new Map();
          break;
        }
        const file = sync.node;
        for (const [index, states] of file.unsynced) {
          const covered = states.filter((s) => s.at < sync.upTo);
          const last = covered.at(-1);
          if (last) file.durable.set(index, last.data);
          const later = states.filter((s) => s.at > sync.upTo);
          if (later.length > 0) file.unsynced.set(index, later);
          else file.unsynced.delete(index);
        }
        file.durableSize = sync.size;
        break;
      }
      case RECORD.answer:
        this.answers.push({ at, key: m.key, status: m.status });
        break;
      default:
        throw new Error(`power-cut model: unknown record type ${record.type}`);
    }
  }

  /** Writes what the disk holds at this moment into `target` (which must not exist). */
  materialize(target: string, retention: Retention, random: () => number): void {
    const write = (dir: Directory, at: string) => {
      fs.mkdirSync(at);
      for (const [name, node] of dir.durable) {
        const full = path.join(at, name);
        if (node.kind === 'dir') write(node, full);
        else writeFile(node, full, retention, random);
      }
    };
    write(this.root, target);
  }
}

const isWal = (dirName: string, name: string) => dirName === 'pg_wal' && /^[0-9A-F]{24}$/.test(name);

function newFile(basePath: string | null, base: Buffer, wal: boolean): File {
  return {
    kind: 'file',
    wal,
    basePath,
    base,
    size: base.length,
    durableSize: base.length,
    current: new Map(),
    durable: new Map(),
    unsynced: new Map(),
  };
}

const ZERO = Buffer.alloc(BLOCK);
function baseBlock(file: File, index: number): Buffer {
  const start = index * BLOCK;
  if (start >= file.base.length) return ZERO;
  const block = file.base.subarray(start, start + BLOCK);
  return block.length === BLOCK ? block : Buffer.concat([block, ZERO.subarray(block.length)]);
}
function currentBlock(file: File, index: number): Buffer {
  return file.current.get(index) ?? baseBlock(file, index);
}
function setBlock(file: File, index: number, block: Buffer, at: number): void {
  file.current.set(index, block);
  const states = file.unsynced.get(index) ?? [];
  states.push({ at, data: block });
  file.unsynced.set(index, states);
}

function writeFile(file: File, target: string, retention: Retention, random: () => number): void {
  const kept = new Map<number, Buffer>();
  let size = file.durableSize;
  if (retention === 'data-first' && !file.wal) {
    for (const [index, states] of file.unsynced) {
      const last = states.at(-1);
      if (last) kept.set(index, last.data);
    }
    size = file.size;
  } else if (retention === 'any-block' && file.unsynced.size > 0) {
    for (const [index, states] of file.unsynced) {
      // Not written back at all, or written back in any one of the states it went through.
      const pick = Math.floor(random() * (states.length + 1));
      const state = states[pick - 1];
      if (state) kept.set(index, state.data);
    }
    if (random() < 0.5) size = file.size;
  }
  if (file.basePath !== null && file.durable.size === 0 && kept.size === 0 && size === file.base.length) {
    fs.copyFileSync(file.basePath, target);
    return;
  }
  const content = Buffer.alloc(size);
  file.base.copy(content, 0, 0, Math.min(size, file.base.length));
  for (const source of [file.durable, kept]) {
    for (const [index, block] of source) {
      const start = index * BLOCK;
      if (start < size) block.copy(content, start, 0, Math.min(BLOCK, size - start));
    }
  }
  fs.writeFileSync(target, content);
}
