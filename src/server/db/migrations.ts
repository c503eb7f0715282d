/**
 * Runs the migrations (one per file in ./migrations/, listed in order by its index), the same for
 * SQLite and PostgreSQL. They run at every start; Kysely's migrator records what ran and takes a
 * lock, so running them twice or from any earlier version is safe.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { migrations } from './migrations/index.js';

// The list the app runs, for what asks which migrations this build knows (/readyz, upgrade tests).
export { migrations };

class InlineMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

export async function migrateToLatest<Schema>(db: Kysely<Schema>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'sqlite') {
    // Kysely runs SQLite migrations without a transaction and without a lock between processes.
    // One IMMEDIATE transaction around the whole run makes it atomic (a crash leaves the previous
    // version, never half a migration) and makes a second process starting at once wait for the
    // first (busy_timeout), then find nothing left to do.
    // A migration that rebuilds a table (0008) must not cascade the old table's drop to its
    // children: foreign keys are off for the run (SQLite ignores the pragma inside a transaction),
    // checked as a whole before the commit, and then set back as they were.
    const foreignKeys = (await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]?.foreign_keys ?? 0;
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await sql`begin immediate`.execute(db);
      try {
        await runMigrator(new Migrator({ db, provider: new InlineMigrationProvider() }));
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length > 0) throw new Error('Database migration left rows whose foreign keys name nothing');
        await sql`commit`.execute(db);
      } catch (error) {
        await sql`rollback`.execute(db);
        throw error;
      }
    } finally {
      await sql.raw(`pragma foreign_keys = ${foreignKeys ? 'on' : 'off'}`).execute(db);
    }
    return;
  }
  // Kysely looks for its bookkeeping tables in every PostgreSQL schema unless told which one; in a
  // database shared by several schemas it would find another schema's tables and fail. Ours live
  // in the connection's current schema. Kysely's advisory lock makes concurrent starts take turns.
  const migrationTableSchema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  await runMigrator(
    new Migrator({ db, provider: new InlineMigrationProvider(), ...(migrationTableSchema ? { migrationTableSchema } : {}) }),
  );
}

async function runMigrator(migrator: Migrator): Promise<void> {
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, { cause: error });
  }
}
