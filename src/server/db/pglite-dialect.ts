import { type PGlite, protocol } from '@electric-sql/pglite';
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
import { afterRelease } from './durability.ts';
import { BatchWriter, type Columns, readResult } from './pglite-wire.ts';

/**
 * Kysely dialect for PGlite. PGlite is one PostgreSQL session, so a transaction must own it from BEGIN to
 * COMMIT: every connection holds a mutex until it is released. Without that, two concurrent transactions
 * interleave on the one session (a rollback would undo the other's work — the trap kysely-pglite falls into).
 */
export class PGliteDialect implements Dialect {
  private readonly mutex = new Mutex();
  /**
   * `whenDurable`: what a released connection waits for before its caller goes on (and answers): every
   * commit so far on disk (pglite-durable-fs.ts); undefined when there is nothing to wait for.
   */
  constructor(
    private readonly pglite: PGlite,
    private readonly whenDurable?: () => Promise<void> | undefined,
  ) {}
  /** Whether a connection holds the session, and how many wait for it (GET /metrics). */
  sessionUse(): { held: boolean; waiting: number } {
    return { held: this.mutex.queued > 0, waiting: Math.max(0, this.mutex.queued - 1) };
  }
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.mutex, this.whenDurable);
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

/**
 * The statements this session has prepared. PGlite's query() sends every statement through six calls into
 * the WebAssembly module (parse, describe, bind, describe, execute, sync) and PostgreSQL plans it anew each
 * time; here the application's statements are parsed and described once under a name, as on PostgreSQL
 * (connect.ts), and each call is one batch — Bind, Execute, Sync — with the columns described at preparing,
 * written and read by our own lean codec (pglite-wire.ts). A lookup's work in PGlite: ≈ 115 → 45 µs
 * (20,000-location table, in memory) with PGlite's codec, less again with ours.
 *
 * Long texts and many parameters (bulk inserts, long `in` lists) vary in shape; they stay unnamed, through
 * query(), so the session never collects thousands. At most MAX_STATEMENTS are kept: the oldest is closed
 * when a new one is prepared.
 */
const MAX_STATEMENTS = 500;
/** "cached plan must not change result type": a table under a prepared statement changed its columns. */
const FEATURE_NOT_SUPPORTED = '0A000';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

interface Prepared {
  name: string;
  /** The parameters' types, for PGlite's serializers (a Date for timestamptz, an object for jsonb). */
  parameterTypes: number[];
  /** The result's columns; undefined when the statement returns no rows (Describe answered NoData). */
  columns: Columns | undefined;
}

/**
 * One statement at a time: Kysely runs a connection's queries one after the other, and the mutex gives the
 * session to one connection at a time — so the shared batch buffer and PGlite's unnamed portal are never
 * used by two calls at once.
 */
class PreparedStatements {
  private readonly prepared = new Map<string, Promise<Prepared>>();
  private readonly writer = new BatchWriter();
  private counter = 0;
  constructor(private readonly pglite: PGlite) {}

  async run<R>(text: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    if (this.pglite.closed) throw new Error('PGlite is closed');
    if (!worthNaming(text, parameters)) {
      const result = await this.pglite.query<R>(text, parameters as unknown[], { rowMode: 'object' });
      return { rows: result.rows, numAffectedRows: affectedRows(result.affectedRows) };
    }
    const statement = await this.statement(text);
    const values: (string | null)[] = [];
    for (let i = 0; i < parameters.length; i++) {
      const value = parameters[i];
      if (value === null || value === undefined) {
        values.push(null);
        continue;
      }
      const serialize = this.pglite.serializers[statement.parameterTypes[i] ?? 0];
      const serialized = serialize ? serialize(value) : String(value);
      // Only text goes this way (bytea, which PGlite sends as binary, is not in the schema).
      if (typeof serialized !== 'string') throw new Error(`PGlite dialect: parameter ${i + 1} is not text`);
      values.push(serialized);
    }
    const chunks: Uint8Array[] = [];
    // NodeFS and memory (the filesystems used here) write the data files directly: PGlite's syncToFs does
    // nothing for them but take a lock, so it is left out.
    await this.pglite.execProtocolRawStream(this.writer.bindExecuteSync(statement.name, values), {
      syncToFs: false,
      onRawData: (bytes) => chunks.push(bytes.slice()),
    });
    try {
      const answer = chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(...chunks);
      const result = readResult(answer, statement.columns);
      return { rows: result.rows as R[], numAffectedRows: BigInt(result.affectedRows) };
    } catch (error) {
      if (error instanceof protocol.messages.DatabaseError && error.code === FEATURE_NOT_SUPPORTED) {
        await this.forget(text, statement.name);
      }
      throw withQuery(error, text, parameters);
    }
  }

