import { type Kysely, type Migration } from 'kysely';

/**
 * Every query on ledger rows names the ledger (whose key is unique per owner), so the owner index
 * on ledger_transactions never served a query; it cost a fourth B-tree on every one of the ~1,800
 * rows a new ledger stores. The owner columns stay: every query still checks them.
 */
export const dropLedgerRowsOwnerIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('ledger_transactions_owner').execute();
  },
};
