/**
 * Sent once, never lost (issue 26 item 4, decision 0051), fair and cheap (issue 34 item 3, decision
 * 0070). Each server process plans on a timer aligned to the minute, and sends without holding up
 * its planning:
 *  - plan: for each user with a confirmed channel whose hour has come in their zone and whose day
 *    is not planned yet, the domain decides today's messages (planMessages) from their ledgers, and
 *    one transaction marks the day planned (claimPlanningDay: one process wins), calls off what was
 *    still waiting and is no longer true (isStillTrue, on the same read), and records every
 *    message, its text made now, for every confirmed channel that does not need attention. This
 *    is the only ledger read: once a user a day. Only today is planned: after downtime the first
 *    run sends what is true today, never a backlog;
 *  - send: a few sends at a time, users in turn (claimNext), each user at most a couple at once,
 *    so one user's hundred failing messages cannot hold up another's first. A message is sent as
 *    it was planned, whatever its ledgers say since; a failure backs its channel off (1, 2, 4 ...
 *    64 minutes, then every 2 hours) and its message waits; after 5 days of failures the channel
 *    needs attention and nothing more goes to it until a test arrives. A message about a day that
 *    has passed is called off. A process killed mid-send leaves its lease to run out, and the
 *    message goes again: it may repeat, it is never skipped.
 */
import { randomUUID } from 'node:crypto';
import { addDays, type IsoDate } from '../../domain/calendar-date.js';
import { computeBalances } from '../../domain/balances.js';
import { isStillTrue, type PlanInput, type PlannerAccount, planMessages, shortfallKey } from '../../domain/notifications.js';
import { momentIn } from '../../domain/time-zones.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { everydayWeeklyOf, forecastRows, listAccounts, readLedger } from '../ledger/index.js';
import {
  claimPlanningDay,
  type PlanningCandidate,
  readPlanningCandidates,
  readUserSettings,
  type UserSettings,
} from '../profile/user-settings-store.js';
import type { ChannelDelivery } from './channel-delivery.js';
import { deleteChannel, listChannels, ownersWithChannels, recordFailure, releaseChannel } from './channel-store.js';
import {
  cancelMessages,
  claimNext,
  type ClaimedSend,
  dropChannelMessages,
  failChannelMessages,
  finishMessage,
  noticedShortfalls,
  type OutboxMessage,
  pruneMessages,
  recordMessages,
  retryMessage,
  waitingMessages,
} from './outbox-store.js';

/** How long a sender holds a claimed channel and message: far longer than any send takes (webhook 5 s, SMTP 40 s at most). */
export const DEFAULT_LEASE_MS = 120_000;
/** A channel whose deliveries have failed this long needs attention: nothing more is sent to it. */
export const NEEDS_ATTENTION_AFTER_MS = 5 * 24 * 60 * 60_000;
/** Sends one process has under way at once. */
export const DEFAULT_SEND_CONCURRENCY = 10;
/** Of those, at most this many one user's: a user with ten hanging webhooks leaves the other slots to everyone else. */
export const DEFAULT_SENDS_PER_USER = 2;
/** Sent and given-up messages about dates this far back are forgotten. */
const KEEP_DAYS = 60;

const NO_LONGER_TRUE = 'No longer true.';
const DAY_PASSED = 'The day it was about has passed.';
const NEEDS_ATTENTION =
  'Nothing reached this channel for 5 days, so Leftover stopped sending to it. Once a test arrives, messages go to it again.';

/** A channel's back-off after its failures in a row: 1, 2, 4, ... 64 minutes, then every 2 hours. */
export function retryDelayMs(failures: number): number {
  return Math.min(2 ** Math.max(0, failures - 1), 120) * 60_000;
}

export interface RunSummary {
  /** Messages this run recorded in the outbox (one per channel), not counting any recorded before. */
  readonly planned: number;
  readonly sent: number;
  readonly failed: number;
  readonly retried: number;
  readonly cancelled: number;
}

type Tally = { -readonly [Key in keyof Omit<RunSummary, 'planned'>]: number };

export interface OutboxOptions {
  readonly leaseMs?: number;
  readonly sendConcurrency?: number;
  readonly sendsPerUser?: number;
  /** Where a message's unexpected failure (the database's, say) is told; its lease runs out and it goes again. */
  readonly onError?: (error: unknown) => void;
  /**
   * The budgets a person's day's messages cover (decisions 0095, 0099): whether their personal
   * budget does, and the shared budgets they are in, by name and owner columns, that they did not
   * turn off; each by their own channels and rules. By default the personal budget alone.
   */
  readonly budgetsToldOf?: (person: Caller) => Promise<BudgetsTold>;
}

