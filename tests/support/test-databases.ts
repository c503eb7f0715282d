/**
 * The databases API tests run against: always a fresh SQLite file, and a fresh PostgreSQL schema
 * when TEST_POSTGRES_URL is set. In CI the PostgreSQL run is required, never skipped.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { TEST_RUN_VARIABLE } from './postgres-run-schemas.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

export function databaseKinds(): DatabaseKind[] {
  if (process.env.TEST_POSTGRES_URL) return ['sqlite', 'postgres'];
  if (process.env.CI) {
    throw new Error('CI must run the PostgreSQL tests: set TEST_POSTGRES_URL (the .ci/run script does).');
  }
  return ['sqlite'];
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-test-'));
    return {
      url: `sqlite:${path.join(dir, 'test.sqlite')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const baseUrl = process.env.TEST_POSTGRES_URL as string;
  // Within a Vitest run the run drops its schemas once every file is done (postgres-run-schemas.ts).
  const run = process.env[TEST_RUN_VARIABLE];
  const schema = `test_${run === undefined ? '' : `${run}_`}${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.href,
    drop: async () => {
      if (run !== undefined) return;
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}
