// Over 400 lines: the file layer's promise to the disk in one place (decision 28) — the WAL's group commit and
// the hooks that keep WAL before data share its positions and rules; apart, the order would be checked across two files.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/**
 * PGlite's file layer (Emscripten's NODEFS) made to keep PostgreSQL's promises to the disk (decision 28).
 *
 * Out of the box NODEFS has no `fsync` (Emscripten's fd_sync then does nothing and reports success) and
 * PGlite starts PostgreSQL with `-F` (fsync off): nothing is ever forced to disk. With fsync on and
 * `wal_sync_method = fsync` (Emscripten's fdatasync is a no-op we cannot replace; fsync goes through the
 * stream), PostgreSQL asks for every sync it needs, and this layer does them:
 *
 * - A WAL segment's sync (each commit's XLogFlush) is a **group commit off the main thread**: the request
 *   is noted and handed to a thread of our own that runs fdatasync on our own descriptor of the segment;
 *   the requests that arrive while it runs share the next one. PostgreSQL already counts that WAL as
 *   flushed, so nothing may depend on it before the sync completes:
 *   - an answer: the database connection is released only after `whenDurable()`, which waits for every
 *     WAL sync requested so far (the dialect awaits it for every statement and transaction);
 *   - a write to any other file (a data page, the control file, the commit log) or a change of a
 *     directory (create, rename, unlink, truncate): `drain()` first finishes every outstanding WAL sync on
 *     this thread — WAL before data, as PostgreSQL's buffer manager assumes. Except a table's or index's
 *     page whose LSN (the WAL record that last changed it, in the page's header) is already on disk: as
 *     PostgreSQL itself flushes the WAL only up to a page's LSN before writing the page. Pages evicted
 *     while an import writes are mostly such older pages; each drain held the thread 5–130 ms (issue 37).
 * - Every other sync (data files at a checkpoint, new WAL segments, directories after a rename) is done
 *   at once on this thread, as PostgreSQL asked for it.
 *
 * A sync on the libuv threadpool would queue behind the logins' password hashing (16 MB scrypt each, four
 * threads); a thread of its own keeps a shift's logins from holding up every booking's answer.
 */

/** A WAL segment: pg_wal/ and 24 hex digits (timeline, log, segment). */
const WAL_SEGMENT = /[/\\]pg_wal[/\\][0-9A-F]{24}$/;
/** A table's or index's file (main fork, free space map, visibility map, and their 1 GB parts). */
const RELATION_FILE = /[/\\](?:base[/\\]\d+|global)[/\\]\d+(?:_fsm|_vm)?(?:\.\d+)?$/;
/** PostgreSQL's page (BLCKSZ) and WAL segment sizes, as PGlite builds and initialises them. */
const PAGE_BYTES = 8192;
const SEGMENT_BYTES = 16 * 1024 * 1024;

/**
 * The WAL position (LSN, as a number: exact below 2^53, 8 PB of WAL) of byte `offset` of `segment`: its
 * name is timeline, then the LSN's high 32 bits, then the segment within them (256 of 16 MB each).
 */
export function walPosition(segment: string, offset: number): number {
  const name = segment.slice(-24);
  const high = Number.parseInt(name.slice(8, 16), 16);
  const low = Number.parseInt(name.slice(16, 24), 16);
  return high * 2 ** 32 + low * SEGMENT_BYTES + offset;
}

/** The LSN in a page's header (`pd_lsn`: two 32-bit halves, high first, little-endian as in WebAssembly). */
export function pageLsn(bytes: Uint8Array, at: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, 8);
  return view.getUint32(0, true) * 2 ** 32 + view.getUint32(4, true);
}
/** Emscripten's errno for EIO: what a failed sync or write reports to PostgreSQL (which then PANICs). */
const EMSCRIPTEN_EIO = 29;

interface EmscriptenStream {
  nfd: number;
  node: unknown;
}
type Op = (...args: never[]) => unknown;
interface NodefsModule {
  NODEFS: {
    realPath(node: unknown): string;
    stream_ops: Record<string, Op>;
    node_ops: Record<string, Op>;
  };
  FS: { ErrnoError: new (errno: number) => Error };
}

/**
 * The sync thread: fdatasync of the descriptors it is sent, one round at a time. Its own source, so no bundle
 * needs a file for it; getBuiltinModule, as an evaluated thread is CommonJS or a module as its process is.
 */
