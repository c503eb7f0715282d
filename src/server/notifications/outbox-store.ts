/**
 * The notification_outbox table (decision 0051): each message is recorded here, under a unique key
 * of its user, account, kind, occasion, date and channel, before it is sent. A sender claims a
 * channel with a message due, users in turn, and that one message, both with a lease (on
 * PostgreSQL `FOR UPDATE SKIP LOCKED`, so two processes claim different channels without waiting
 * on each other; SQLite serves one process), sends, and marks the outcome only while its lease is
 * its own (decision 0070).
 */
import { createHash } from 'node:crypto';
import type { IsoDate } from '../../domain/calendar-date.js';
import type { Occasion, PlannedKind } from '../../domain/notifications.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { newId } from '../db/ids.js';
import { ownerColumns } from '../db/owner.js';
import { decodeChannel, type StoredChannel } from './channel-store.js';

export type OutboxState = 'pending' | 'sent' | 'failed' | 'cancelled';

export interface OutboxMessage {
  readonly channelId: string;
  readonly accountId: string | null;
  readonly kind: PlannedKind;
  readonly occasion: Occasion;
  readonly eventDate: IsoDate;
  readonly plannedOn: IsoDate;
  readonly title: string;
  readonly message: string;
  readonly url: string;
}

export interface ClaimedMessage extends OutboxMessage {
  readonly id: string;
  readonly owner: Caller;
  /** Attempts so far, this one included. */
  readonly attempts: number;
  readonly firstAttemptAt: string;
}

