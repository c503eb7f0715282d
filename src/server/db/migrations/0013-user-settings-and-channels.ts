import { type Kysely, type Migration } from 'kysely';

/**
 * Each user's own today and what Leftover tells them (issue 26, decisions 0047 and 0051): one row of
 * settings per user who chose anything (time zone, the hour and rules of notifications, and the
 * local date their day's messages were last planned), and their channels: email addresses, push
 * subscriptions and webhooks. A channel's link token (confirm, unsubscribe) is unique; a target
 * is one channel per user, found by its key (a hash: a URL may be longer than an index allows).
 */
export const userSettingsAndChannels: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('user_settings')
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('time_zone', 'varchar(64)')
      .addColumn('notify_hour', 'integer', (column) => column.notNull().defaultTo(8))
      .addColumn('below_zero', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('bills_due', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('planned_on', 'varchar(10)')
      .addColumn('updated_at', 'varchar(32)', (column) => column.notNull())
      .addPrimaryKeyConstraint('user_settings_owner', ['owner_iss', 'owner_sub'])
      .execute();
    await db.schema
      .createTable('notification_channels')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('kind', 'varchar(16)', (column) => column.notNull())
      .addColumn('target', 'varchar(2000)', (column) => column.notNull())
      // Hex SHA-256 of the kind and target: one channel per target and user.
      .addColumn('target_key', 'varchar(64)', (column) => column.notNull())
      .addColumn('push_p256dh', 'varchar(128)')
      .addColumn('push_auth', 'varchar(64)')
      .addColumn('confirmed', 'integer', (column) => column.notNull())
      .addColumn('link_token', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('last_at', 'varchar(32)')
      .addColumn('last_delivered', 'integer')
      .addColumn('last_reason', 'varchar(500)')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addUniqueConstraint('notification_channels_target', ['owner_iss', 'owner_sub', 'target_key'])
      .execute();
  },
};
