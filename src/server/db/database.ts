/**
 * Opens the configured database: an embedded SQLite file by default, or PostgreSQL. Only the
 * driver in use is loaded (docs/decisions/0041-start-fast-idle-light.md): a SQLite server never
 * loads pg, a PostgreSQL one never loads better-sqlite3.
 */
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import { OwnSchemaPostgresDialect } from './own-schema-dialect.js';
import { configureReader, SplitSqliteDialect } from './sqlite-driver.js';
import type { DatabaseConfig } from '../config.js';
import { migrateToLatest } from './migrations.js';
import { ensurePrivateFolder, preparePrivateDatabaseFile, tightenDatabaseFiles } from './private-files.js';
import type { DatabaseSchema } from './schema.js';

/**
 * The tables the ledger's module owns (server/ledger/): the accounts, their ledgers and rows, the
 * month totals, the row blocks, skipped occurrences, imported statement rows and undo entries. Code elsewhere
 * reaches them only through the ledger's face, and its database handle cannot name them.
 */
export type LedgerTableName =
  | 'accounts'
  | 'ledgers'
  | 'ledger_transactions'
  | 'ledger_month_totals'
  | 'ledger_row_blocks'
  | 'ledger_skipped_occurrences'
  | 'ledger_imported_rows'
  | 'ledger_bank_closed_keys'
  | 'undo_entries';

/** The database as every module but the ledger's sees it: no ledger table in its type (issue 33). */
export type Database = Kysely<Omit<DatabaseSchema, LedgerTableName>>;

/** The whole database: what migrations run on, and what the ledger's module opens (ledger-tables.ts). */
export type WholeDatabase = Kysely<DatabaseSchema>;

// PostgreSQL answers bigint as text; our bigints are cents below 2^53, so numbers are exact.
const PG_INT8_OID = 20;

export interface OpenDatabase {
  readonly db: Database;
  readonly kind: DatabaseConfig['kind'];
  close(): Promise<void>;
  /**
   * SQLite: runs `work` while every write of this process waits its turn (reads go on), so that a
   * connection of another thread may write the file meanwhile without this thread ever waiting on
   * SQLite's busy lock (decision 0098). Absent on PostgreSQL, whose connections take turns themselves.
   */
  readonly whileWritesWait?: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * The same handle, typed without the ledger's tables: the one place a whole database is narrowed.
 * Narrowing only forgets tables, so the handle stays as sound as it was; ledger-tables.ts widens it
 * back, for the ledger's module alone.
 */
export function withoutLedgerTables(db: WholeDatabase): Database {
  return db;
}

/** Log pages past which the server's own connection checkpoints inside a commit (decision 0125). */
export const WAL_PAGES_BEFORE_OWN_CHECKPOINT = 10_000;

/** Distinct statement texts kept prepared; the app runs a few dozen, so this bound is never reached in use. */
const MAX_CACHED_STATEMENTS = 200;

/**
 * The connection as Kysely's SQLite dialect sees it, with each statement text prepared once.
 * Kysely asks better-sqlite3 to prepare every query anew; preparing costs as much as running a
 * small query, and for the multi-row INSERT that stores a new ledger it was a fifth of the create.
 * Statements are reused one at a time: each runs to its end in one synchronous step
 * (sqlite-driver.ts), and each connection has its own cache. Least recently used texts are dropped
 * past the bound.
 */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const prepared = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = prepared.get(text);
      if (statement) {
        prepared.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (prepared.size >= MAX_CACHED_STATEMENTS) {
          const oldest = prepared.keys().next().value;
          if (oldest !== undefined) prepared.delete(oldest);
        }
      }
      prepared.set(text, statement);
      return statement;
    },
  };
}

export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  let db: WholeDatabase;
  let afterMigrations = (): void => undefined;
  let whileWritesWait: OpenDatabase['whileWritesWait'];
  if (config.kind === 'sqlite') {
    ensurePrivateFolder(path.dirname(config.file));
    preparePrivateDatabaseFile(config.file);
    const { default: Driver } = await import('better-sqlite3');
    const sqlite = new Driver(config.file);
    sqlite.pragma('journal_mode = WAL');
    // -wal and -shm exist from here on; left over from an older install they may still be 0644.
    tightenDatabaseFiles(config.file);
    // FULL: a write the API acknowledged survives a power cut, not just a process crash.
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // The server's checkpoint thread folds the log back a moment after writes (decision 0125); this
    // connection does it itself, inside a commit, only past 10,000 pages (about 40 MB): should that
    // thread fall behind or fail, the log still stops growing. SQLite's default is 1,000 pages.
    sqlite.pragma(`wal_autocheckpoint = ${WAL_PAGES_BEFORE_OWN_CHECKPOINT}`);
    const dialect = new SplitSqliteDialect({
      writer: withStatementCache(sqlite),
      openReader: () => {
        const reader = new Driver(config.file, { readonly: true, fileMustExist: true });
        configureReader(reader);
        return withStatementCache(reader);
      },
    });
    db = new Kysely<DatabaseSchema>({ dialect });
    // Only after them: a migration's SELECTs must see its own uncommitted tables, on the writer.
    afterMigrations = () => dialect.readAside();
    whileWritesWait = (work) => dialect.whileWritesWait(work);
  } else {
    db = await postgresDatabase(config.url, 10);
  }
  await migrateToLatest(db, config.kind);
  afterMigrations();
  return { db: withoutLedgerTables(db), kind: config.kind, close: () => db.destroy(), ...(whileWritesWait && { whileWritesWait }) };
}

/**
 * The SQLite file as a thread of its own opens it (bank-sync-runner.ts): one connection, the same
 * settings, no migrations (the server ran them before it started any thread), no reader aside.
 */
/** PostgreSQL through a pool of at most `max` connections, with 64-bit integers read as numbers. */
async function postgresDatabase(url: string, max: number): Promise<WholeDatabase> {
  const { default: pg } = await import('pg');
  pg.types.setTypeParser(PG_INT8_OID, (value) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max });
  return new Kysely<DatabaseSchema>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
}

/**
 * A thread's connections to PostgreSQL: its unit of work holds one; a read outside it, if any code
 * path made one meanwhile, must not wait for it (the server's own pool has 10).
 */
const THREAD_CONNECTIONS = 2;

/**
 * PostgreSQL as a thread of its own opens it (big-write-thread.ts, decision 0103): two connections,
 * the same settings, no migrations (the server ran them before it started any thread).
 */
export async function openPostgresInThread(url: string): Promise<OpenDatabase> {
  const db = await postgresDatabase(url, THREAD_CONNECTIONS);
  return { db: withoutLedgerTables(db), kind: 'postgres', close: () => db.destroy() };
}

export function openSqliteInThread(driver: typeof SQLite, file: string): OpenDatabase {
  const sqlite = new driver(file, { fileMustExist: true });
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db: withoutLedgerTables(db), kind: 'sqlite', close: () => db.destroy() };
}
