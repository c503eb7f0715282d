import { createHash } from 'node:crypto';
import { type Kysely, type Migration, sql } from 'kysely';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Issue 34 (decision 0069): an email's confirm and unsubscribe links get tokens of their own,
 * stored as SHA-256 hashes with an expiry (7 days, a year), one row per link mailed; and each
 * address, keyed by the hash of its normalised form across all users, keeps when its last three
 * confirmation mails went and until when it asked for quiet (one-click unsubscribe).
 *
 * Before this, a channel's one plain link_token served both links and never expired. An email
 * channel's token already mailed keeps working as its hash: to unsubscribe for a year, and (while
 * unconfirmed) to confirm for 7 days, both counted from the channel's last mail (which carried it).
 * The plain token is then replaced by the channel's id, no secret. Webhooks and push subscriptions
 * were never sent theirs; they are left as they are, and nothing reads the column any more.
 */
export const notificationLinks: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('notification_links')
      // Hex SHA-256 of the token in the link: the token itself is only in the mail.
      .addColumn('token_hash', 'varchar(64)', (column) => column.notNull())
      // CONFIRM or UNSUBSCRIBE.
      .addColumn('purpose', 'varchar(16)', (column) => column.notNull())
      .addColumn('channel_id', 'varchar(64)', (column) => column.notNull().references('notification_channels.id').onDelete('cascade'))
      .addColumn('expires_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addPrimaryKeyConstraint('notification_links_key', ['token_hash', 'purpose'])
      .execute();
    await db.schema.createIndex('notification_links_channel').on('notification_links').column('channel_id').execute();
    await db.schema
      .createTable('notification_addresses')
      // Hex SHA-256 of the normalised address (channel-mail-limits.ts): one row per mailbox, whoever added it.
      .addColumn('address_key', 'varchar(64)', (column) => column.primaryKey())
      // The last three confirmation mails, newest first.
      .addColumn('confirm_sent_1', 'varchar(32)')
      .addColumn('confirm_sent_2', 'varchar(32)')
      .addColumn('confirm_sent_3', 'varchar(32)')
      // After a one-click unsubscribe: no confirmation mail, and no adding it, until then.
      .addColumn('quiet_until', 'varchar(32)')
      .execute();

    const channels = await sql<{
      id: string;
      link_token: string;
      confirmed: number | string;
      last_at: string | null;
      created_at: string;
    }>`select id, link_token, confirmed, last_at, created_at from notification_channels where kind = 'EMAIL'`.execute(db);
    for (const channel of channels.rows) {
      const hash = createHash('sha256').update(channel.link_token).digest('hex');
      const mailed = Date.parse(channel.last_at ?? channel.created_at);
      const links: [string, number][] = [['UNSUBSCRIBE', 365]];
      if (Number(channel.confirmed) !== 1) links.push(['CONFIRM', 7]);
      for (const [purpose, days] of links) {
        const expires = new Date(mailed + days * DAY_MS).toISOString();
        await sql`insert into notification_links (token_hash, purpose, channel_id, expires_at, created_at)
          values (${hash}, ${purpose}, ${channel.id}, ${expires}, ${channel.created_at})`.execute(db);
      }
      await sql`update notification_channels set link_token = ${channel.id} where id = ${channel.id}`.execute(db);
    }
  },
};
