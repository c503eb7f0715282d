import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Issue 27: a row write must not read every row of a 20,000-row ledger. Each ledger keeps, per month,
 * how many rows it has and their signed sums (all rows, CLEARED rows, PAID and CLEARED rows), kept
 * in step by the functions that write rows (month-totals.ts), so the balances and a row's place come
 * from at most one total per month plus that month's rows, found by the new (ledger, date) index.
 * Ledgers stored before this get their totals from their rows here.
 */
export const ledgerMonthTotals: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('ledger_month_totals')
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('month', 'varchar(7)', (column) => column.notNull())
      .addColumn('row_count', 'integer', (column) => column.notNull())
      .addColumn('signed_cents', 'bigint', (column) => column.notNull())
      .addColumn('cleared_cents', 'bigint', (column) => column.notNull())
      .addColumn('settled_cents', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('ledger_month_totals_key', ['ledger_id', 'month'])
      .execute();
    await db.schema.createIndex('ledger_transactions_date').on('ledger_transactions').columns(['ledger_id', 'date']).execute();
    const signed = sql`case when type = 'C' then amount_cents else -amount_cents end`;
    await sql`insert into ledger_month_totals (ledger_id, owner_iss, owner_sub, month, row_count, signed_cents, cleared_cents, settled_cents)
      select ledger_id, owner_iss, owner_sub, substr(date, 1, 7), count(*), sum(${signed}),
        sum(case when status = 'CLEARED' then ${signed} else 0 end), sum(case when status <> 'PENDING' then ${signed} else 0 end)
      from ledger_transactions group by ledger_id, owner_iss, owner_sub, substr(date, 1, 7)`.execute(db);
  },
};
