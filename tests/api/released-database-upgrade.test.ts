/**
 * A database made by the code of main when the migrations were one file (65cb5f8: migrations 0001 to
 * 0016, tests/fixtures/released-database/) upgrades unchanged, on SQLite and (with TEST_POSTGRES_URL)
 * PostgreSQL. The migration files, run up to that version by name, make exactly the schema that
 * code made; rows that code stored are put in; the app's own start then runs nothing again (every
 * name in kysely_migration as it was), changes no table, column or row, and answers every call as
 * that code answered it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { migrations } from '../../src/server/db/migrations.js';
import { databaseSnapshot } from '../support/database-snapshot.js';
import { type DatabaseSchemaDump, schemaOf } from '../support/database-schema.js';
import { migratorOf, openRawDatabase } from '../support/raw-database.js';
import { createTestDatabase, databaseKinds, type DatabaseKind } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { startTestIssuer, type TestIssuer } from '../support/test-issuer.js';

const FIXTURE = path.resolve('tests/fixtures/released-database');

const recordedSchema = z
  .object({ migrations: z.array(z.string()).nonempty(), sqlite: z.unknown(), postgres: z.unknown() })
  .parse(JSON.parse(fs.readFileSync(path.join(FIXTURE, 'schema.json'), 'utf8')));

/** Every table's rows in an order their foreign keys allow, and each user's answers by path. */
const recordedDatabase = z
  .object({
    tables: z.array(z.object({ name: z.string(), rows: z.array(z.record(z.string(), z.unknown())).nonempty() })),
    answers: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown()))),
  })
  .parse(JSON.parse(fs.readFileSync(path.join(FIXTURE, 'database.json'), 'utf8')));

/** The environment the answers were recorded in (the server's zone, webhooks to a loopback receiver). */
const ENV = { TZ: 'UTC', NOTIFY_ALLOW_PRIVATE_URLS: 'true' };
/** The recorded webhook's receiver is gone; its address is only data here, never called. */
const WEBHOOK = 'http://127.0.0.1:9';

const RELEASED = recordedSchema.migrations;
/** Migrations added after the recorded version: none yet. Each may change the schema, so the strict checks wait for none. */
const LATER = Object.keys(migrations).filter((name) => !RELEASED.includes(name));

/** The recording's placeholders, filled for this run: the rows belong to this run's issuer. */
function filled<Value>(value: Value, issuer: TestIssuer): Value {
  const text = JSON.stringify(value).split('{{issuer}}').join(issuer.issuer).split('{{webhook}}').join(WEBHOOK);
  return JSON.parse(text) as Value;
}

/** Rows as comparable strings, in a fixed order: the database's order and JavaScript's need not agree. */
function sortedRows(rows: readonly Record<string, unknown>[]): string[] {
  return rows.map((row) => JSON.stringify(row)).sort();
}

async function migrationNames<Schema>(db: Kysely<Schema>): Promise<string[]> {
  return (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((row) => row.name);
}

/** Runs the released migrations alone, by name, with the bookkeeping where migrateToLatest keeps it. */
async function migrateToReleased(db: Kysely<unknown>, kind: DatabaseKind): Promise<void> {
  const missing = RELEASED.filter((name) => !(name in migrations));
  if (missing.length > 0) throw new Error(`Released migrations missing from src/server/db/migrations/index.ts: ${missing.join(', ')}`);
  const migrator = await migratorOf(db, kind, RELEASED);
  const { error } = await migrator.migrateToLatest();
  if (error) throw new Error('The released migrations failed', { cause: error });
}

describe.each(databaseKinds())('a database made by the released code, on %s', (kind) => {
  let issuer: TestIssuer;
  let releasedSchema: DatabaseSchemaDump;
  let before: { snapshot: string; schema: DatabaseSchemaDump; names: string[] };
  let test: TestApp;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    const database = await createTestDatabase(kind);
    try {
      const raw = openRawDatabase(kind, database.url);
      try {
        await migrateToReleased(raw, kind);
        releasedSchema = await schemaOf(raw, kind);
        for (const table of filled(recordedDatabase.tables, issuer)) {
          const columns = Object.keys(table.rows[0] ?? {});
          const values = table.rows.map((row) => sql`(${sql.join(columns.map((column) => row[column]))})`);
          await sql`insert into ${sql.table(table.name)} (${sql.join(columns.map((column) => sql.ref(column)))}) values ${sql.join(values)}`.execute(
            raw,
          );
        }
        before = { snapshot: await databaseSnapshot(raw, kind), schema: await schemaOf(raw, kind), names: await migrationNames(raw) };
      } finally {
        await raw.destroy();
      }
    } catch (error) {
      await issuer.close();
      await database.drop();
      throw error;
    }
    // The app migrates the database on start, as a server started on the new version does.
    test = await startTestApp(kind, { database, issuer, env: ENV });
  });
  afterAll(() => test?.close());

  it('gets from the migration files, run up to the released version by name, the schema the single file made', () => {
    expect(releasedSchema).toEqual(kind === 'sqlite' ? recordedSchema.sqlite : recordedSchema.postgres);
    expect(before.names).toEqual(RELEASED);
  });

  it('runs no released migration again on start, and changes no table, column or row', async () => {
    const db = test.app.database.db.withoutPlugins();
    expect(await migrationNames(db)).toEqual([...RELEASED, ...LATER]);
    if (LATER.length > 0) return;
    expect(await schemaOf(db, kind)).toEqual(before.schema);
    expect(await databaseSnapshot(db, kind)).toBe(before.snapshot);
  });

  it('still stores every recorded row, column for column', async () => {
    const db = test.app.database.db.withoutPlugins();
    for (const table of filled(recordedDatabase.tables, issuer)) {
      const columns = Object.keys(table.rows[0] ?? {});
      const stored = await sql<
        Record<string, unknown>
      >`select ${sql.join(columns.map((column) => sql.ref(column)))} from ${sql.table(table.name)}`.execute(db);
      expect(sortedRows(stored.rows), table.name).toEqual(sortedRows(table.rows));
    }
  });

  it('answers every recorded call as the released code answered it', async () => {
    for (const [subject, answers] of Object.entries(filled(recordedDatabase.answers, issuer))) {
      for (const [url, answer] of Object.entries(answers)) {
        const response = await test.as(subject).get(url);
        expect(response.statusCode, `${subject} GET ${url}: ${response.body}`).toBe(200);
        // A field added to an answer since is no break; a value changed or gone is.
        expect(response.json(), `${subject} GET ${url}`).toMatchObject(answer);
      }
    }
  });
});
