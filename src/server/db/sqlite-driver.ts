/**
 * The embedded SQLite database as two connections to one file (decision 0098): one that writes,
 * which every transaction and every statement that is not a plain SELECT takes in turn, and one
 * that only reads, for the SELECTs outside any transaction. SQLite in WAL mode lets a reader go on
 * while a writer's transaction is open (it sees the last commit), so one user's long unit of work
 * (a bank sync writing 5 ledgers, a statement import) no longer holds another user's reads: Kysely's
 * own SQLite driver runs every query on one connection under one lock, reads included.
 *
 * better-sqlite3 runs each statement synchronously, and a chain of awaited statements resumes in
 * microtasks, which never let the event loop serve another request. So a statement that starts more
 * than a slice after the loop last turned first yields to it (setImmediate): a unit of work that
 * runs hundreds of statements lets other users' requests in between, as PostgreSQL's pool would.
 * Only the reader needs that turn; the writer's lock stays held, so writes still take turns.
 */
import { performance } from 'node:perf_hooks';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  type Dialect,
  type DialectAdapter,
  type DatabaseIntrospector,
  type Kysely,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type SqliteDatabase,
} from 'kysely';

/**
 * How long statements may run back to back before the event loop gets a turn. An idle request is a
 * few milliseconds here (benchmark 14's neighbour), so a slice of that order keeps what another
 * request waits for within about one request's time.
 */
const SQLITE_SLICE_MS = 2;

/** One connection's statements, each run to its end in one synchronous step. */
function runOn(database: SqliteDatabase, query: CompiledQuery): QueryResult<unknown> {
  const statement = database.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return {
    numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
    insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
    rows: [],
  };
}

/** Waits in line for the writing connection: transactions and single writes, one at a time, in arrival order. */
class WriterLock {
  private tail: Promise<void> = Promise.resolve();

  async lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = this.tail;
    this.tail = before.then(() => next);
    await before;
    return release;
  }
}

/** Gives the event loop a turn when statements have run back to back for longer than a slice. */
class Pacer {
  /** When the current run of statements began; undefined once the loop has turned since. */
  private runStarted: number | undefined;

  async beforeStatement(): Promise<void> {
    const now = performance.now();
    if (this.runStarted === undefined) {
      this.runStarted = now;
      // Any turn of the loop ends the run, whether it was ours or another task's.
      setImmediate(() => {
        this.runStarted = undefined;
      });
      return;
    }
    if (now - this.runStarted < SQLITE_SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.runStarted = undefined;
  }
}

export interface SplitSqliteConnections {
  /** The connection every write and every transaction runs on. */
  readonly writer: SqliteDatabase;
  /** Opens the read-only connection: called once reads may go aside (after the migrations). */
  readonly openReader: () => SqliteDatabase;
}

class SplitSqliteDriver implements Driver {
  private readonly writerLock = new WriterLock();
  private readonly pacer = new Pacer();
  private reader: SqliteDatabase | undefined;

  constructor(private readonly connections: SplitSqliteConnections) {}

  async init(): Promise<void> {}

  /** From here on, SELECTs outside a transaction read on their own connection. */
  readAside(): void {
    this.reader ??= this.connections.openReader();
  }

  /** Runs `work` holding the writer's turn: this process writes nothing meanwhile; reads aside go on. */
  async whileWritesWait<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.writerLock.lock();
    try {
      return await work();
    } finally {
      release();
    }
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new SplitConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const split = connection as SplitConnection;
    split.release = await this.writerLock.lock();
    try {
      runOn(this.connections.writer, CompiledQuery.raw('begin'));
    } catch (error) {
      split.endTransaction();
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endWith(connection as SplitConnection, 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.endWith(connection as SplitConnection, 'rollback');
  }

  private async endWith(connection: SplitConnection, command: 'commit' | 'rollback'): Promise<void> {
    try {
      runOn(this.connections.writer, CompiledQuery.raw(command));
    } finally {
      connection.endTransaction();
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction always ends through commit or rollback; this only guards against a lock left held.
    (connection as SplitConnection).endTransaction();
  }

  async destroy(): Promise<void> {
    this.reader?.close();
    this.connections.writer.close();
  }

  async execute(connection: SplitConnection, query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (connection.release) {
      // Only a transaction gives way: it is what runs long, and a short read that gave way would
      // wait out another slice of the long work it is waiting beside.
      await this.pacer.beforeStatement();
      return runOn(this.connections.writer, query);
    }
    if (this.reader && SelectQueryNode.is(query.query)) return runOn(this.reader, query);
    const release = await this.writerLock.lock();
    try {
      return runOn(this.connections.writer, query);
    } finally {
      release();
    }
  }
}

class SplitConnection implements DatabaseConnection {
  /** Set while this connection's transaction holds the writer. */
  release: (() => void) | undefined;

  constructor(private readonly driver: SplitSqliteDriver) {}

  endTransaction(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query) as Promise<QueryResult<R>>;
  }

  // eslint-disable-next-line require-yield -- the app never streams; a stream would hold a statement across turns of the loop
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The SQLite connections do not stream: read the rows at once.');
  }
}

/** Kysely's SQLite dialect with the split driver; `readAside` turns the reader on once migrations ran. */
export class SplitSqliteDialect implements Dialect {
  private driver: SplitSqliteDriver | undefined;

  constructor(private readonly connections: SplitSqliteConnections) {}

  createDriver(): Driver {
    this.driver = new SplitSqliteDriver(this.connections);
    return this.driver;
  }

  readAside(): void {
    this.opened().readAside();
  }

  whileWritesWait<T>(work: () => Promise<T>): Promise<T> {
    return this.opened().whileWritesWait(work);
  }

  private opened(): SplitSqliteDriver {
    if (!this.driver) throw new Error('The dialect has no driver yet');
    return this.driver;
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** The read-only connection's settings: it waits as the writer does when SQLite is briefly busy. */
export function configureReader(reader: SQLite.Database): void {
  reader.pragma('busy_timeout = 5000');
}
