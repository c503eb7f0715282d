/**
 * Reads a test database directly, beside a running (or restarted) server: what is really stored,
 * not what the API says is stored. No migrations run here; the server under test owns the schema.
 * (One browser test also writes through it, to make a stored time lie a minute further back.)
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { OwnSchemaPostgresDialect } from '../../src/server/db/own-schema-dialect.js';
import pg from 'pg';
import type { DatabaseSchema } from '../../src/server/db/schema.js';

export interface DatabaseReader {
  readonly db: Kysely<DatabaseSchema>;
  close(): Promise<void>;
}

/** `url` is a TestDatabase url: sqlite:<file> or postgres://... with its search_path. */
export function openDatabaseReader(url: string): DatabaseReader {
  let db: Kysely<DatabaseSchema>;
  if (url.startsWith('sqlite:')) {
    const sqlite = new SQLite(url.slice('sqlite:'.length), { fileMustExist: true });
    // The server may still hold the write lock for a moment; wait rather than fail.
    sqlite.pragma('busy_timeout = 5000');
    db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) });
  } else {
    db = new Kysely<DatabaseSchema>({ dialect: new OwnSchemaPostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
  }
  return { db, close: () => db.destroy() };
}
