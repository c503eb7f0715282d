/**
 * A bare Kysely on a test database, with no migrations run: for tests that put a database in an
 * earlier version by hand. The app itself always opens databases through openDatabase.
 */
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseKind } from './test-databases.js';

export function openRawDatabase(kind: DatabaseKind, url: string): Kysely<unknown> {
  if (kind === 'sqlite') {
    return new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(url.slice('sqlite:'.length)) }) });
  }
  return new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
}