/** What a member chose to be told of: their personal budget or not, and which shared ones. */
export interface BudgetsTold {
  readonly personal: boolean;
  readonly shared: readonly SharedBudget[];
}

/** A budget shared with others, as a member's notifications read it. */
export interface SharedBudget {
  readonly name: string;
  readonly owner: Caller;
}

const ownerKey = (owner: Caller) => `${owner.issuer}\n${owner.subject}`;

export class NotificationOutbox {
  /** This process's name on its leases. */
  private readonly leaseOwner = randomUUID();
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly perUser: number;
  private readonly onError: (error: unknown) => void;
  private readonly budgetsToldOf: (person: Caller) => Promise<BudgetsTold>;
  private lastPrunedOn: string | null = null;
  /** Set when the app closes: planning stops between users, and no more sends start (those under way finish). */
  private stopping = false;
  /** The sending under way, if any: one at a time per process. */
  private sending: Promise<Tally> | null = null;
  /** Something may have come due since the sending last looked. */
  private wanted = false;
  /** Wakes the sending while it waits for a send to end. */
  private wake: (() => void) | null = null;

  constructor(
    private readonly database: OpenDatabase,
    private readonly now: () => Date,
    private readonly defaultZone: string,
    private readonly delivery: ChannelDelivery,
    options: OutboxOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.concurrency = Math.max(1, options.sendConcurrency ?? DEFAULT_SEND_CONCURRENCY);
    this.perUser = Math.max(1, options.sendsPerUser ?? DEFAULT_SENDS_PER_USER);
    this.onError = options.onError ?? (() => undefined);
    this.budgetsToldOf = options.budgetsToldOf ?? (async () => ({ personal: true, shared: [] }));
  }

  /** Ends rounds early from now on: the app is closing. */
  stop(): void {
    this.stopping = true;
    this.wake?.();
  }

  /** Resolves once the sending under way has ended (after stop, once its sends have). */
  async settled(): Promise<void> {
    await this.sending?.catch(() => undefined);
  }

  /** One planning and sending round, waiting for every send: what tests call with their clock. */
  async runOnce(): Promise<RunSummary> {
    const { recorded, cancelled } = await this.plan();
    const sent = await this.sendDue();
    await this.prune();
    return { planned: recorded, ...sent, cancelled: cancelled + sent.cancelled };
  }

  /** The timer's round: plans, and sets the sending going without waiting for it, so no send holds up anyone's planning. */
  async tick(): Promise<void> {
    await this.plan();
    this.sendDue().catch(this.onError);
    await this.prune();
  }

  private zoneOf(settings: Pick<UserSettings, 'timeZone'>): string {
    return settings.timeZone ?? this.defaultZone;
  }

  /**
   * A budget's accounts as the planner reads them: their ledgers with balances, and everyday spending
   * by the budget's own forecast settings. `label` names a shared budget's accounts, so a member
   * knows which budget a message is about.
   */
  private async plannerAccounts(owner: Caller, settings: UserSettings, today: IsoDate, label?: string): Promise<PlannerAccount[]> {
    const accounts: PlannerAccount[] = [];
    for (const account of await listAccounts(this.database.db, owner)) {
      const ledger = await readLedger(this.database, owner, { id: account.id });
      // Everyday spending on a card is in its statement payments, as the forecast counts it (decision 0101).
      const weighed = ledger && (await forecastRows(this.database, owner, { today, everyday: settings.everyday }, account, ledger)).rows;
      accounts.push({
        id: account.id,
        name: label === undefined ? account.name : `${account.name} (${label})`,
        warnBelowZero: account.kind !== 'CARD',
        rows: ledger && weighed ? computeBalances(ledger.ledger.openingBalance, weighed).rows : [],
        // What the forecast counts, the shortfall counts (issue 36): everyday spending out of this account.
        ...(ledger && {
          ledger: ledger.ledger,
          everydayWeekly: everydayWeeklyOf({ ...settings, today }, account.id),
        }),
      });
    }
    return accounts;
  }

