import { type Kysely, type Migration } from 'kysely';

/**
 * The ledger's version (decision 0030): every write that changes the ledger or its rows moves it
 * on, so a client holding the ledger at one version can apply a write's changes only
 * (`?answer=changes`) and knows it missed one when the version it holds is not the one the changes
 * are based on.
 */
export const ledgerVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('ledgers')
      .addColumn('version', 'integer', (column) => column.notNull().defaultTo(1))
      .execute();
  },
};
