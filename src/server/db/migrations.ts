/**
 * Versioned migrations, the same for SQLite and PostgreSQL. They run at every start; Kysely's
 * migrator records what ran and takes a lock, so running them twice or from any earlier version
 * is safe. Never edit a released migration: add the next one.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { isIsoDate, isoDate } from '../../domain/calendar-date.js';
import { projectSchedules } from '../../domain/ledger-projection.js';
import { cents } from '../../domain/money.js';
import { FREQUENCIES } from '../../domain/schedules.js';

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('deposits')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('name', 'varchar(100)', (column) => column.notNull())
      .addColumn('type', 'varchar(32)', (column) => column.notNull())
      .addColumn('day', 'varchar(16)', (column) => column.notNull())
      .addColumn('amount_cents', 'bigint', (column) => column.notNull())
      .addColumn('start_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('frequency', 'varchar(8)', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('deposits_owner').on('deposits').columns(['owner_iss', 'owner_sub']).execute();

    await db.schema
      .createTable('expenses')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('name', 'varchar(100)', (column) => column.notNull())
      .addColumn('type', 'varchar(50)', (column) => column.notNull())
      .addColumn('day', 'integer', (column) => column.notNull())
      .addColumn('amount_cents', 'bigint', (column) => column.notNull())
      .addColumn('end_date', 'varchar(10)')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('expenses_owner').on('expenses').columns(['owner_iss', 'owner_sub']).execute();

    await db.schema
      .createTable('ledgers')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('start_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('end_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('opening_balance_cents', 'bigint', (column) => column.notNull())
      .addColumn('next_sequence', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      // One ledger per user: creating a new one replaces it inside one transaction.
      .addUniqueConstraint('ledgers_one_per_owner', ['owner_iss', 'owner_sub'])
      .execute();

    await db.schema
      .createTable('ledger_transactions')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('sequence', 'integer', (column) => column.notNull())
      .addColumn('date', 'varchar(10)', (column) => column.notNull())
      // 100 characters of deposit name plus " Paycheck".
      .addColumn('name', 'varchar(120)', (column) => column.notNull())
      .addColumn('type', 'varchar(1)', (column) => column.notNull())
      .addColumn('amount_cents', 'bigint', (column) => column.notNull())
      .addColumn('status', 'varchar(16)', (column) => column.notNull())
      .addColumn('version', 'integer', (column) => column.notNull().defaultTo(sql`1`))
      .addUniqueConstraint('ledger_transactions_sequence', ['ledger_id', 'sequence'])
      .execute();
    await db.schema.createIndex('ledger_transactions_owner').on('ledger_transactions').columns(['owner_iss', 'owner_sub']).execute();
  },
};

/**
 * Every query on ledger rows names the ledger (whose key is unique per owner), so the owner index
 * on ledger_transactions never served a query; it cost a fourth B-tree on every one of the ~1,800
 * rows a new ledger stores. The owner columns stay: every query still checks them.
 */
const dropLedgerRowsOwnerIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('ledger_transactions_owner').execute();
  },
};

/**
 * The living ledger (issue 11): a generated row names its schedule and the occurrence it stands
 * for, and says whether the user edited it; an occurrence the user deleted is remembered as skipped
 * so neither a schedule change nor an extension brings it back. Rows stored before this get the
 * source that can be proved (attributeSources); the rest have none (null) and are left alone by
 * schedule changes, like rows added by hand.
 */
const livingLedger: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ledger_transactions').addColumn('source_kind', 'varchar(8)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('source_id', 'varchar(64)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('source_occurrence', 'varchar(10)').execute();
    await db.schema
      .alterTable('ledger_transactions')
      .addColumn('edited', 'integer', (column) => column.notNull().defaultTo(sql`0`))
      .execute();

    await db.schema
      .createTable('ledger_skipped_occurrences')
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('source_kind', 'varchar(8)', (column) => column.notNull())
      .addColumn('source_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('occurrence', 'varchar(10)', (column) => column.notNull())
      .addPrimaryKeyConstraint('ledger_skipped_occurrences_key', ['ledger_id', 'source_kind', 'source_id', 'occurrence'])
      .execute();

    await attributeSources(db);
  },
};

/**
 * Gives each stored row the source it provably has: the row is exactly what the owner's schedules,
 * as they are now, generate over the ledger's dates (same date, type, name and amount), each
 * generated occurrence claimed by one row at most, in creation order. A row the user edited, or
 * one whose schedule changed since the ledger was made, matches nothing and keeps no source:
 * without it, the first change of its schedule after the upgrade would add that schedule's rows a
 * second time beside the old ones. Uses today's projection; ledgers of later versions are made
 * with sources, so what this finds never changes after the upgrade.
 */
