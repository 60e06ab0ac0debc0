import type { PGlite } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * Kysely dialect for PGlite. PGlite is one PostgreSQL session, so a transaction must own it from BEGIN to
 * COMMIT: every connection holds a mutex until it is released. Without that, two concurrent transactions
 * interleave on the one session (a rollback would undo the other's work — the trap kysely-pglite falls into).
 */
export class PGliteDialect implements Dialect {
  private readonly mutex = new Mutex();
  constructor(private readonly pglite: PGlite) {}
  /** Whether a connection holds the session, and how many wait for it (GET /metrics). */
  sessionUse(): { held: boolean; waiting: number } {
    return { held: this.mutex.queued > 0, waiting: Math.max(0, this.mutex.queued - 1) };
  }
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.mutex);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

class Mutex {
  private tail: Promise<void> = Promise.resolve();
  /** Holders and waiters: the one holding it, then the ones in line. */
  queued = 0;
  lock(): Promise<() => void> {
    this.queued++;
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      let released = false;
      release = () => {
        if (released) return;
        released = true;
        this.queued--;
        resolve();
      };
    });
    const acquired = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return acquired;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly pglite: PGlite,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[], {
      rowMode: 'object',
    });
    const affected = result.affectedRows;
    return { rows: result.rows, numAffectedRows: affected === undefined ? undefined : BigInt(affected) };
  }

  /** PGlite has no cursors; the whole result is one chunk. */
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(compiled);
  }
}

class PGliteDriver implements Driver {
  constructor(
    private readonly pglite: PGlite,
    private readonly mutex: Mutex,
  ) {}

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.lock();
    return new PGliteConnection(this.pglite, release);
  }

  async beginTransaction(
    connection: DatabaseConnection,
    settings: { isolationLevel?: string },
  ): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await this.pglite.query(`begin${level}`);
    void connection;
  }

  async commitTransaction(): Promise<void> {
    await this.pglite.query('commit');
  }

  async rollbackTransaction(): Promise<void> {
    await this.pglite.query('rollback');
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).release();
  }

  async destroy(): Promise<void> {
    // Let whatever holds the session finish, then close.
    const release = await this.mutex.lock();
    try {
      if (!this.pglite.closed) await this.pglite.close();
    } finally {
      release();
    }
  }
}
