import { type Kysely, type Migration, sql, SqliteAdapter } from 'kysely';
import { newId } from '../ids.js';

/** Owners per INSERT of their first accounts: 500 rows of 7 values, far below either database's parameter limit. */
const ACCOUNTS_BATCH = 500;

/**
 * Accounts (issue 25, decision 0042): a user has one or more accounts, each with at most one
 * ledger. Every owner who has anything (a ledger, a deposit or an expense) gets a primary account
 * named "Checking"; their ledger becomes its ledger, unchanged, and their deposits and expenses
 * name it. The ledger's uniqueness moves from the owner to the account. PostgreSQL drops the
 * owner's unique constraint; SQLite cannot drop a constraint, so the ledgers table is rebuilt
 * (migrateToLatest turns foreign keys off around the run, as SQLite's own procedure asks, so
 * dropping the old table does not cascade to the rows).
 */
export const accounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('name', 'varchar(50)', (column) => column.notNull())
      // Lowercasing may lengthen a name: room for it.
      .addColumn('name_key', 'varchar(200)', (column) => column.notNull())
      .addColumn('kind', 'varchar(16)', (column) => column.notNull())
      .addColumn('is_primary', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('card_closing_day', 'integer')
      .addColumn('card_due_day', 'integer')
      .addColumn('card_pay_from_account_id', 'varchar(64)')
      .addColumn('card_rule', 'varchar(16)')
      .addColumn('card_amount_cents', 'bigint')
      .addColumn('card_credit_limit_cents', 'bigint')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      // Also the index that finds an owner's accounts.
      .addUniqueConstraint('accounts_name_per_owner', ['owner_iss', 'owner_sub', 'name_key'])
      .execute();
    await db.schema
      .createIndex('accounts_one_primary')
      .on('accounts')
      .columns(['owner_iss', 'owner_sub'])
      .unique()
      .where(sql.ref('is_primary'), '=', 1)
      .execute();

    const owners = await sql<{ owner_iss: string; owner_sub: string }>`
      select owner_iss, owner_sub from ledgers
      union select owner_iss, owner_sub from deposits
      union select owner_iss, owner_sub from expenses`.execute(db);
    const createdAt = new Date().toISOString();
    for (let start = 0; start < owners.rows.length; start += ACCOUNTS_BATCH) {
      const values = owners.rows
        .slice(start, start + ACCOUNTS_BATCH)
        .map((owner) => sql`(${newId()}, ${owner.owner_iss}, ${owner.owner_sub}, 'Checking', 'checking', 'CHECKING', 1, ${createdAt})`);
      await sql`insert into accounts (id, owner_iss, owner_sub, name, name_key, kind, is_primary, created_at)
        values ${sql.join(values)}`.execute(db);
    }
    const primaryOf = (table: string) =>
      sql`(select accounts.id from accounts where accounts.owner_iss = ${sql.ref(`${table}.owner_iss`)}
        and accounts.owner_sub = ${sql.ref(`${table}.owner_sub`)} and accounts.is_primary = 1)`;
    for (const table of ['deposits', 'expenses']) {
      await db.schema.alterTable(table).addColumn('account_id', 'varchar(64)').execute();
      await sql`update ${sql.table(table)} set account_id = ${primaryOf(table)}`.execute(db);
    }

    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await db.schema
        .createTable('ledgers_with_accounts')
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
        .addColumn('account_id', 'varchar(64)', (column) => column.notNull().references('accounts.id'))
        .addUniqueConstraint('ledgers_one_per_account', ['account_id'])
        .execute();
      await sql`insert into ledgers_with_accounts
        (id, owner_iss, owner_sub, start_date, end_date, opening_balance_cents, next_sequence, created_at, version, replaced_at_version, account_id)
        select id, owner_iss, owner_sub, start_date, end_date, opening_balance_cents, next_sequence, created_at, version, replaced_at_version,
          ${primaryOf('ledgers')} from ledgers`.execute(db);
      await db.schema.dropTable('ledgers').execute();
      await db.schema.alterTable('ledgers_with_accounts').renameTo('ledgers').execute();
    } else {
      await db.schema
        .alterTable('ledgers')
        .addColumn('account_id', 'varchar(64)', (column) => column.references('accounts.id'))
        .execute();
      await sql`update ledgers set account_id = ${primaryOf('ledgers')}`.execute(db);
      await db.schema
        .alterTable('ledgers')
        .alterColumn('account_id', (column) => column.setNotNull())
        .execute();
      await db.schema.alterTable('ledgers').dropConstraint('ledgers_one_per_owner').execute();
      await db.schema.alterTable('ledgers').addUniqueConstraint('ledgers_one_per_account', ['account_id']).execute();
    }
    // The owner's unique key found their ledger; now an index does (the row limit counts every ledger of theirs).
    await db.schema.createIndex('ledgers_owner').on('ledgers').columns(['owner_iss', 'owner_sub']).execute();
  },
};
