import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { benutzerTexts } from '../../../../contract/leitstand/benutzer.ts';
import { importTexts, runImport } from '../../../../contract/leitstand/import.ts';
import { texts } from '../../../../contract/texts.ts';
import type { Database } from '../../../db/schema.ts';
import { conflict } from '../../../domain/errors.ts';
import type { CallKind } from '../../../http/admission.ts';
import type { Steps } from '../../../http/back-office.ts';
import type { Claim } from '../../../http/idempotency.ts';
import type { Deps } from '../../../http/route.ts';
import { LeavesNoAdmin } from '../../../import/framework.ts';
import { isKindName } from '../../../import/kinds/index.ts';
import { inputSource, TooManyRows } from '../../../import/source.ts';
import {
  answerOf,
  applyRun,
  closeRun,
  createRun,
  type Engine,
  pendingRuns,
  RunGone,
  type RunOptions,
  stageRun,
} from '../../../import/staged.ts';
import { recordAudit } from '../../../repositories/audit.repository.ts';

/**
 * The Leitstand's CSV upload as a run in steps (docs/decisions/0030-import-in-steps.md), exactly once per
 * X-Idempotency-Key (decision 2): the key is claimed first, with the run, in a transaction of its own; the
 * file is read in a worker thread and checked, staged and written in short steps behind the floor; the
 * report is stored as the key's answer in the run's last step.
 *
 * - A repeat of a finished upload replays its stored answer.
 * - A repeat while the first copy is at work waits for it (up to WAIT_MS, then 409 `running`). If the
 *   first copy is found dead — this server does not run it and the database is its alone (PGlite), or it
 *   has not been touched for STALE_MS (PostgreSQL, another server) — the repeat takes over: a run being written
 *   is completed, a run still staging is dropped and the repeat does the work itself.
 * - The server completes any run it finds being written when it starts (`resume`), and on PostgreSQL
 *   looks for dead ones every SWEEP_MS.
 */

/** How long a repeat of an upload waits for its first copy before it answers 409 (ms). */
export const WAIT_MS = 5 * 60_000;
/**
 * A run not touched for this long has no server at work on it any more (ms): its server touches it every
 * HEARTBEAT_MS while it works on it (PostgreSQL; on PGlite a run this server does not know is dead anyway).
 */
export const STALE_MS = 30_000;
const HEARTBEAT_MS = 5_000;
/** How often a server on PostgreSQL looks for runs other servers left (ms). */
const SWEEP_MS = 10_000;
/** The most heap the worker reading an upload may take (MB): the bound of an upload's memory. */
export const UPLOAD_WORKER_HEAP_MB = 128;

/** The upload's body as it arrived: its bytes (read in the worker) and their SHA-256, taken as they came. */
export interface UploadBody {
  bytes: Buffer;
  digest: string;
}

/** Thrown by a step while the server shuts down: the run stays, the next start takes it up. */
class ShuttingDown extends Error {
  constructor() {
    super('import: the server is shutting down');
    this.name = 'ShuttingDown';
  }
}

type Answer = { status: number; body: unknown; replayed: boolean };

export class ImportUploads {
  /** The runs this server works on now, and when each is done with. */
  private readonly live = new Map<number, Promise<unknown>>();
  private closing = false;
  private sweepTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private readonly engine: Engine;
  private readonly route = `${runImport.method} ${runImport.path}`;

  constructor(
    private readonly deps: Deps,
    kind: CallKind,
    private readonly log: FastifyBaseLogger,
  ) {
    // Each step waits behind every handheld call in the gate's back-office lane. Never refused: the run
    // goes on if the admin closes the page, and its answer waits under the key for the repeat. Each waits
    // for the disk too, even where the run would not need it (StepOptions): beside the floor it must.
    const steps: Steps = {
      run: (work) => {
        if (this.closing) return Promise.reject(new ShuttingDown());
        return deps.admission.step(work, kind);
      },
    };
    this.engine = { db: deps.db, steps, imagesDir: deps.config.imagesDir };
  }

  private get db(): Kysely<Database> {
    return this.deps.db;
  }

