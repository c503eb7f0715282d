/**
 * A bare Kysely on a test database, with no migrations run: for tests that put a database in an
 * earlier version by hand. The app itself always opens databases through openDatabase.
 */
import SQLite from 'better-sqlite3';
import { Kysely, type Migration, Migrator, SqliteDialect, sql } from 'kysely';
import { migrations } from '../../src/server/db/migrations.js';
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

/** A migrator that knows only the named migrations, with the bookkeeping where migrateToLatest keeps it (a database of an older release). */
export async function migratorOf(db: Kysely<unknown>, kind: DatabaseKind, names: readonly string[]): Promise<Migrator> {
  const chosen: Record<string, Migration> = Object.fromEntries(Object.entries(migrations).filter(([name]) => names.includes(name)));
  const schema =
    kind === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  return new Migrator({ db, provider: { getMigrations: async () => chosen }, ...(schema ? { migrationTableSchema: schema } : {}) });
}
