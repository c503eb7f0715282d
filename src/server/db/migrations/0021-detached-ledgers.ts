import { type Kysely, type Migration, sql, SqliteAdapter } from 'kysely';

/**
 * Issue 34 item 5 (decision 0072): a big restore on SQLite stages its new ledgers before its short
 * transaction, and its old ledgers' rows go in chunks after it. A ledger in no account (account_id
 * null) is such a staged or detached ledger: no account reads it, and the owner-wide row count
 * leaves it out. PostgreSQL drops the NOT NULL; SQLite cannot, so the ledgers table is rebuilt as in
 * 0008 (foreign keys are off for the run, so dropping the old table does not cascade to the rows).
 */
export const detachedLedgers: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      await db.schema
        .alterTable('ledgers')
        .alterColumn('account_id', (column) => column.dropNotNull())
        .execute();
      return;
    }
    await db.schema
      .createTable('ledgers_detachable')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('start_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('end_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('opening_balance_cents', 'bigint', (column) => column.notNull())
      .addColumn('next_sequence', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('version', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('replaced_at_version', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('account_id', 'varchar(64)', (column) => column.references('accounts.id'))
      .addUniqueConstraint('ledgers_one_per_account', ['account_id'])
      .execute();
    await sql`insert into ledgers_detachable
      (id, owner_iss, owner_sub, start_date, end_date, opening_balance_cents, next_sequence, created_at, version, replaced_at_version, account_id)
      select id, owner_iss, owner_sub, start_date, end_date, opening_balance_cents, next_sequence, created_at, version, replaced_at_version,
        account_id from ledgers`.execute(db);
    await db.schema.dropTable('ledgers').execute();
    await db.schema.alterTable('ledgers_detachable').renameTo('ledgers').execute();
    await db.schema.createIndex('ledgers_owner').on('ledgers').columns(['owner_iss', 'owner_sub']).execute();
  },
};