/** One message per user, account, kind, occasion, date and channel, ever: what makes a second planner's insert a no-op. */
export function messageKey(
  owner: Caller,
  message: Pick<OutboxMessage, 'accountId' | 'kind' | 'occasion' | 'eventDate' | 'channelId'>,
): string {
  const parts = [
    owner.issuer,
    owner.subject,
    message.accountId ?? '-',
    message.kind,
    message.occasion,
    message.eventDate,
    message.channelId,
  ];
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

/** Records the messages as pending, due now; a message already recorded (its key taken) is left as it is. Answers how many are new. */
export async function recordMessages(db: Database, owner: Caller, messages: readonly OutboxMessage[], now: Date): Promise<number> {
  if (messages.length === 0) return 0;
  const at = now.toISOString();
  const result = await db
    .insertInto('notification_outbox')
    .values(
      messages.map((message) => ({
        id: newId(),
        message_key: messageKey(owner, message),
        ...ownerColumns(owner),
        channel_id: message.channelId,
        account_id: message.accountId,
        kind: message.kind,
        occasion: message.occasion,
        event_date: message.eventDate,
        planned_on: message.plannedOn,
        title: message.title,
        message: message.message,
        url: message.url,
        state: 'pending',
        next_attempt_at: at,
        first_attempt_at: null,
        lease_until: null,
        lease_owner: null,
        last_error: null,
        created_at: at,
        sent_at: null,
      })),
    )
    .onConflict((conflict) => conflict.column('message_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * The shortfalls the user was told of (a notice recorded on a day before today, not called off)
 * that are still ahead: what planMessages reads as noticedBefore.
 */
export async function noticedShortfalls(db: Database, owner: Caller, today: IsoDate): Promise<{ accountId: string; date: IsoDate }[]> {
  const rows = await db
    .selectFrom('notification_outbox')
    .select(['account_id', 'event_date'])
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where('event_date', '>=', today)
    .where('kind', '=', 'BELOW_ZERO')
    .where('occasion', '=', 'notice')
    .where('planned_on', '<', today)
    .where('state', '<>', 'cancelled')
    .distinct()
    .execute();
  return rows.flatMap((row) => (row.account_id === null ? [] : [{ accountId: row.account_id, date: row.event_date as IsoDate }]));
}

/** A channel a sender holds, with the message of it the sender is to send, and the channel's state then. */
export interface ClaimedSend {
  readonly channel: StoredChannel;
  readonly message: ClaimedMessage;
}

/**
 * Claims, for `leaseOwner` until `leaseUntil`, one channel with a message due, and that message:
 * users in turn (the channel of the user whose channels were served longest ago, never served
 * first), leaving out `busyOwners` (whose sends this process has enough of under way), channels in
 * back-off or needing attention, and channels another sender holds (on PostgreSQL `FOR UPDATE SKIP
 * LOCKED`, so processes take different channels without waiting; SQLite serves one process). One
 * message a claim: a user's hundred messages wait their turn behind another's first.
 */
export async function claimNext(
  database: OpenDatabase,
  now: Date,
  leaseUntil: Date,
  leaseOwner: string,
  busyOwners: readonly Caller[],
): Promise<ClaimedSend | undefined> {
  const at = now.toISOString();
  const { db } = database;
  let next = db
    .selectFrom('notification_channels as c')
    .select('c.id')
    .where('c.confirmed', '=', 1)
    .where('c.needs_attention_at', 'is', null)
    .where((eb) => eb.or([eb('c.retry_at', 'is', null), eb('c.retry_at', '<=', at)]))
    .where((eb) => eb.or([eb('c.lease_until', 'is', null), eb('c.lease_until', '<=', at)]))
    .where('c.id', 'in', (eb) =>
      eb.selectFrom('notification_outbox').select('channel_id').where('state', '=', 'pending').where('next_attempt_at', '<=', at),
    )
    .orderBy((eb) =>
      eb.fn.coalesce(
        eb
          .selectFrom('notification_channels as o')
          .select((inner) => inner.fn.max('o.served_at').as('served'))
          .whereRef('o.owner_iss', '=', 'c.owner_iss')
          .whereRef('o.owner_sub', '=', 'c.owner_sub'),
        eb.val(''),
      ),
    )
    .orderBy((eb) => eb.fn.coalesce('c.served_at', eb.val('')))
    .orderBy('c.id')
    .limit(1);
  if (busyOwners.length > 0) {
    next = next.where((eb) =>
      eb.not(eb.or(busyOwners.map((owner) => eb.and([eb('c.owner_iss', '=', owner.issuer), eb('c.owner_sub', '=', owner.subject)])))),
    );
  }
  // Channels another process is claiming right now are skipped, not waited for.
  if (database.kind === 'postgres') next = next.forUpdate().skipLocked();
  const channelRow = await db
    .updateTable('notification_channels')
    .set({ lease_owner: leaseOwner, lease_until: leaseUntil.toISOString(), served_at: at })
    .where('id', 'in', next)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
    .returningAll()
    .executeTakeFirst();
  if (!channelRow) return undefined;
  const channel = decodeChannel(channelRow);
  // The channel is this sender's now: its oldest due message goes, whoever held it before (a sender that died).
  const row = await db
    .updateTable('notification_outbox')
    .set((eb) => ({
      lease_owner: leaseOwner,
      lease_until: leaseUntil.toISOString(),
      attempts: eb('attempts', '+', 1),
      first_attempt_at: eb.fn.coalesce('first_attempt_at', eb.val(at)),
    }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('notification_outbox')
        .select('id')
        .where('channel_id', '=', channel.id)
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', at)
        .orderBy('created_at')
        .orderBy('id')
        .limit(1),
    )
    .where('state', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!row) {
    // Its message ended in the meantime (called off by the day's planning, say): the channel is let go.
    await db.updateTable('notification_channels').set({ lease_owner: null, lease_until: null }).where('id', '=', channel.id).execute();
    return undefined;
  }
  return {
    channel,
    message: {
      id: row.id,
      owner: { issuer: row.owner_iss, subject: row.owner_sub },
      channelId: row.channel_id,
      accountId: row.account_id,
      kind: row.kind === 'BILLS_DUE' ? 'BILLS_DUE' : 'BELOW_ZERO',
      occasion: row.occasion === 'reminder' ? 'reminder' : row.occasion === 'bills' ? 'bills' : 'notice',
      eventDate: row.event_date as IsoDate,
      plannedOn: row.planned_on as IsoDate,
      title: row.title,
      message: row.message,
      url: row.url,
      attempts: Number(row.attempts),
      firstAttemptAt: row.first_attempt_at ?? at,
    },
  };
}

/** Ends a claimed message in a final state; nothing when the lease is no longer this sender's. */
export async function finishMessage(
  db: Database,
  id: string,
  leaseOwner: string,
  state: Exclude<OutboxState, 'pending'>,
  now: Date,
  error: string | null,
): Promise<void> {
  await db
    .updateTable('notification_outbox')
    .set({ state, lease_owner: null, lease_until: null, last_error: error, sent_at: state === 'sent' ? now.toISOString() : null })
    .where('id', '=', id)
    .where('lease_owner', '=', leaseOwner)
    .execute();
}

/** Puts a claimed message back as pending: it goes when its channel's back-off allows. */
export async function retryMessage(db: Database, id: string, leaseOwner: string, error: string): Promise<void> {
  await db
    .updateTable('notification_outbox')
    .set({ lease_owner: null, lease_until: null, last_error: error })
    .where('id', '=', id)
    .where('lease_owner', '=', leaseOwner)
    .execute();
}

/** A channel that needs attention sends nothing more: what it had waiting ends failed. Answers how many. */
export async function failChannelMessages(db: Database, channelId: string, error: string): Promise<number> {
  const result = await db
    .updateTable('notification_outbox')
    .set({ state: 'failed', lease_owner: null, lease_until: null, last_error: error })
    .where('channel_id', '=', channelId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A user's messages still waiting (not held by a sender now): what the day's planning checks against their ledgers. */
export async function waitingMessages(
  db: Database,
  owner: Caller,
  now: Date,
): Promise<{ id: string; kind: PlannedKind; accountId: string | null; eventDate: IsoDate }[]> {
  const at = now.toISOString();
  const rows = await db
    .selectFrom('notification_outbox')
    .select(['id', 'kind', 'account_id', 'event_date'])
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind === 'BILLS_DUE' ? 'BILLS_DUE' : 'BELOW_ZERO',
    accountId: row.account_id,
    eventDate: row.event_date as IsoDate,
  }));
}

/** Calls off messages still waiting: no longer true. */
export async function cancelMessages(db: Database, ids: readonly string[], now: Date, error: string): Promise<number> {
  if (ids.length === 0) return 0;
  const at = now.toISOString();
  let cancelled = 0;
  // A few hundred at a time: well within either database's parameter limit.
  for (let start = 0; start < ids.length; start += 200) {
    const result = await db
      .updateTable('notification_outbox')
      .set({ state: 'cancelled', last_error: error })
      .where('id', 'in', ids.slice(start, start + 200))
      .where('state', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
      .executeTakeFirst();
    cancelled += Number(result.numUpdatedRows);
  }
  return cancelled;
}

/** A channel removed takes its messages not yet sent with it. */
export async function dropChannelMessages(db: Database, channelId: string): Promise<void> {
  await db.deleteFrom('notification_outbox').where('channel_id', '=', channelId).where('state', '=', 'pending').execute();
}

export async function deleteAllMessages(db: Database, owner: Caller): Promise<void> {
  await db.deleteFrom('notification_outbox').where('owner_iss', '=', owner.issuer).where('owner_sub', '=', owner.subject).execute();
}

/** Forgets messages about dates long past, sent or given up: the table stays the size of a few weeks. */
export async function pruneMessages(db: Database, before: IsoDate): Promise<void> {
  await db.deleteFrom('notification_outbox').where('event_date', '<', before).where('state', '<>', 'pending').execute();
}