async function attributeSources(db: Kysely<unknown>): Promise<void> {
  const ledgers = await sql<{ id: string; owner_iss: string; owner_sub: string; start_date: string; end_date: string }>`
    select id, owner_iss, owner_sub, start_date, end_date from ledgers`.execute(db);
  for (const ledger of ledgers.rows) {
    const deposits = await sql<{ id: string; name: string; amount_cents: number | string; start_date: string; frequency: string }>`
      select id, name, amount_cents, start_date, frequency from deposits
      where owner_iss = ${ledger.owner_iss} and owner_sub = ${ledger.owner_sub} order by created_at, id`.execute(db);
    const expenses = await sql<{ id: string; name: string; amount_cents: number | string; day: number; end_date: string | null }>`
      select id, name, amount_cents, day, end_date from expenses
      where owner_iss = ${ledger.owner_iss} and owner_sub = ${ledger.owner_sub} order by created_at, id`.execute(db);
    const drafts = projectSchedules(
      {
        deposits: deposits.rows.flatMap((deposit) => {
          const frequency = FREQUENCIES.find((known) => known === deposit.frequency);
          if (!frequency || !isIsoDate(deposit.start_date)) return [];
          return [
            { id: deposit.id, name: deposit.name, amount: cents(Number(deposit.amount_cents)), startDate: deposit.start_date, frequency },
          ];
        }),
        expenses: expenses.rows.map((expense) => ({
          id: expense.id,
          name: expense.name,
          amount: cents(Number(expense.amount_cents)),
          day: Number(expense.day),
          endDate: expense.end_date !== null && isIsoDate(expense.end_date) ? expense.end_date : null,
        })),
      },
      { from: isoDate(ledger.start_date), to: isoDate(ledger.end_date) },
    );
    const unclaimed = new Map<string, (typeof drafts)[number][]>();
    for (const draft of drafts) {
      const key = `${draft.date} ${draft.type} ${draft.amount} ${draft.name}`;
      unclaimed.set(key, [...(unclaimed.get(key) ?? []), draft]);
    }
    const rows = await sql<{ id: string; date: string; name: string; type: string; amount_cents: number | string }>`
      select id, date, name, type, amount_cents from ledger_transactions where ledger_id = ${ledger.id} order by sequence`.execute(db);
    for (const row of rows.rows) {
      const draft = unclaimed.get(`${row.date} ${row.type} ${Number(row.amount_cents)} ${row.name}`)?.shift();
      if (!draft) continue;
      await sql`update ledger_transactions
        set source_kind = ${draft.source.kind}, source_id = ${draft.source.id}, source_occurrence = ${draft.source.occurrence}
        where id = ${row.id}`.execute(db);
    }
  }
}

/**
 * Expenses of every frequency (issue 12): each stored expense becomes a monthly one with no start
 * date, exactly what it was; deposits need nothing, their frequency column holds the new codes.
 */
const expenseFrequencies: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('expenses')
      .addColumn('frequency', 'varchar(8)', (column) => column.notNull().defaultTo('M'))
      .execute();
    await db.schema.alterTable('expenses').addColumn('start_date', 'varchar(10)').execute();
  },
};

/**
 * Statement imports (issue 14, decision 0021): which statement rows a ledger has taken in, so
 * importing a file twice changes nothing. Keyed by the ledger and a SHA-256 of the import id (a
 * FITID alone may be 255 characters); the ledger row it matched or created is kept without a
 * foreign key, so the record outlives that row. Replacing the ledger forgets them (the ledger
 * row survives a replacement, so the cascade alone would not).
 */
const statementImports: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ledger_imported_rows')
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      // Hex SHA-256 of the statement row's import id.
      .addColumn('import_key', 'varchar(64)', (column) => column.notNull())
      .addColumn('transaction_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('imported_at', 'varchar(32)', (column) => column.notNull())
      .addPrimaryKeyConstraint('ledger_imported_rows_key', ['ledger_id', 'import_key'])
      .execute();
  },
};

/**
 * The ledger's version (decision 0030): every write that changes the ledger or its rows moves it
 * on, so a client holding the ledger at one version can apply a write's changes only
 * (`?answer=changes`) and knows it missed one when the version it holds is not the one the changes
 * are based on.
 */
const ledgerVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('ledgers')
      .addColumn('version', 'integer', (column) => column.notNull().defaultTo(1))
      .execute();
  },
};

/**
 * Undo (issue 24, decision 0040): each undoable write's journal, under a hash of its token, for ten
 * minutes; and the version at which a ledger's rows were last replaced, so an undo recorded
 * before a New Ledger refuses rather than touching the new rows.
 */
const undoEntries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('undo_entries')
      .addColumn('token_hash', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('seq', 'integer', (column) => column.notNull())
      .addColumn('kind', 'varchar(32)', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('expires_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('journal', 'text', (column) => column.notNull())
      // Also the index that finds and trims an owner's entries.
      .addUniqueConstraint('undo_entries_owner_seq', ['owner_iss', 'owner_sub', 'seq'])
      .execute();
    await db.schema
      .alterTable('ledgers')
      .addColumn('replaced_at_version', 'integer', (column) => column.notNull().defaultTo(1))
      .execute();
  },
};

export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_drop_ledger_rows_owner_index': dropLedgerRowsOwnerIndex,
  '0003_living_ledger': livingLedger,
  '0004_expense_frequencies': expenseFrequencies,
  '0005_statement_imports': statementImports,
  '0006_ledger_version': ledgerVersion,
  '0007_undo_entries': undoEntries,
};

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
    await sql`begin immediate`.execute(db);
    try {
      await runMigrator(new Migrator({ db, provider: new InlineMigrationProvider() }));
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
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