  /**
   * What the domain reads of a user: the accounts' ledgers with balances of their personal budget and
   * of every budget they share with others (none when both rules are off), leaving out each budget
   * they turned off, their rules, what they were told. A member's rules and channels are their own,
   * whatever budget a message is about.
   */
  private async planInput(owner: Caller, settings: UserSettings, today: IsoDate): Promise<PlanInput> {
    const ruled = settings.belowZero || settings.billsDue;
    const told: BudgetsTold = ruled ? await this.budgetsToldOf(owner) : { personal: false, shared: [] };
    const accounts: PlannerAccount[] = told.personal ? await this.plannerAccounts(owner, settings, today) : [];
    for (const budget of told.shared) {
      const budgetSettings = await readUserSettings(this.database.db, budget.owner);
      accounts.push(...(await this.plannerAccounts(budget.owner, budgetSettings, today, budget.name)));
    }
    const noticed = ruled ? await noticedShortfalls(this.database.db, owner, today) : [];
    return {
      today,
      belowZero: settings.belowZero,
      billsDue: settings.billsDue,
      accounts,
      noticedBefore: new Set(noticed.map((shortfall) => shortfallKey(shortfall.accountId, shortfall.date))),
    };
  }

  /**
   * Plans the day of every user whose hour has come and whose day is not planned; answers how many
   * messages it recorded, and how many still waiting it called off.
   */
  private async plan(): Promise<{ recorded: number; cancelled: number }> {
    const now = this.now();
    const candidates = await readPlanningCandidates(this.database.db, await ownersWithChannels(this.database.db));
    let recorded = 0;
    let cancelled = 0;
    for (const candidate of candidates) {
      if (this.stopping) break;
      try {
        const moment = momentIn(now, this.zoneOf(candidate));
        if (moment.hour < candidate.hour || candidate.plannedOn === moment.date) continue;
        const day = await this.planUser(candidate, moment.date, now);
        recorded += day.recorded;
        cancelled += day.cancelled;
      } catch (error) {
        // One user's failure (a zone the runtime no longer knows, say) does not hold up everyone else's day.
        this.onError(error);
      }
    }
    // What was just recorded goes at once, whatever the sending is busy with.
    if (recorded > 0) this.nudge();
    return { recorded, cancelled };
  }

  private async planUser(candidate: PlanningCandidate, today: IsoDate, now: Date): Promise<{ recorded: number; cancelled: number }> {
    const { owner } = candidate;
    // Read before the claiming transaction: SQLite's one connection is the transaction's while it runs.
    const input = await this.planInput(owner, candidate, today);
    const planned = planMessages(input);
    const waiting = await waitingMessages(this.database.db, owner, now);
    const untrue = waiting
      .filter((message) => !isStillTrue({ kind: message.kind, accountId: message.accountId, date: message.eventDate }, input))
      .map((message) => message.id);
    return this.database.db.transaction().execute(async (trx) => {
      if (!(await claimPlanningDay(trx, owner, today, now))) return { recorded: 0, cancelled: 0 };
      const cancelled = await cancelMessages(trx, untrue, now, NO_LONGER_TRUE);
      const channels = (await listChannels(trx, owner)).filter(
        (channel) => channel.confirmed && channel.delivery.needsAttentionAt === null,
      );
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
      return { recorded: await recordMessages(trx, owner, messages, now), cancelled };
    });
  }

  /** Wakes the sending under way to look for due messages again. */
  private nudge(): void {
    this.wanted = true;
    this.wake?.();
  }

  /** Sends what is due until nothing more is: joins the sending under way, if any. */
  private sendDue(): Promise<Tally> {
    if (this.sending) {
      this.nudge();
      return this.sending;
    }
    const sending = this.sendAll().finally(() => {
      this.sending = null;
    });
    this.sending = sending;
    return sending;
  }

