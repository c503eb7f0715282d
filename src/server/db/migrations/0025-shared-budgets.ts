import { type Kysely, type Migration } from 'kysely';

/**
 * Budgets shared with a partner (issue 38, decision 0088). No row of any table before this one
 * changes: a budget is the owner of its data through the owner columns its rows already carry.
 *
 * - `budgets`: a budget, and the owner columns its rows carry: a user's own (issuer, subject) for
 *   their personal budget (made the first time it is needed, so every user's data is in it as it
 *   was), and ('urn:leftover:budget', its id) for a budget made to share. One budget per owner pair.
 * - `budget_members`: who is in a budget with what role (OWNER, EDITOR, VIEWER), and the name the
 *   other members see them by, from their sign-in when they joined or last called.
 * - `budget_invitations`: an invitation's role, who made it, when it expires and what became of it;
 *   its token only as a SHA-256, unique.
 * - `bank_connections.made_by_*`: the member who connected it (null: made before budgets, by the
 *   owner of its rows).
 */
export const sharedBudgets: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('budgets')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('name', 'varchar(200)', (column) => column.notNull())
      .addColumn('personal', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('budgets_owner').on('budgets').columns(['owner_iss', 'owner_sub']).unique().execute();

    await db.schema
      .createTable('budget_members')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('budget_id', 'varchar(64)', (column) => column.notNull().references('budgets.id').onDelete('cascade'))
      .addColumn('member_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('member_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('role', 'varchar(16)', (column) => column.notNull())
      .addColumn('display_name', 'varchar(400)')
      .addColumn('joined_at', 'varchar(32)', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('budget_members_member')
      .on('budget_members')
      .columns(['member_iss', 'member_sub', 'budget_id'])
      .unique()
      .execute();
    await db.schema.createIndex('budget_members_budget').on('budget_members').columns(['budget_id', 'role']).execute();

    await db.schema
      .createTable('budget_invitations')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('budget_id', 'varchar(64)', (column) => column.notNull().references('budgets.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('role', 'varchar(16)', (column) => column.notNull())
      .addColumn('invited_by_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('invited_by_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('invited_by_name', 'varchar(400)')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('expires_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('state', 'varchar(16)', (column) => column.notNull())
      .addColumn('closed_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('budget_invitations_budget').on('budget_invitations').columns(['budget_id', 'state']).execute();

    await db.schema.alterTable('bank_connections').addColumn('made_by_iss', 'varchar(512)').execute();
    await db.schema.alterTable('bank_connections').addColumn('made_by_sub', 'varchar(512)').execute();
  },
};