const SYNC_THREAD = `
const fs = process.getBuiltinModule('node:fs');
const { parentPort } = process.getBuiltinModule('node:worker_threads');
parentPort.on('message', (fds) => {
  let error = null;
  for (const fd of fds) {
    try { fs.fdatasyncSync(fd); } catch (e) { error = String(e && e.message || e); }
  }
  parentPort.postMessage(error);
});`;

export class DurabilityError extends Error {}

/**
 * The WAL's group commit: which syncs PostgreSQL asked for, which are done, who waits for them.
 * Counts requests, not bytes: a sync that starts after request n covers everything written before it.
 */
export class WalSync {
  /** WAL syncs PostgreSQL asked for so far, and how many of them are done. */
  private requested = 0;
  private durable = 0;
  /**
   * WAL positions: the end of the WAL written so far; the end the requests so far cover (what was written
   * when each was asked, within its segment); the end on disk. Null once a WAL write did not fit a segment
   * as we know it: no page is then judged by its LSN, every data write drains as before.
   */
  private written: number | null = 0;
  private requestedLsn = 0;
  private durableLsn = 0;
  /** Segments with a request not yet sent to the sync thread. */
  private readonly pending = new Set<string>();
  /** The round the sync thread works on: the requests it covers and the segments it syncs. */
  private inFlight: { upTo: number; upToLsn: number; paths: string[] } | null = null;
  /** Our own read-only descriptors of segments (fdatasync works on any descriptor of the file). */
  private readonly fds = new Map<string, number>();
  private waiters: { upTo: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  private failure: DurabilityError | null = null;
  private worker: Worker | null = null;
  /**
   * Rounds the sync thread ran; the drains: syncs done on this thread to keep WAL before data; and the data
   * pages written while a sync was outstanding that needed none (their WAL was on disk already).
   */
  readonly counts = { rounds: 0, drains: 0, pagesAhead: 0 };

  constructor(private readonly syncThread: () => Worker = () => new Worker(SYNC_THREAD, { eval: true })) {}

  /** PostgreSQL asked for a WAL segment's sync (it counts the WAL as flushed once this returns). */
  request(segment: string): void {
    if (this.failure) throw this.failure;
    this.requested++;
    if (!WAL_SEGMENT.test(segment)) this.written = null;
    if (this.written !== null) {
      const segmentEnd = walPosition(segment, SEGMENT_BYTES);
      this.requestedLsn = Math.max(this.requestedLsn, Math.min(this.written, segmentEnd));
    }
    this.pending.add(segment);
    if (!this.inFlight) this.startRound();
  }

  /** No WAL sync outstanding: nothing written now can come before WAL it depends on. */
  idle(): boolean {
    return this.durable >= this.requested;
  }

  /** PostgreSQL wrote `length` bytes of WAL at `position` of `segment`. */
  wrote(segment: string, position: number, length: number): void {
    if (this.written === null) return;
    if (
      !WAL_SEGMENT.test(segment) ||
      !Number.isSafeInteger(position) ||
      position < 0 ||
      position + length > SEGMENT_BYTES
    ) {
      this.written = null;
      return;
    }
    this.written = Math.max(this.written, walPosition(segment, position + length));
  }

  /** The WAL up to `lsn` is on disk: a page stamped with it may be written with no sync first. */
  onDiskUpTo(lsn: number): boolean {
    // Written as a negation: a position that is not a number is never on disk.
    if (this.written === null || !(lsn <= this.durableLsn)) return false;
    this.counts.pagesAhead++;
    return true;
  }

  /** WAL syncs asked for so far, and done so far (for tests and metrics). */
  progress(): { requested: number; durable: number } {
    return { requested: this.requested, durable: this.durable };
  }

  /**
   * Resolves once every WAL sync requested so far is done; undefined when there is nothing to wait for (the
   * common case of a lookup: no promise, no tick). Rejects when a sync failed: from then on nothing that
   * PostgreSQL counts as committed may be acknowledged — restart the server, and recovery replays what did
   * reach the disk.
   */
  whenDurable(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.durable >= this.requested) return undefined;
    const upTo = this.requested;
    return new Promise((resolve, reject) => this.waiters.push({ upTo, resolve, reject }));
  }