  /** One upload whose login, role and key were checked. */
  async upload(user: { id: number }, kindName: string, body: UploadBody, key: string): Promise<Answer> {
    const claim: Claim = {
      key,
      userId: user.id,
      route: this.route,
      hash: createHash('sha256')
        .update(JSON.stringify([this.route, { kind: kindName }]))
        .update(body.digest)
        .digest('hex'),
    };
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const earlier = await this.engine.steps.run(() => this.storedUnder(claim));
      if (earlier === 'free') {
        const answer = await this.claimAndRun(claim, kindName, body);
        if (answer) return answer;
        continue; // another copy claimed the key in between: wait for it
      }
      if (earlier !== 'atWork') return earlier;
      await this.waitForRun(claim, deadline);
    }
  }

  /** The key's stored answer, 'atWork' (its first copy runs), or 'free'. 409 for another user, route or body. */
  private async storedUnder(claim: Claim): Promise<Answer | 'atWork' | 'free'> {
    const row = await this.db
      .selectFrom('idempotency')
      .select(['user_id', 'route', 'request_hash', 'status_code', 'response'])
      .where('key', '=', claim.key)
      .executeTakeFirst();
    if (!row) return 'free';
    if (row.user_id !== claim.userId || row.route !== claim.route || row.request_hash !== claim.hash)
      throw conflict(texts.errors.idempotencyConflict);
    if (row.status_code === 0) return 'atWork';
    return { status: row.status_code, body: row.response, replayed: true };
  }

  /** Claims the key with a new run and does the work; null when another copy claimed it first. */
  private async claimAndRun(claim: Claim, kindName: string, body: UploadBody): Promise<Answer | null> {
    const release = this.deps.heavy.enter(); // HeavyBusy: 503 with Retry-After, nothing claimed
    try {
      const options: RunOptions | null = isKindName(kindName)
        ? {
            kind: kindName,
            fileName: '',
            skipBad: false,
            keepAnAdmin: true,
            imagesSource: null,
            requestKey: claim.key,
            userId: claim.userId,
          }
        : null;
      const claimed = await this.engine.steps.run(() =>
        this.db.transaction().execute(async (trx) => {
          const refusal = options
            ? null
            : { success: false, message: importTexts.refusals.unknownKind(kindName) };
          const inserted = await trx
            .insertInto('idempotency')
            .values({
              key: claim.key,
              user_id: claim.userId,
              route: claim.route,
              request_hash: claim.hash,
              status_code: refusal ? 404 : 0,
              response: JSON.stringify(refusal),
            })
            .onConflict((oc) => oc.column('key').doNothing())
            .returning('key')
            .executeTakeFirst();
          if (!inserted) return null;
          if (!options) return { refused: refusal };
          return { runId: await createRun(trx, options) };
        }),
      );
      if (!claimed) return null;
      if ('refused' in claimed) return { status: 404, body: claimed.refused, replayed: false };
      if (!options) throw new Error('import: a run without options');
      return await this.track(claimed.runId, this.run(claimed.runId, options, body));
    } finally {
      release();
    }
  }

  /** Reads, stages and writes run `runId`; a refusal is stored as the key's answer. */
  private async run(runId: number, options: RunOptions, body: UploadBody): Promise<Answer> {
    // A refused upload writes nothing, as every refused call: its run is dropped and its key freed, so the
    // same key may carry the corrected file.
    // A refused file leaves a Protokoll row too (issue 39.6): who, which file of which kind, when, why.
    const journalRefusal = async (detail: Record<string, unknown>) => {
      const userId = options.userId;
      if (userId === null) return;
      // The file name travels in the body, which only the worker reads.
      const opened = await source.opened.catch(() => null);
      const fileName = (opened?.ok && opened.fileName) || options.fileName;
      await this.engine.steps.run(() =>
        recordAudit(this.db, {
          userId,
          requestKey: options.requestKey,
          action: `import.${options.kind}`,
          subject: fileName,
          detail: { kind: options.kind, ...detail, outcome: 'refused' },
        }),
      );
    };
    // `journal`: false for a body that broke the contract (a control character in the file name), a 400 as
    // on every call and journalled by none; true for a file refused for what it holds.
    const refuse = async (status: number, message: string, journal = true): Promise<Answer> => {
      await closeRun(this.engine, runId, null);
      if (journal) await journalRefusal({ reason: message });
      return { status, body: { success: false, message }, replayed: false };
    };
    const source = inputSource(
      { kind: options.kind, form: 'upload', bytes: body.bytes },
      { maxHeapMb: UPLOAD_WORKER_HEAP_MB },
    );
    try {
      const staged = await stageRun(this.engine, runId, options, source);
      if (!staged.opened) {
        if (staged.invalid) return await refuse(400, staged.invalid, false);
        return await refuse(400, importTexts.refusals.encoding);
      }
      if (staged.refused) {
        const answer = answerOf(staged.refused);
        await closeRun(this.engine, runId, { status: 200, body: answer });
        await journalRefusal({ rows: answer.rows, refusedRows: answer.refusedRows });
        return { status: 200, body: answer, replayed: false };
      }
    } catch (error) {
      if (error instanceof LeavesNoAdmin) return refuse(400, benutzerTexts.refusals.lastAdmin);
      if (error instanceof TooManyRows) return refuse(400, importTexts.refusals.tooManyRows);
      if (!(error instanceof ShuttingDown)) await closeRun(this.engine, runId, null).catch(() => {});
      throw error;
    } finally {
      await source.close();
    }
    this.log.info({ run: runId, kind: options.kind }, 'import: every row checked and staged, writing');
    const report = await applyRun(this.engine, runId);
    this.deps.changes.publish(runImport.name);
    return { status: 200, body: answerOf(report), replayed: false };
  }

  /**
   * Waits while the key's run is at work, or takes it over when it is dead: completes it (applying), or
   * drops it (staging), so the caller finds an answer or a free key. 409 `running` after `deadline`.
   */
  private async waitForRun(claim: Claim, deadline: number): Promise<void> {
    const [run] = await this.engine.steps.run(() => pendingRuns(this.db, STALE_MS, claim.key));
    if (!run) {
      // The run ended between the two reads (its answer is stored now), or it was dropped without freeing
      // its key (the server stopped in between): a key still at work without a run is freed.
      await this.engine.steps.run(() =>
        this.db.deleteFrom('idempotency').where('key', '=', claim.key).where('status_code', '=', 0).execute(),
      );
      return;
    }
    const mine = this.live.get(run.id);
    if (mine) {
      await Promise.race([mine.catch(() => {}), sleep(Math.max(0, deadline - Date.now()))]);
    } else if (this.deps.exclusiveDatabase || run.stale) {
      await this.takeOver(run.id, run.state);
    } else {
      await sleep(Math.min(500, Math.max(0, deadline - Date.now())));
    }
    if (Date.now() >= deadline) throw conflict(importTexts.refusals.running);
  }

  /** A dead run: completes it (being written) or drops it and frees its key (staging). */
  private async takeOver(runId: number, state: 'staging' | 'applying'): Promise<void> {
    if (this.live.has(runId)) return;
    if (state === 'staging') {
      await this.track(runId, closeRun(this.engine, runId, null));
      this.log.warn(
        { run: runId },
        'import: dropped a run left half-read by a stopped server; nothing of it was written',
      );
      return;
    }
    let release: () => void;
    try {
      release = this.deps.heavy.enter();
    } catch {
      return sleep(500); // another heavy operation runs: try again in a moment
    }
    try {
      await this.track(runId, applyRun(this.engine, runId));
      this.deps.changes.publish(runImport.name);
      this.log.warn({ run: runId }, 'import: completed a run a stopped server had begun to write');
    } catch (error) {
      if (!(error instanceof RunGone)) throw error;
    } finally {
      release();
    }
  }

  private track<T>(runId: number, work: Promise<T>): Promise<T> {
    const done = work.finally(() => this.live.delete(runId));
    this.live.set(runId, done);
    return done;
  }

  /**
   * Other servers (PostgreSQL) must see that this one still works on its runs, also while a run waits
   * behind the floor or its file is read: the runs are touched every HEARTBEAT_MS, outside the gate (one
   * short statement).
   */
  private beat(): void {
    if (this.live.size === 0 || this.closing) return;
    void this.db
      .updateTable('import_runs')
      .set({ touched_at: sql`now()` })
      .where('id', 'in', [...this.live.keys()])
      .execute()
      .catch((error) => this.log.warn({ err: error }, 'import: could not mark the runs at work'));
  }

  /**
   * At the server's start: completes the runs being written that no server works on, drops those left
   * half-read. On the embedded database every run found is dead (one process holds the data folder); on
   * PostgreSQL those not moved for STALE_MS, looked for again every SWEEP_MS.
   */
  start(): void {
    this.sweeping = this.sweep().finally(() => {
      this.sweeping = null;
    });
    if (!this.deps.exclusiveDatabase) {
      this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
      this.heartbeat.unref();
      this.sweepTimer = setInterval(() => {
        this.sweeping ??= this.sweep().finally(() => {
          this.sweeping = null;
        });
      }, SWEEP_MS);
      this.sweepTimer.unref();
    }
  }

  private async sweep(): Promise<void> {
    try {
      const runs = await this.engine.steps.run(() => pendingRuns(this.db, STALE_MS));
      for (const run of runs) {
        if (this.closing) return;
        if (this.live.has(run.id) || !(this.deps.exclusiveDatabase || run.stale)) continue;
        await this.takeOver(run.id, run.state);
      }
    } catch (error) {
      if (!(error instanceof ShuttingDown))
        this.log.error({ err: error }, 'import: completing runs left by a stopped server failed');
    }
  }

  /** Stops between two steps: what is at work stays in the database for the next start. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    await Promise.allSettled([this.sweeping, ...this.live.values()]);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
