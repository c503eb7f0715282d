import { type Kysely, type Migration } from 'kysely';

/**
 * Expenses of every frequency (issue 12): each stored expense becomes a monthly one with no start
 * date, exactly what it was; deposits need nothing, their frequency column holds the new codes.
 */
export const expenseFrequencies: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('expenses')
      .addColumn('frequency', 'varchar(8)', (column) => column.notNull().defaultTo('M'))
      .execute();
    await db.schema.alterTable('expenses').addColumn('start_date', 'varchar(10)').execute();
  },
};