  /**
   * Finishes every outstanding WAL sync on this thread, before PostgreSQL writes anything that the WAL must
   * be on disk ahead of. Blocks this thread for one sync; needed only when a request is outstanding, which
   * a data page write rarely meets (pages are written at eviction and checkpoints, not at commit).
   */
  drain(): void {
    if (this.failure) throw this.failure;
    if (this.durable >= this.requested) return;
    const paths = new Set([...this.pending, ...(this.inFlight?.paths ?? [])]);
    try {
      for (const segment of paths) fs.fdatasyncSync(this.fdOf(segment));
    } catch (error) {
      this.fail(String((error as Error).message ?? error));
      throw this.failure;
    }
    this.counts.drains++;
    this.pending.clear();
    this.durable = this.requested;
    this.durableLsn = this.requestedLsn;
    this.settle();
  }

  /** After PostgreSQL shut down: nothing may be left unsynced, then the thread and descriptors go. */
  async close(): Promise<void> {
    if (!this.failure) this.drain();
    // Terminating waits for a sync the thread is in; its answer is not needed, the drain covered it. The
    // thread is let go first, and held until it has ended: its last answer must not unref it meanwhile.
    const worker = this.worker;
    this.worker = null;
    this.inFlight = null;
    if (worker) {
      worker.removeAllListeners('message');
      worker.ref();
      await worker.terminate();
    }
    for (const fd of this.fds.values()) fs.closeSync(fd);
    this.fds.clear();
  }

  private startRound(): void {
    const paths = [...this.pending];
    this.pending.clear();
    let fds: number[];
    try {
      fds = paths.map((segment) => this.fdOf(segment));
    } catch (error) {
      this.fail(String((error as Error).message ?? error));
      return;
    }
    this.inFlight = { upTo: this.requested, upToLsn: this.requestedLsn, paths };
    this.counts.rounds++;
    const thread = this.thread();
    // Held while a sync runs: a caller awaiting it may be all that is left of a process (a CLI, the bench).
    thread.ref();
    thread.postMessage(fds);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = this.syncThread();
    worker.on('message', (error: string | null) => this.roundDone(error));
    worker.on('error', (error) => this.fail(`the sync thread failed: ${error.message}`));
    this.worker = worker;
    return worker;
  }

  private roundDone(error: string | null): void {
    const round = this.inFlight;
    this.inFlight = null;
    // Idle, the thread keeps no process alive (unref after the listeners: adding one refs it again).
    this.worker?.unref();
    if (!round) return;
    if (error !== null) {
      this.fail(error);
      return;
    }
    this.durable = Math.max(this.durable, round.upTo);
    this.durableLsn = Math.max(this.durableLsn, round.upToLsn);
    this.settle();
    // Descriptors of segments neither just synced nor waiting: a finished segment is not asked for again.
    for (const [segment, fd] of this.fds) {
      if (!round.paths.includes(segment) && !this.pending.has(segment)) {
        this.fds.delete(segment);
        fs.closeSync(fd);
      }
    }
    if (this.pending.size > 0) this.startRound();
  }

  private settle(): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (waiter.upTo <= this.durable) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  private fail(reason: string): void {
    this.failure ??= new DurabilityError(
      `The disk did not confirm a write of the embedded database (${reason}). Nothing committed since is ` +
        'acknowledged; restart the server (PostgreSQL recovers from what reached the disk) and check the disk.',
    );
    for (const waiter of this.waiters) waiter.reject(this.failure);
    this.waiters = [];
  }

  private fdOf(segment: string): number {
    let fd = this.fds.get(segment);
    if (fd === undefined) {
      fd = fs.openSync(segment, 'r');
      this.fds.set(segment, fd);
    }
    return fd;
  }
}

/** NODEFS with PostgreSQL's syncs done (see above). */
export class DurableNodeFS extends NodeFS {
  readonly wal = new WalSync();

  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const result = await super.init(pg, opts);
    const preRun = result.emscriptenOpts.preRun ?? [];
    result.emscriptenOpts.preRun = [...preRun, (mod: unknown) => installSyncs(mod as NodefsModule, this.wal)];
    return result;
  }

  override async closeFs(): Promise<void> {
    await super.closeFs();
    await this.wal.close();
  }
}

