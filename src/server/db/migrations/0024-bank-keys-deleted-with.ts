import { type Kysely, type Migration } from 'kysely';

/**
 * A closed bank key's pending (issue 37, decision 0086): a posting that a sync closed because the
 * user had deleted its pending under another id names that pending's key, so an undo of the delete
 * opens both keys and the next sync pairs the posting with the row put back. Null on every other key.
 */
export const bankKeysDeletedWith: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('ledger_bank_closed_keys').addColumn('deleted_with_account_id', 'varchar(200)').execute();
    await db.schema.alterTable('ledger_bank_closed_keys').addColumn('deleted_with_transaction_id', 'varchar(200)').execute();
  },
};
