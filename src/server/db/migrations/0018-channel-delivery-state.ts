import { type Kysely, type Migration } from 'kysely';

/**
 * Issue 34 item 3 (decision 0070): delivery backs off per channel and takes users in turn. Each
 * channel keeps how its deliveries are going: since when they fail (null while they arrive), how
 * many failed in a row, when it may be tried again, and since when it needs attention (5 days of
 * failures: nothing more is sent to it until a test arrives). A sender claims a channel with a
 * lease, one message at a time, and notes when it last served it: the user served longest ago
 * goes first. Existing channels start as delivering, never served.
 */
export const channelDeliveryState: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // One column a statement: SQLite's ALTER TABLE adds one at a time.
    await db.schema.alterTable('notification_channels').addColumn('failing_since', 'varchar(32)').execute();
    await db.schema
      .alterTable('notification_channels')
      .addColumn('failures', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('notification_channels').addColumn('retry_at', 'varchar(32)').execute();
    await db.schema.alterTable('notification_channels').addColumn('needs_attention_at', 'varchar(32)').execute();
    await db.schema.alterTable('notification_channels').addColumn('lease_until', 'varchar(32)').execute();
    await db.schema.alterTable('notification_channels').addColumn('lease_owner', 'varchar(64)').execute();
    await db.schema.alterTable('notification_channels').addColumn('served_at', 'varchar(32)').execute();
  },
};
