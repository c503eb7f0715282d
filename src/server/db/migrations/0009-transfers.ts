import { type Kysely, type Migration } from 'kysely';

/**
 * Transfers (issue 25, decision 0043): a row that is one side of a transfer names the other
 * side's row and account. Deleting an account unlinks the rows that name it, found by the index.
 */
export const transfers: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('ledger_transactions').addColumn('transfer_id', 'varchar(64)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('transfer_account_id', 'varchar(64)').execute();
    await db.schema.createIndex('ledger_transactions_transfer_account').on('ledger_transactions').column('transfer_account_id').execute();
  },
};
