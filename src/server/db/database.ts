/** Opens the configured database: an embedded SQLite file by default, or PostgreSQL. */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { migrateToLatest } from './migrations.js';
import type { DatabaseSchema } from './schema.js';

export type Database = Kysely<DatabaseSchema>;

// PostgreSQL answers bigint as text; our bigints are cents below 2^53, so numbers are exact.
const PG_INT8_OID = 20;
pg.types.setTypeParser(PG_INT8_OID, (value) => Number(value));

export interface OpenDatabase {
  readonly db: Database;
  readonly kind: DatabaseConfig['kind'];
  close(): Promise<void>;
}

export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  let db: Database;
  if (config.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(config.file), { recursive: true });
    const sqlite = new SQLite(config.file);
    sqlite.pragma('journal_mode = WAL');
    // FULL: a write the API acknowledged survives a power cut, not just a process crash.
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) });
  } else {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  }
  await migrateToLatest(db, config.kind);
  return { db, kind: config.kind, close: () => db.destroy() };
}
