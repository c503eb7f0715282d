import { type Kysely, type Migration } from 'kysely';

/**
 * Recurring transfers (issue 25, decision 0043): an expense may pay into another of the owner's
 * accounts, whose ledger then gets a linked credit for each occurrence. Null on every other expense.
 */
export const recurringTransfers: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('expenses').addColumn('to_account_id', 'varchar(64)').execute();
  },
};
