import { type Kysely, type Migration, sql } from 'kysely';

export const initial: Migration = {
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