  private statement(text: string): Promise<Prepared> {
    let statement = this.prepared.get(text);
    if (statement === undefined) {
      statement = this.prepare(text);
      this.prepared.set(text, statement);
      statement.catch(() => this.prepared.delete(text));
    }
    return statement;
  }

  private async prepare(text: string): Promise<Prepared> {
    const serialize = protocol.serialize;
    const batch: Uint8Array[] = [];
    if (this.prepared.size >= MAX_STATEMENTS) {
      const [oldestText, oldest] = this.prepared.entries().next().value as [string, Promise<Prepared>];
      this.prepared.delete(oldestText);
      const closed = await oldest.catch(() => undefined);
      if (closed) batch.push(serialize.close({ type: 'S', name: closed.name }));
    }
    const name = `s${++this.counter}`;
    batch.push(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync());
    let messages: BackendMessage[];
    try {
      ({ messages } = await this.pglite.execProtocol(concat(...batch)));
    } catch (error) {
      throw withQuery(error, text, undefined);
    }
    let parameterTypes: number[] = [];
    let columns: Columns | undefined;
    for (const message of messages) {
      if (message instanceof protocol.messages.ParameterDescriptionMessage)
        parameterTypes = message.dataTypeIDs;
      else if (message instanceof protocol.messages.RowDescriptionMessage) {
        const types = message.fields.map((field) => field.dataTypeID);
        columns = {
          names: message.fields.map((field) => field.name),
          types,
          parsers: types.map((type) => this.pglite.parsers[type]),
        };
      }
    }
    return { name, parameterTypes, columns };
  }

  /** Closes a statement whose columns changed under it; the next call prepares the text anew. */
  private async forget(text: string, name: string): Promise<void> {
    this.prepared.delete(text);
    const serialize = protocol.serialize;
    await this.pglite.execProtocol(concat(serialize.close({ type: 'S', name }), serialize.sync()));
  }
}

function affectedRows(count: number | undefined): bigint | undefined {
  return count === undefined ? undefined : BigInt(count);
}

/** As PGlite's query() does: a database error names the statement and its parameters. */
function withQuery(error: unknown, text: string, parameters: readonly unknown[] | undefined): unknown {
  if (error instanceof protocol.messages.DatabaseError) {
    Object.assign(error, { query: text, params: parameters });
  }
  return error;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const batch = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    batch.set(part, offset);
    offset += part.length;
  }
  return batch;
}

/**
 * Whether a statement goes as a named prepared statement (decision 6, on PostgreSQL and PGlite): the hot,
 * fixed ones — short, with few parameters. Bulk inserts and long `in` lists vary in shape; named, they would
 * collect by the thousand in a session.
 */
export function worthNaming(text: string, parameters: readonly unknown[]): boolean {
  return text.length <= 2000 && parameters.length <= 32;
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly statements: PreparedStatements,
    readonly release: () => void,
  ) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.statements.run<R>(compiled.sql, compiled.parameters);
  }

  /** PGlite has no cursors; the whole result is one chunk. */
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(compiled);
  }
}

class PGliteDriver implements Driver {
  private readonly statements: PreparedStatements;
  constructor(
    private readonly pglite: PGlite,
    private readonly mutex: Mutex,
    private readonly whenDurable: (() => Promise<void> | undefined) | undefined,
  ) {
    this.statements = new PreparedStatements(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.lock();
    return new PGliteConnection(this.statements, release);
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
    // The session is free for the next request at once; this one goes on (and answers) only once what it
    // wrote — or read of others' commits — is on disk. Commits that arrive meanwhile share the next sync.
    // Within a unit of the admission gate the wait comes after its place is given on (durability.ts).
    await afterRelease(this.whenDurable?.());
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
