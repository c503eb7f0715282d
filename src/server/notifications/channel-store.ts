/**
 * The notification_channels table (decision 0051): a user's email addresses, push subscriptions and
 * webhooks, and how each one's last delivery went. An email's links are channel-links.ts' (decision
 * 0069). Every query names the owner, except the one that finds the channel a link names.
 */
import { createHash } from 'node:crypto';
import type { ChannelKind } from '../../contract/notifications.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { newId } from '../db/ids.js';
import { ownerColumns } from '../db/owner.js';
import type { NotificationChannelsTable } from '../db/schema.js';

export interface StoredChannel {
  readonly id: string;
  readonly owner: Caller;
  readonly kind: ChannelKind;
  readonly target: string;
  /** A push subscription's keys; null for the other kinds. */
  readonly push: { readonly p256dh: string; readonly auth: string } | null;
  readonly confirmed: boolean;
  readonly last: { readonly at: string; readonly delivered: boolean; readonly reason: string | null } | null;
  readonly createdAt: string;
}

export interface NewChannelRow {
  readonly kind: ChannelKind;
  readonly target: string;
  readonly push: { readonly p256dh: string; readonly auth: string } | null;
  readonly confirmed: boolean;
}

const KINDS: readonly ChannelKind[] = ['EMAIL', 'PUSH', 'WEBHOOK'];

function decode(row: NotificationChannelsTable): StoredChannel {
  const kind = KINDS.find((known) => known === row.kind);
  if (!kind) throw new Error('unexpected channel kind in the database');
  return {
    id: row.id,
    owner: { issuer: row.owner_iss, subject: row.owner_sub },
    kind,
    target: row.target,
    push: row.push_p256dh !== null && row.push_auth !== null ? { p256dh: row.push_p256dh, auth: row.push_auth } : null,
    confirmed: Number(row.confirmed) === 1,
    last: row.last_at === null ? null : { at: row.last_at, delivered: Number(row.last_delivered) === 1, reason: row.last_reason ?? null },
    createdAt: row.created_at,
  };
}

/**
 * One channel per target and user: an email address compared without regard to case (mail servers
 * treat the domain so, and people retype addresses), a URL or push endpoint exactly.
 */
export function targetKey(kind: ChannelKind, target: string): string {
  const compared = kind === 'EMAIL' ? target.toLowerCase() : target;
  return createHash('sha256').update(`${kind}\n${compared}`).digest('hex');
}

export async function listChannels(db: Database, owner: Caller): Promise<StoredChannel[]> {
  const rows = await db
    .selectFrom('notification_channels')
    .selectAll()
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(decode);
}

export async function findChannel(db: Database, owner: Caller, id: string): Promise<StoredChannel | undefined> {
  const row = await db
    .selectFrom('notification_channels')
    .selectAll()
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && decode(row);
}

/** The channel a link names (channel-links.ts), whoever owns it: the link's secret is the proof. */
export async function findLinkedChannel(db: Database, id: string): Promise<StoredChannel | undefined> {
  const row = await db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst();
  return row && decode(row);
}

export async function findChannelByTarget(
  db: Database,
  owner: Caller,
  kind: ChannelKind,
  target: string,
): Promise<StoredChannel | undefined> {
  const row = await db
    .selectFrom('notification_channels')
    .selectAll()
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where('target_key', '=', targetKey(kind, target))
    .executeTakeFirst();
  return row && decode(row);
}

export async function countChannels(db: Database, owner: Caller): Promise<number> {
  const row = await db
    .selectFrom('notification_channels')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertChannel(db: Database, owner: Caller, channel: NewChannelRow, now: Date): Promise<StoredChannel> {
  const id = newId();
  const row: NotificationChannelsTable = {
    id,
    ...ownerColumns(owner),
    kind: channel.kind,
    target: channel.target,
    target_key: targetKey(channel.kind, channel.target),
    push_p256dh: channel.push?.p256dh ?? null,
    push_auth: channel.push?.auth ?? null,
    confirmed: channel.confirmed ? 1 : 0,
    // The column is unique and not null from before decision 0069; the links' tokens are kept elsewhere, hashed.
    link_token: id,
    last_at: null,
    last_delivered: null,
    last_reason: null,
    created_at: now.toISOString(),
  };
  await db.insertInto('notification_channels').values(row).execute();
  return decode(row);
}

/** A push subscription's keys change when the browser renews it at the same endpoint. */
export async function updatePushKeys(db: Database, id: string, push: { p256dh: string; auth: string }): Promise<void> {
  await db.updateTable('notification_channels').set({ push_p256dh: push.p256dh, push_auth: push.auth }).where('id', '=', id).execute();
}

export async function confirmChannel(db: Database, id: string): Promise<void> {
  await db.updateTable('notification_channels').set({ confirmed: 1 }).where('id', '=', id).execute();
}

export async function recordDelivery(db: Database, id: string, at: Date, delivered: boolean, reason: string | null): Promise<void> {
  await db
    .updateTable('notification_channels')
    .set({ last_at: at.toISOString(), last_delivered: delivered ? 1 : 0, last_reason: reason })
    .where('id', '=', id)
    .execute();
}

/** Removes one channel by its id (the caller checked whose it is, or holds its link). */
export async function deleteChannel(db: Database, id: string): Promise<void> {
  await db.deleteFrom('notification_channels').where('id', '=', id).execute();
}

export async function deleteAllChannels(db: Database, owner: Caller): Promise<void> {
  await db.deleteFrom('notification_channels').where('owner_iss', '=', owner.issuer).where('owner_sub', '=', owner.subject).execute();
}

/** Owners with a confirmed channel: whose day's messages the planner looks at. */
export async function ownersWithChannels(db: Database): Promise<Caller[]> {
  const rows = await db
    .selectFrom('notification_channels')
    .select(['owner_iss', 'owner_sub'])
    .where('confirmed', '=', 1)
    .distinct()
    .execute();
  return rows.map((row) => ({ issuer: row.owner_iss, subject: row.owner_sub }));
}
