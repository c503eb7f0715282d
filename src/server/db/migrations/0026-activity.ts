import { type Kysely, type Migration } from 'kysely';

/**
 * Who did what (issue 38 point 5, decision 0094).
 *
 * - `activity_entries`: one row per unit of work that changed a budget, under the budget's owner
 *   columns, numbered per budget (`seq`, newest highest: the page's cursor); who made it (null for a
 *   change no person made, a scheduled bank sync) and the name they went by then, when, and what,
 *   in words. Only the newest 500 per budget are kept, pruned by the write that adds one.
 * - `undo_entries.actor_*` and `what`: who made the undoable write, so only they can undo it, and
 *   its words, for the undo's own entry. Null on entries made before this migration, which belong to
 *   the owner of their rows (decision 0094); they expire within ten minutes anyway.
 */
export const activity: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('activity_entries')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('seq', 'integer', (column) => column.notNull())
      .addColumn('at', 'varchar(32)', (column) => column.notNull())
      .addColumn('actor_iss', 'varchar(512)')
      .addColumn('actor_sub', 'varchar(512)')
      .addColumn('actor_name', 'varchar(400)')
      .addColumn('what', 'varchar(1200)', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('activity_entries_owner_seq')
      .on('activity_entries')
      .columns(['owner_iss', 'owner_sub', 'seq'])
      .unique()
      .execute();

    await db.schema.alterTable('undo_entries').addColumn('actor_iss', 'varchar(512)').execute();
    await db.schema.alterTable('undo_entries').addColumn('actor_sub', 'varchar(512)').execute();
    await db.schema.alterTable('undo_entries').addColumn('actor_name', 'varchar(400)').execute();
    await db.schema.alterTable('undo_entries').addColumn('what', 'varchar(1200)').execute();
  },
};
