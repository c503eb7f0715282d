import { type Kysely, type Migration } from 'kysely';

/**
 * Undo (issue 24, decision 0040): each undoable write's journal, under a hash of its token, for ten
 * minutes; and the version at which a ledger's rows were last replaced, so an undo recorded
 * before a New Ledger refuses rather than touching the new rows.
 */
export const undoEntries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('undo_entries')
      .addColumn('token_hash', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('seq', 'integer', (column) => column.notNull())
      .addColumn('kind', 'varchar(32)', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('expires_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('journal', 'text', (column) => column.notNull())
      // Also the index that finds and trims an owner's entries.
      .addUniqueConstraint('undo_entries_owner_seq', ['owner_iss', 'owner_sub', 'seq'])
      .execute();
    await db.schema
      .alterTable('ledgers')
      .addColumn('replaced_at_version', 'integer', (column) => column.notNull().defaultTo(1))
      .execute();
  },
};
