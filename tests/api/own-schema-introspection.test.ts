/**
 * The PostgreSQL introspection the migrator runs on every step reads only the database's own
 * schema: the same tables and columns as Kysely's own introspector finds there, none of another
 * schema's, and Kysely's bookkeeping tables only when asked for.
 */
import { Kysely, PostgresDialect, PostgresIntrospector, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { OwnSchemaIntrospector } from '../../src/server/db/own-schema-dialect.js';
import { openRawDatabase } from '../support/raw-database.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/test-databases.js';

// Runs only where PostgreSQL is configured (always in CI, where a skipped test fails the run). On a
// SQLite-only machine it is reported skipped: a file with no suite at all would fail `npm test` there.
describe.runIf(databaseKinds().includes('postgres'))('introspection of its own schema on PostgreSQL', () => {
  let ours: TestDatabase;
  let other: TestDatabase;
  let db: Kysely<unknown>;
  let otherDb: Kysely<unknown>;

  beforeAll(async () => {
    [ours, other] = await Promise.all([createTestDatabase('postgres'), createTestDatabase('postgres')]);
    db = openRawDatabase('postgres', ours.url);
    await migrateToLatest(db, 'postgres');
    // Another schema in the same database, with a table of a name ours does not have and one it has.
    otherDb = openRawDatabase('postgres', other.url);
    await sql`create table someone_elses (id serial primary key, note text)`.execute(otherDb);
    await sql`create table deposits (id serial primary key)`.execute(otherDb);
  });

  afterAll(async () => {
    await db.destroy();
    await otherDb.destroy();
    await ours.drop();
    await other.drop();
  });

  async function schemaName(): Promise<string> {
    const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(db);
    return rows[0]?.name ?? '';
  }

  it('finds exactly the tables and columns Kysely finds in this schema, and none of another', async () => {
    const name = await schemaName();
    // Kysely's own introspector on a plain dialect, as the reference: it lists every schema.
    const plain = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: ours.url, max: 1 }) }) });
    try {
      for (const withInternalKyselyTables of [false, true]) {
        const everywhere = await new PostgresIntrospector(plain).getTables({ withInternalKyselyTables });
        expect(everywhere.some((table) => table.name === 'someone_elses')).toBe(true);
        const expected = everywhere.filter((table) => table.schema === name);
        const found = await new OwnSchemaIntrospector(db).getTables({ withInternalKyselyTables });
        expect(found.map((table) => table.schema)).toEqual(found.map(() => name));
        expect(found.some((table) => table.name === 'deposits')).toBe(true);
        expect(found.some((table) => table.name === 'kysely_migration')).toBe(withInternalKyselyTables);
        expect(found).toEqual(expected);
      }
    } finally {
      await plain.destroy();
    }
  });

  it('names its own schema as the only one, and the app’s database handle introspects through it', async () => {
    expect(await new OwnSchemaIntrospector(db).getSchemas()).toEqual([{ name: await schemaName() }]);
    const app = await openDatabase(loadConfig({ DATABASE_URL: ours.url }).database);
    try {
      const tables = await app.db.introspection.getTables();
      expect(tables.some((table) => table.name === 'someone_elses')).toBe(false);
      expect(tables.filter((table) => table.name === 'deposits')).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
