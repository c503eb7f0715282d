import { type Kysely, type Migration } from 'kysely';

/**
 * Safe to spend and everyday spending (issue 36, decisions 0074 and 0075): three more settings per
 * user. `buffer_cents` is "Keep at least" ($0.00 unless set); `everyday_weekly_cents` and
 * `everyday_account_id` are everyday spending, both null while it is off. Not a foreign key: an
 * account deleted takes its everyday spending with it because nothing matches its id any more.
 * Numbered 0022: another branch adds 0021.
 */
export const safeToSpendSettings: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('user_settings')
      .addColumn('buffer_cents', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('user_settings').addColumn('everyday_weekly_cents', 'integer').execute();
    await db.schema.alterTable('user_settings').addColumn('everyday_account_id', 'varchar(64)').execute();
  },
};
