import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Issue 34 (decision 0071): the request budgets (decision 0007) counted once for every server
 * process on one PostgreSQL database, one row per budget and key (a user, an address) holding the
 * count of its current window and when that window ends (milliseconds since 1970 by the database's
 * clock). SQLite serves one process and keeps counting in it: the table is made there too, so both
 * databases have one schema, and stays empty.
 *
 * UNLOGGED on PostgreSQL: a counter is not worth a durable commit on every call, and after a crash
 * PostgreSQL empties the table, which gives every user and address a fresh window and nothing worse.
 * No index but the key: the rows are rewritten on every call (kept as heap-only updates), and the
 * sweep of ended windows reads the small table whole.
 */
export const requestBudgetCounts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const unlogged = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('request_budget_counts')
      .$call((table) => (unlogged ? table.modifyFront(sql`unlogged`) : table))
      // 'user' (a signed-in caller) or 'address' (calls with a missing or refused token).
      .addColumn('budget', 'varchar(16)', (column) => column.notNull())
      // SHA-256 of the user's issuer and subject, or of the address: no identity is stored here.
      .addColumn('key_hash', 'varchar(64)', (column) => column.notNull())
      .addColumn('count', 'integer', (column) => column.notNull())
      .addColumn('window_end', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('request_budget_counts_key', ['budget', 'key_hash'])
      .execute();
  },
};
