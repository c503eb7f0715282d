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
  readonly delivery: ChannelDeliveryState;
}

/** How the outbox's deliveries to a channel are going (decision 0070). */
export interface ChannelDeliveryState {
  /** Since when they fail; null while they arrive. */
  readonly failingSince: string | null;
  /** Failures in a row. */
  readonly failures: number;
  /** Not tried again before this. */
  readonly retryAt: string | null;
  /** Since when it needs attention (5 days of failures): nothing is planned or sent for it. */
  readonly needsAttentionAt: string | null;
}

export interface NewChannelRow {
  readonly kind: ChannelKind;
  readonly target: string;
  readonly push: { readonly p256dh: string; readonly auth: string } | null;
  readonly confirmed: boolean;
}

const KINDS: readonly ChannelKind[] = ['EMAIL', 'PUSH', 'WEBHOOK'];

export function decodeChannel(row: NotificationChannelsTable): StoredChannel {
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
    delivery: {
      failingSince: row.failing_since,
      failures: Number(row.failures),
      retryAt: row.retry_at,
      needsAttentionAt: row.needs_attention_at,
    },
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
  return rows.map(decodeChannel);
}

export async function findChannel(db: Database, owner: Caller, id: string): Promise<StoredChannel | undefined> {
  const row = await db
    .selectFrom('notification_channels')
    .selectAll()
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && decodeChannel(row);
}

/** The channel a link names (channel-links.ts), whoever owns it: the link's secret is the proof. */
export async function findLinkedChannel(db: Database, id: string): Promise<StoredChannel | undefined> {
  const row = await db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst();
  return row && decodeChannel(row);
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
  return row && decodeChannel(row);
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
    failing_since: null,
    failures: 0,
    retry_at: null,
    needs_attention_at: null,
    lease_until: null,
    lease_owner: null,
    served_at: null,
  };
  await db.insertInto('notification_channels').values(row).execute();
  return decodeChannel(row);
}

/** A push subscription's keys change when the browser renews it at the same endpoint. */
export async function updatePushKeys(db: Database, id: string, push: { p256dh: string; auth: string }): Promise<void> {
  await db.updateTable('notification_channels').set({ push_p256dh: push.p256dh, push_auth: push.auth }).where('id', '=', id).execute();
}

export async function confirmChannel(db: Database, id: string): Promise<void> {
  await db.updateTable('notification_channels').set({ confirmed: 1 }).where('id', '=', id).execute();
}

/**
 * Keeps how a delivery went as the channel's last result. One that arrived (a test, say) also ends
 * its back-off and "Needs attention": the channel works, and the outbox sends to it again.
 */
export async function recordDelivery(db: Database, id: string, at: Date, delivered: boolean, reason: string | null): Promise<void> {
  await db
    .updateTable('notification_channels')
    .set({
      last_at: at.toISOString(),
      last_delivered: delivered ? 1 : 0,
      last_reason: reason,
      ...(delivered && { failing_since: null, failures: 0, retry_at: null, needs_attention_at: null }),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * A failed delivery of an outbox message, made under the sender's lease: the channel's last result,
 * its failures in a row and since when, when it may be tried again, and whether it now needs
 * attention. Answers false when the lease was no longer the sender's (nothing is written).
 */
export async function recordFailure(
  db: Database,
  id: string,
  leaseOwner: string,
  at: Date,
  reason: string,
  state: Pick<ChannelDeliveryState, 'failingSince' | 'failures' | 'retryAt' | 'needsAttentionAt'>,
): Promise<boolean> {
  const result = await db
    .updateTable('notification_channels')
    .set({
      last_at: at.toISOString(),
      last_delivered: 0,
      last_reason: reason,
      failing_since: state.failingSince,
      failures: state.failures,
      retry_at: state.retryAt,
      needs_attention_at: state.needsAttentionAt,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', leaseOwner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Lets go of a claimed channel; with `delivered`, the message arrived: its last result, and no back-off. */
export async function releaseChannel(db: Database, id: string, leaseOwner: string, delivered: Date | null): Promise<void> {
  await db
    .updateTable('notification_channels')
    .set({
      lease_owner: null,
      lease_until: null,
      ...(delivered && {
        last_at: delivered.toISOString(),
        last_delivered: 1,
        last_reason: null,
        failing_since: null,
        failures: 0,
        retry_at: null,
        needs_attention_at: null,
      }),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', leaseOwner)
    .execute();
}

/** Removes one channel by its id (the caller checked whose it is, or holds its link). */
export async function deleteChannel(db: Database, id: string): Promise<void> {
  await db.deleteFrom('notification_channels').where('id', '=', id).execute();
}

export async function deleteAllChannels(db: Database, owner: Caller): Promise<void> {
  await db.deleteFrom('notification_channels').where('owner_iss', '=', owner.issuer).where('owner_sub', '=', owner.subject).execute();
}

/** Owners with a confirmed channel that does not need attention: whose day's messages the planner looks at. */
export async function ownersWithChannels(db: Database): Promise<Caller[]> {
  const rows = await db
    .selectFrom('notification_channels')
    .select(['owner_iss', 'owner_sub'])
    .where('confirmed', '=', 1)
    .where('needs_attention_at', 'is', null)
    .distinct()
    .execute();
  return rows.map((row) => ({ issuer: row.owner_iss, subject: row.owner_sub }));
}
