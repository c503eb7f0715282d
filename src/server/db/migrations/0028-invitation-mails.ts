import type { Kysely, Migration } from 'kysely';

/**
 * Invitations sent by email (issue 38 point 3, decision 0105): one row per invitation mail, by
 * the SHA-256 of its sender's sign-in (issuer and subject, never in plain), so a person can send at
 * most 10 a day whatever budgets they make and delete. Rows older than a day are deleted as new ones
 * come; no row names the address, which the address's own counts (notification_addresses) cover.
 */
export const invitationMails: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('invitation_mails')
      // A random id: a mail not sent after all gives back exactly its own row.
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('sender_key', 'varchar(64)', (column) => column.notNull())
      .addColumn('sent_at', 'varchar(32)', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('invitation_mails_sender').on('invitation_mails').columns(['sender_key', 'sent_at']).execute();
    await db.schema.createIndex('invitation_mails_sent_at').on('invitation_mails').column('sent_at').execute();
  },
};
