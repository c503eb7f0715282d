import { type Kysely, type Migration } from 'kysely';

/**
 * Statements into the right account (issue 25 item 6, decision 0046): the account an OFX or QFX
 * file's bank account (its ACCTID) was last imported into, per user, so the next file of that
 * bank account preselects it. Keyed by a SHA-256 of the ACCTID: the bank's account number is not
 * kept. Deleting the account (or everything) takes its rows with it.
 */
export const statementAccounts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('statement_accounts')
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('bank_account_key', 'varchar(64)', (column) => column.notNull())
      .addColumn('account_id', 'varchar(64)', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('remembered_at', 'varchar(32)', (column) => column.notNull())
      .addPrimaryKeyConstraint('statement_accounts_key', ['owner_iss', 'owner_sub', 'bank_account_key'])
      .execute();
    // Deleting an account finds its rows through this (PostgreSQL does not index a foreign key by itself).
    await db.schema.createIndex('statement_accounts_account').on('statement_accounts').column('account_id').execute();
  },
};
