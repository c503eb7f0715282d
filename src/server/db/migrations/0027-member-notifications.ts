import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Each member chooses what they are told of each budget (issue 38 point 7, decision 0099).
 *
 * - `budget_members.notify`: 1 when the member's day's messages cover this budget's shortfalls and
 *   bills due, 0 when they turned it off. Every existing member, and every one who joins, starts at 1:
 *   decision 0095 told every member of every budget they are in, and nobody loses a message by upgrading.
 */
export const memberNotifications: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('budget_members')
      .addColumn('notify', 'integer', (column) => column.notNull().defaultTo(sql`1`))
      .execute();
  },
};
