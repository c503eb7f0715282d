/**
 * The notification_links table (decision 0069): the links an email carries, each with a token of its
 * own. A confirm link and an unsubscribe link are never the same token; the database keeps only a
 * token's SHA-256 (the token is 32 random bytes, so a plain hash is as hard to reverse as it is to
 * guess), what it does, and when it stops working: a confirm link after 7 days, an unsubscribe link
 * after a year. Every mail gets a new unsubscribe link (the one in a mail cannot be put in the next:
 * it is not kept), so a link works for a year from the mail that carried it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';

export type LinkPurpose = 'CONFIRM' | 'UNSUBSCRIBE';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a link works, from the mail that carried it. */
const LINK_DAYS: Readonly<Record<LinkPurpose, number>> = { CONFIRM: 7, UNSUBSCRIBE: 365 };

/**
 * How long an expired link's row stays, so that opening it shows that it expired (and what to do)
 * rather than that it never worked; after that it is deleted with the channel's next link.
 */
const KEEP_EXPIRED_DAYS = 30;

/** A token as a link carries it: 32 random bytes, base64url (43 characters). */
const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new link for the channel: stores its hash and answers the token, which goes only into the mail. */
export async function issueLink(db: Database, channelId: string, purpose: LinkPurpose, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .deleteFrom('notification_links')
    .where('channel_id', '=', channelId)
    .where('expires_at', '<', new Date(now.getTime() - KEEP_EXPIRED_DAYS * DAY_MS).toISOString())
    .execute();
  await db
    .insertInto('notification_links')
    .values({
      token_hash: hashOf(token),
      purpose,
      channel_id: channelId,
      expires_at: new Date(now.getTime() + LINK_DAYS[purpose] * DAY_MS).toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
  return token;
}

export type FoundLink = { readonly channelId: string; readonly expired: boolean };

/** The channel a link of this purpose names, and whether the link has expired; undefined for no such link. */
export async function findLink(db: Database, token: string, purpose: LinkPurpose, now: Date): Promise<FoundLink | undefined> {
  if (!LINK_TOKEN.test(token)) return undefined;
  const row = await db
    .selectFrom('notification_links')
    .select(['channel_id', 'expires_at'])
    .where('token_hash', '=', hashOf(token))
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  return row && { channelId: row.channel_id, expired: row.expires_at <= now.toISOString() };
}
