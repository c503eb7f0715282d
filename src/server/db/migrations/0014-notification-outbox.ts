import { type Kysely, type Migration } from 'kysely';

/**
 * The outbox (issue 26, decision 0051): every message is recorded here before it is sent, under a
 * unique key of its user, account, kind, occasion and channel, so a second planner (another
 * process, or the same after a restart) records nothing new, and a sender claims it with a lease
 * before sending. Found by state and due time.
 */
export const notificationOutbox: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('notification_outbox')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      // Hex SHA-256 of the owner, account, kind, occasion and channel.
      .addColumn('message_key', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('channel_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('account_id', 'varchar(64)')
      .addColumn('kind', 'varchar(16)', (column) => column.notNull())
      .addColumn('occasion', 'varchar(16)', (column) => column.notNull())
      .addColumn('event_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('planned_on', 'varchar(10)', (column) => column.notNull())
      .addColumn('title', 'varchar(300)', (column) => column.notNull())
      .addColumn('message', 'text', (column) => column.notNull())
      .addColumn('url', 'varchar(2000)', (column) => column.notNull())
      .addColumn('state', 'varchar(16)', (column) => column.notNull())
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('first_attempt_at', 'varchar(32)')
      .addColumn('lease_until', 'varchar(32)')
      .addColumn('lease_owner', 'varchar(64)')
      .addColumn('last_error', 'varchar(500)')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('sent_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('notification_outbox_due').on('notification_outbox').columns(['state', 'next_attempt_at']).execute();
    await db.schema
      .createIndex('notification_outbox_owner')
      .on('notification_outbox')
      .columns(['owner_iss', 'owner_sub', 'event_date'])
      .execute();
  },
};