function installSyncs(mod: NodefsModule, wal: WalSync): void {
  const { NODEFS, FS } = mod;
  const streamOps = NODEFS.stream_ops;
  const nodeOps = NODEFS.node_ops;
  const segments = new WeakMap<EmscriptenStream, string | null>();
  const relations = new WeakMap<EmscriptenStream, boolean>();
  const segmentOf = (stream: EmscriptenStream): string | null => {
    let segment = segments.get(stream);
    if (segment === undefined) {
      const real = NODEFS.realPath(stream.node);
      segment = WAL_SEGMENT.test(real) ? real : null;
      segments.set(stream, segment);
    }
    return segment;
  };
  const isRelation = (stream: EmscriptenStream): boolean => {
    let relation = relations.get(stream);
    if (relation === undefined) {
      relation = RELATION_FILE.test(NODEFS.realPath(stream.node));
      relations.set(stream, relation);
    }
    return relation;
  };
  const asErrno = (action: () => void) => {
    try {
      action();
    } catch (error) {
      if (error instanceof FS.ErrnoError) throw error;
      throw new FS.ErrnoError(EMSCRIPTEN_EIO);
    }
  };
  // WAL before data: nothing but WAL reaches a file or a directory while a WAL sync is outstanding.
  const afterWal =
    (op: Op): Op =>
    (...args) => {
      asErrno(() => wal.drain());
      return op(...args);
    };

  /** A write of a data file that need not wait for the WAL's syncs (the two kinds below). */
  type NeedsNoWal = (
    stream: EmscriptenStream,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ) => boolean;
  // A block of zeros past the end of its file is PostgreSQL extending a relation: not WAL-logged, and an
  // all-zero page is a new page to recovery, so it need not wait for the WAL. Most writes while the WAL
  // is syncing are these (the journal and exactly-once tables grow by a page every few bookings).
  const extendsWithZeros: NeedsNoWal = (stream, buffer, offset, length, position) => {
    for (let i = offset; i < offset + length; i++) if (buffer[i] !== 0) return false;
    return position >= fs.fstatSync(stream.nfd).size;
  };
  type Write = (
    stream: EmscriptenStream,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
    canOwn?: boolean,
  ) => number;
  const write = streamOps.write as unknown as Write;
  // Whole pages of a table or index whose LSNs the WAL on disk already reaches: PostgreSQL flushed the WAL
  // up to them (XLogFlush) before this write, as it does before every page it writes out.
  const walAlreadyOnDisk: NeedsNoWal = (stream, buffer, offset, length, position) => {
    if (length === 0 || length % PAGE_BYTES !== 0 || position % PAGE_BYTES !== 0 || !isRelation(stream))
      return false;
    let newest = 0;
    for (let at = offset; at < offset + length; at += PAGE_BYTES)
      newest = Math.max(newest, pageLsn(buffer, at));
    return wal.onDiskUpTo(newest);
  };
  streamOps.write = ((stream, buffer, offset, length, position, canOwn) => {
    const segment = segmentOf(stream);
    if (
      segment === null &&
      !(
        wal.idle() ||
        extendsWithZeros(stream, buffer, offset, length, position) ||
        walAlreadyOnDisk(stream, buffer, offset, length, position)
      )
    )
      asErrno(() => wal.drain());
    const written = write(stream, buffer, offset, length, position, canOwn);
    if (segment !== null) wal.wrote(segment, position, length);
    return written;
  }) as Write as unknown as Op;
  if (streamOps.setattr) streamOps.setattr = afterWal(streamOps.setattr);
  for (const name of ['mknod', 'rename', 'unlink', 'rmdir', 'symlink', 'setattr']) {
    const op = nodeOps[name];
    if (op) nodeOps[name] = afterWal(op);
  }
  streamOps.fsync = ((stream: EmscriptenStream) => {
    const segment = segmentOf(stream);
    asErrno(() => (segment === null ? fs.fsyncSync(stream.nfd) : wal.request(segment)));
    return 0;
  }) as Op;
}

/**
 * A new data directory was unpacked by PGlite with plain writes: force every file and directory of it to disk
 * once (as initdb does at its end), and the entries naming it in the folders above.
 */
export function syncTree(root: string, alsoParents: string[]): void {
  const syncPath = (target: string) => {
    const fd = fs.openSync(target, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  };
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) syncPath(full);
    }
    syncPath(dir);
  };
  walk(root);
  for (const dir of alsoParents) syncPath(dir);
}