  /**
   * Keeps up to `concurrency` sends under way, at most `perUser` of one user's, claiming the next
   * (users in turn) whenever one ends, until nothing is due and nothing is under way.
   */
  private async sendAll(): Promise<Tally> {
    const tally: Tally = { sent: 0, failed: 0, retried: 0, cancelled: 0 };
    const running = new Set<Promise<void>>();
    const perOwner = new Map<string, { owner: Caller; sends: number }>();
    for (;;) {
      this.wanted = false;
      while (!this.stopping && running.size < this.concurrency) {
        const busy = [...perOwner.values()].filter((entry) => entry.sends >= this.perUser).map((entry) => entry.owner);
        const now = this.now();
        let claimed: ClaimedSend | undefined;
        try {
          claimed = await claimNext(this.database, now, new Date(now.getTime() + this.leaseMs), this.leaseOwner, busy);
        } catch (error) {
          this.onError(error);
          break;
        }
        if (!claimed) break;
        const key = ownerKey(claimed.message.owner);
        const entry = perOwner.get(key) ?? { owner: claimed.message.owner, sends: 0 };
        entry.sends += 1;
        perOwner.set(key, entry);
        const send: Promise<void> = this.send(claimed, tally)
          .catch((error: unknown) => {
            this.onError(error);
            tally.retried += 1;
          })
          .finally(() => {
            running.delete(send);
            entry.sends -= 1;
            if (entry.sends === 0) perOwner.delete(key);
          });
        running.add(send);
      }
      if (running.size === 0 && (this.stopping || !this.wanted)) return tally;
      // A send ending frees a slot (and maybe a user); a nudge says something new is due.
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        for (const send of running) void send.then(resolve);
        if (this.wanted && !this.stopping) resolve();
      });
      this.wake = null;
    }
  }

  private async send({ channel, message }: ClaimedSend, tally: Tally): Promise<void> {
    const { db } = this.database;
    const finish = (state: 'sent' | 'failed' | 'cancelled', error: string | null) =>
      finishMessage(db, message.id, this.leaseOwner, state, this.now(), error);
    const settings = await readUserSettings(db, message.owner);
    if (message.eventDate < momentIn(this.now(), this.zoneOf(settings)).date) {
      await finish('cancelled', DAY_PASSED);
      await releaseChannel(db, channel.id, this.leaseOwner, null);
      tally.cancelled += 1;
      return;
    }
    // The text as it was planned: no ledger is read to send it, the first time or the tenth.
    const result = await this.delivery.deliver(channel, {
      title: message.title,
      message: message.message,
      url: message.url,
      kind: message.kind,
      date: message.eventDate,
    });
    if (result.delivered) {
      await finish('sent', null);
      await releaseChannel(db, channel.id, this.leaseOwner, this.now());
      tally.sent += 1;
      return;
    }
    if (result.gone) {
      await dropChannelMessages(db, channel.id);
      await deleteChannel(db, channel.id);
      tally.cancelled += 1;
      return;
    }
    const at = this.now();
    const failingSince = channel.delivery.failingSince ?? at.toISOString();
    const failures = channel.delivery.failures + 1;
    const needsAttention = at.getTime() - Date.parse(failingSince) >= NEEDS_ATTENTION_AFTER_MS;
    const recorded = await recordFailure(db, channel.id, this.leaseOwner, at, result.reason, {
      failingSince,
      failures,
      retryAt: new Date(at.getTime() + retryDelayMs(failures)).toISOString(),
      needsAttentionAt: needsAttention ? at.toISOString() : null,
    });
    if (needsAttention && recorded) {
      await finish('failed', result.reason);
      tally.failed += 1 + (await failChannelMessages(db, channel.id, NEEDS_ATTENTION));
      return;
    }
    if (result.retry) {
      await retryMessage(db, message.id, this.leaseOwner, result.reason);
      tally.retried += 1;
      return;
    }
    await finish('failed', result.reason);
    tally.failed += 1;
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
 * How long until the next round: just after the next multiple of `everyMs` on the app's clock, so
 * with a minute each round starts as a minute does, and a user's hour is planned as it begins.
 */
function nextRoundInMs(nowMs: number, everyMs: number): number {
  const untilBoundary = everyMs - (((nowMs % everyMs) + everyMs) % everyMs);
  return Math.max(untilBoundary + Math.ceil(everyMs / 100), Math.ceil(everyMs / 10));
}

/**
 * Runs the outbox's rounds on an unref'd timer (the process may exit without waiting for it), one
 * planning at a time, the sending going on between them; answers the stop that waits for the
 * planning and the sends under way.
 */
export function startOutboxTimer(
  outbox: NotificationOutbox,
  everyMs: number,
  now: () => Date,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let stopped = false;
  let round: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(
      () => {
        round = outbox
          .tick()
          .catch(onError)
          .finally(() => {
            if (!stopped) schedule();
          });
      },
      nextRoundInMs(now().getTime(), everyMs),
    );
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    outbox.stop();
    await round;
    await outbox.settled();
  };
}
