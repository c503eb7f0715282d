/**
 * How many invitations one person may mail (decision 0105), counted in the invitation_mails table
 * across all their budgets and all server processes: at most 10 in any 24 hours. The address's own
 * limits (channel-mail-limits.ts) keep each stranger to one mail an hour; this keeps one person from
 * mailing many strangers, whatever budgets they make and delete.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';

/** A budget has at most 5 people to invite besides its owner: 10 leaves room for a typo or two. */
export const MAX_INVITATION_MAILS_A_DAY = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

function senderKey(sender: Caller): string {
  return createHash('sha256')
    .update(JSON.stringify([sender.issuer, sender.subject]))
    .digest('hex');
}

export type InvitationMailSlot =
  { readonly allowed: true; readonly release: () => Promise<void> } | { readonly allowed: false; readonly waitMs: number };

/**
 * Takes one of the sender's mails for `now` if they have one left, before the mail goes; `release`
 * gives it back when the mail is not sent after all (the address refused it). On PostgreSQL an
 * advisory lock on the sender makes processes take turns; SQLite runs one transaction at a time.
 */
export async function reserveInvitationMail(database: OpenDatabase, sender: Caller, now: Date): Promise<InvitationMailSlot> {
  const key = senderKey(sender);
  const id = randomUUID();
  const sentAt = now.toISOString();
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const slot = await database.db.transaction().execute(async (trx) => {
    if (database.kind === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtextextended(${`leftover-inviter ${key}`}, 0))`.execute(trx);
    await trx.deleteFrom('invitation_mails').where('sent_at', '<=', dayAgo).execute();
    const sent = await trx.selectFrom('invitation_mails').select('sent_at').where('sender_key', '=', key).orderBy('sent_at').execute();
    if (sent.length >= MAX_INVITATION_MAILS_A_DAY) {
      const oldest = sent[sent.length - MAX_INVITATION_MAILS_A_DAY]?.sent_at ?? sentAt;
      return { allowed: false as const, waitMs: Math.max(1000, Date.parse(oldest) + DAY_MS - now.getTime()) };
    }
    await trx.insertInto('invitation_mails').values({ id, sender_key: key, sent_at: sentAt }).execute();
    return { allowed: true as const };
  });
  if (!slot.allowed) return slot;
  return {
    allowed: true,
    release: () =>
      database.db
        .deleteFrom('invitation_mails')
        .where('id', '=', id)
        .execute()
        .then(() => undefined),
  };
}
