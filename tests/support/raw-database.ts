/**
 * A bare Kysely on a test database, with no migrations run: for tests that put a database in an
 * earlier version by hand. The app itself always opens databases through openDatabase.
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { OwnSchemaPostgresDialect } from '../../src/server/db/own-schema-dialect.js';
import pg from 'pg';
import type { DatabaseKind } from './test-databases.js';

/** PostgreSQL's type id for int8 (bigint, and what COUNT and SUM answer). */
const PG_INT8_OID = 20;

export function openRawDatabase(kind: DatabaseKind, url: string): Kysely<unknown> {
  if (kind === 'sqlite') {
    return new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(url.slice('sqlite:'.length)) }) });
  }
  // int8 as numbers, as the app reads them (database.ts sets this when it opens PostgreSQL, which
  // since decision 0041 is not at import): a row read here before the app opened reads the same.
  pg.types.setTypeParser(PG_INT8_OID, (value) => Number(value));
  return new Kysely<unknown>({ dialect: new OwnSchemaPostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
}
