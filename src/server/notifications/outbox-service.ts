/**
 * Sent once, never lost (issue 26 item 4, decision 0051). Every minute each server process plans
 * and sends:
 *  - plan: for each user with a confirmed channel whose hour has come in their zone and whose day
 *    is not planned yet, the domain decides today's messages (planMessages) from their ledgers, and
 *    one transaction marks the day planned (claimPlanningDay: one process wins) and records every
 *    message for every confirmed channel in the outbox under its unique key. Only today is planned:
 *    after downtime the first run sends what is true today, never a backlog;
 *  - send: claim due messages with a lease, send each, and mark it sent; a failure is tried again
 *    with backoff for a day (then marked failed, the channel's lastResult saying why). A retry, or
 *    a message left over from another day, is first checked against today's ledgers (isStillTrue):
 *    a change that removed the shortfall sends nothing more. A process killed mid-send leaves its
 *    lease to run out, and the message goes again: it may repeat, it is never skipped.
 */
import { randomUUID } from 'node:crypto';
import { addDays, type IsoDate } from '../../domain/calendar-date.js';
import { computeBalances } from '../../domain/balances.js';
import { isStillTrue, type PlanInput, type PlannerAccount, planMessages, shortfallKey } from '../../domain/notifications.js';
import { momentIn } from '../../domain/time-zones.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { listAccounts, readLedger } from '../ledger/index.js';
import {
  claimPlanningDay,
  type PlanningCandidate,
  readPlanningCandidates,
  readUserSettings,
  type UserSettings,
} from '../profile/user-settings-store.js';
import type { ChannelDelivery } from './channel-delivery.js';
import { deleteChannel, findChannel, listChannels, ownersWithChannels, recordDelivery } from './channel-store.js';
import type { OutgoingMessage } from './delivery.js';
import {
  claimDue,
  type ClaimedMessage,
  dropChannelMessages,
  finishMessage,
  noticedShortfalls,
  type OutboxMessage,
  pruneMessages,
  recordMessages,
  retryMessage,
} from './outbox-store.js';

/** How long a sender holds a claimed message: far longer than any send takes (webhook 5 s, SMTP 40 s at most). */
export const DEFAULT_LEASE_MS = 120_000;
/** A failed message is tried again for this long after its first attempt. */
export const RETRY_FOR_MS = 24 * 60 * 60_000;
const CLAIM_BATCH = 20;
/** Batches a run sends at most: the next run, a minute later, goes on. */
const MAX_BATCHES = 10;
/** Sent and given-up messages about dates this far back are forgotten. */
const KEEP_DAYS = 60;

/** 1, 2, 4, ... 64 minutes, then every 2 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 120) * 60_000;
}

export interface RunSummary {
  /** Messages this run recorded in the outbox (one per channel), not counting any recorded before. */
  readonly planned: number;
  readonly sent: number;
  readonly failed: number;
  readonly retried: number;
  readonly cancelled: number;
}

export class NotificationOutbox {
  /** This process's name on its leases. */
  private readonly leaseOwner = randomUUID();
  private lastPrunedOn: string | null = null;
  /** Set when the app closes: a round in progress stops between users and batches (a send under way finishes). */
  private stopping = false;

  constructor(
    private readonly database: OpenDatabase,
    private readonly now: () => Date,
    private readonly defaultZone: string,
    private readonly delivery: ChannelDelivery,
    private readonly leaseMs: number = DEFAULT_LEASE_MS,
    /** Where a message's unexpected failure (the database's, say) is told; its lease runs out and it goes again. */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Ends rounds early from now on: the app is closing. */
  stop(): void {
    this.stopping = true;
  }

  /** One planning and sending round: what the minute's timer runs, and what tests call with their clock. */
  async runOnce(): Promise<RunSummary> {
    const planned = await this.plan();
    const sent = await this.sendDue();
    await this.prune();
    return { planned, ...sent };
  }

  private zoneOf(settings: Pick<UserSettings, 'timeZone'>): string {
    return settings.timeZone ?? this.defaultZone;
  }

  /** What the domain reads of a user: their accounts' ledgers with balances, their rules, what they were told. */
  private async planInput(owner: Caller, settings: UserSettings, today: IsoDate): Promise<PlanInput> {
    const accounts: PlannerAccount[] = [];
    for (const account of await listAccounts(this.database.db, owner)) {
      const ledger = await readLedger(this.database, owner, { id: account.id });
      accounts.push({
        id: account.id,
        name: account.name,
        warnBelowZero: account.kind !== 'CARD',
        rows: ledger ? computeBalances(ledger.ledger.openingBalance, ledger.rows).rows : [],
      });
    }
    const noticed = await noticedShortfalls(this.database.db, owner, today);
    return {
      today,
      belowZero: settings.belowZero,
      billsDue: settings.billsDue,
      accounts,
      noticedBefore: new Set(noticed.map((shortfall) => shortfallKey(shortfall.accountId, shortfall.date))),
    };
  }

  /** Plans the day of every user whose hour has come and whose day is not planned; answers how many messages it recorded. */
  private async plan(): Promise<number> {
    const now = this.now();
    const candidates = await readPlanningCandidates(this.database.db, await ownersWithChannels(this.database.db));
    let recorded = 0;
    for (const candidate of candidates) {
      if (this.stopping) break;
      // Both rules off: nothing to plan, and no ledger to read.
      if (!candidate.belowZero && !candidate.billsDue) continue;
      try {
        const moment = momentIn(now, this.zoneOf(candidate));
        if (moment.hour < candidate.hour || candidate.plannedOn === moment.date) continue;
        recorded += await this.planUser(candidate, moment.date, now);
      } catch (error) {
        // One user's failure (a zone the runtime no longer knows, say) does not hold up everyone else's day.
        this.onError(error);
      }
    }
    return recorded;
  }

  private async planUser(candidate: PlanningCandidate, today: IsoDate, now: Date): Promise<number> {
    const { owner } = candidate;
    // Read before the claiming transaction: SQLite's one connection is the transaction's while it runs.
    const planned = planMessages(await this.planInput(owner, candidate, today));
    return this.database.db.transaction().execute(async (trx) => {
      if (!(await claimPlanningDay(trx, owner, today, now))) return 0;
      const channels = (await listChannels(trx, owner)).filter((channel) => channel.confirmed);
      const messages: OutboxMessage[] = planned.flatMap((message) =>
        channels.map((channel) => ({
          channelId: channel.id,
          accountId: message.accountId,
          kind: message.kind,
          occasion: message.occasion,
          eventDate: message.date,
          plannedOn: today,
          title: message.title,
          message: message.message,
          url: this.delivery.homeUrl(),
        })),
      );
      return recordMessages(trx, owner, messages, now);
    });
  }

  private async sendDue(): Promise<Omit<RunSummary, 'planned'>> {
    const tally = { sent: 0, failed: 0, retried: 0, cancelled: 0 };
    for (let batch = 0; batch < MAX_BATCHES && !this.stopping; batch += 1) {
      const now = this.now();
      const claimed = await claimDue(this.database, now, new Date(now.getTime() + this.leaseMs), this.leaseOwner, CLAIM_BATCH);
      if (claimed.length === 0) break;
      const outcomes = await Promise.all(
        claimed.map((message) =>
          this.send(message).catch((error: unknown) => {
            this.onError(error);
            return 'retried' as const;
          }),
        ),
      );
      for (const outcome of outcomes) tally[outcome] += 1;
      if (claimed.length < CLAIM_BATCH) break;
    }
    return tally;
  }

  private async send(message: ClaimedMessage): Promise<'sent' | 'failed' | 'retried' | 'cancelled'> {
    const { db } = this.database;
    const now = this.now();
    const finish = (state: 'sent' | 'failed' | 'cancelled', error: string | null) =>
      finishMessage(db, message.id, this.leaseOwner, state, this.now(), error).then(() => state);
    const channel = await findChannel(db, message.owner, message.channelId);
    if (!channel || !channel.confirmed) return finish('cancelled', 'The channel was removed.');
    const settings = await readUserSettings(db, message.owner);
    const today = momentIn(now, this.zoneOf(settings)).date;
    if (message.attempts > 1 || message.plannedOn !== today) {
      const input = await this.planInput(message.owner, settings, today);
      if (!isStillTrue({ kind: message.kind, accountId: message.accountId, date: message.eventDate }, input)) {
        return finish('cancelled', 'No longer true.');
      }
    }
    const outgoing: OutgoingMessage = {
      title: message.title,
      message: message.message,
      url: message.url,
      kind: message.kind,
      date: message.eventDate,
    };
    const result = await this.delivery.deliver(channel, outgoing);
    if (result.delivered) {
      await recordDelivery(db, channel.id, this.now(), true, null);
      return finish('sent', null);
    }
    if (result.gone) {
      await dropChannelMessages(db, channel.id);
      await deleteChannel(db, channel.id);
      return 'cancelled';
    }
    await recordDelivery(db, channel.id, this.now(), false, result.reason);
    const next = new Date(this.now().getTime() + retryDelayMs(message.attempts));
    if (result.retry && next.getTime() < Date.parse(message.firstAttemptAt) + RETRY_FOR_MS) {
      await retryMessage(db, message.id, this.leaseOwner, next, result.reason);
      return 'retried';
    }
    return finish('failed', result.reason);
  }

  /** Once a day per process: what is long past goes. */
  private async prune(): Promise<void> {
    const today = momentIn(this.now(), 'UTC').date;
    if (this.lastPrunedOn === today) return;
    this.lastPrunedOn = today;
    await pruneMessages(this.database.db, addDays(today, -KEEP_DAYS));
  }
}

/**
 * Runs the outbox every `everyMs` on an unref'd timer (the process may exit without waiting for
 * it), one round at a time; answers the stop that waits for a round in progress.
 */
export function startOutboxTimer(outbox: NotificationOutbox, everyMs: number, onError: (error: unknown) => void): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = outbox
      .runOnce()
      .catch(onError)
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    outbox.stop();
    await running;
  };
}
