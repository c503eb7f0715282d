/**
 * The request budgets (decision 0007) counted in PostgreSQL, so that every server process on one
 * database spends one budget per user and per address (issue 34, decision 0071). A call costs one
 * statement: an upsert of the key's row that starts a new window when the last one has ended, and
 * answers the count and how long the window has left, all by the database's clock, so processes
 * whose clocks disagree still share one window.
 *
 * What a call costs beyond its first unit (the rows it read or wrote) is known only once it is
 * answered. It is not a second round trip: this process keeps it and adds it to the key's next
 * charge here, and sends whatever is still kept, for every key in one statement, within a second.
 *
 * Once a key is past its budget this process remembers it until the window ends, and answers from
 * memory: a flood past a budget costs no database work, as it cost none before the budgets were
 * shared (the count can only grow within a window, so the answer is the one the database would give).
 */
import { createHash } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/database.js';

/** A key's count in its current window after a charge, and the milliseconds that window has left. */
export interface BudgetCharge {
  readonly count: number;
  readonly resetMs: number;
}

/** Keys remembered as past their budget; past this the oldest is forgotten and asked of the database again. */
const MAX_SPENT_KEYS = 5_000;
/** How long a charge after the fact may wait for the key's next call before it is sent on its own. */
const FLUSH_EVERY_MS = 1_000;
/** Keys sent in one statement (4 parameters each, well under PostgreSQL's 65,535). */
const FLUSH_ROWS = 1_000;

/** Now by the database's clock, in milliseconds; one value for the whole statement. */
const DATABASE_NOW_MS = sql<number>`(extract(epoch from statement_timestamp()) * 1000)::bigint`;

interface Charge {
  readonly budget: string;
  readonly key: string;
  readonly units: number;
  readonly windowMs: number;
}

function keyHash(key: string): string {
  // Hashed: the table holds no user's identity and no address, only what tells them apart.
  return createHash('sha256').update(key).digest('base64url');
}

/** Adds each charge to its key's row, or starts the key's window: one statement for all of them. */
function upsert(charges: readonly Charge[]): RawBuilder<BudgetCharge> {
  const rows = charges.map(
    ({ budget, key, units, windowMs }) => sql`(${budget}, ${keyHash(key)}, ${units}, ${DATABASE_NOW_MS} + ${windowMs})`,
  );
  return sql<BudgetCharge>`
    insert into request_budget_counts as counted (budget, key_hash, count, window_end)
    values ${sql.join(rows)}
    on conflict (budget, key_hash) do update set
      count = case when counted.window_end <= ${DATABASE_NOW_MS} then excluded.count else counted.count + excluded.count end,
      window_end = case when counted.window_end <= ${DATABASE_NOW_MS} then excluded.window_end else counted.window_end end
    returning count as "count", window_end - ${DATABASE_NOW_MS} as "resetMs"`;
}

export class RequestBudgetStore {
  private readonly spent = new Map<string, { readonly count: number; readonly until: number }>();
  /** Charges after the fact not yet sent, by budget and key. */
  private readonly kept = new Map<string, Charge>();
  private readonly flushTimer: NodeJS.Timeout;
  private background: Promise<void> = Promise.resolve();
  /** The flush being sent, if any: a call's count waits for it, so it never leaves out charges already taken from `kept`. */
  private flushing: Promise<void> | undefined;
  private nextSweepAt = 0;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly onBackgroundError: (error: unknown) => void,
  ) {
    this.flushTimer = setInterval(() => {
      if (this.kept.size > 0) this.inBackground(this.flush());
    }, FLUSH_EVERY_MS);
    // Never what keeps a process alive: close() sends what is kept.
    this.flushTimer.unref();
  }

  /** Adds `units`, and whatever this process kept for the key, to its count in `budget`; a key whose window has ended starts a new one of `windowMs`. */
  async add(budget: string, key: string, units: number, windowMs: number, max: number): Promise<BudgetCharge> {
    const now = Date.now();
    const id = `${budget}\u0000${key}`;
    const spent = this.spent.get(id);
    if (spent !== undefined) {
      if (spent.until > now) return { count: spent.count, resetMs: spent.until - now };
      this.spent.delete(id);
    }
    this.sweepEnded(now, windowMs);
    // Charges a flush took from `kept` are in no call's carry: without this wait a call could be
    // counted before they commit, and answer a count short of what this process already charged.
    if (this.flushing) await this.flushing;

    const carried = this.kept.get(id)?.units ?? 0;
    this.kept.delete(id);
    let charge: BudgetCharge | undefined;
    try {
      charge = (await upsert([{ budget, key, units: units + carried, windowMs }]).execute(this.db)).rows[0];
    } catch (error) {
      if (carried > 0) this.keep({ budget, key, units: carried, windowMs });
      throw error;
    }
    if (charge === undefined) throw new Error('the budget upsert answered no row');
    if (charge.count > max) {
      if (this.spent.size >= MAX_SPENT_KEYS) {
        const oldest = this.spent.keys().next().value;
        if (oldest !== undefined) this.spent.delete(oldest);
      }
      this.spent.set(id, { count: charge.count, until: now + charge.resetMs });
    }
    return charge;
  }

  /** Charges `units` after the fact, with the key's next call in this process or within a second; the count is not known here. */
  addAfter(budget: string, key: string, units: number, windowMs: number): undefined {
    this.keep({ budget, key, units, windowMs });
    return undefined;
  }

  /** Sends what is kept, waits for the work in the background, and starts no more (before the database closes). */
  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    if (this.kept.size > 0) this.inBackground(this.flush());
    this.closed = true;
    await this.background;
  }

  private keep(charge: Charge): void {
    const id = `${charge.budget}\u0000${charge.key}`;
    const earlier = this.kept.get(id);
    this.kept.set(id, earlier ? { ...charge, units: earlier.units + charge.units } : charge);
  }

  private flush(): Promise<void> {
    const charges = [...this.kept.values()];
    this.kept.clear();
    const sent = (async () => {
      for (let start = 0; start < charges.length; start += FLUSH_ROWS) {
        await upsert(charges.slice(start, start + FLUSH_ROWS)).execute(this.db);
      }
    })();
    // Settled, and after any flush still being sent: a call waits for every charge taken from `kept`.
    const flushing: Promise<void> = Promise.allSettled([this.flushing, sent]).then(() => {
      if (this.flushing === flushing) this.flushing = undefined;
    });
    this.flushing = flushing;
    return sent;
  }

  /**
   * Deletes the rows whose window has ended, at most once a window in each process, beside the call
   * that asked rather than before it: the table holds the keys of one window, not every key ever seen.
   */
  private sweepEnded(now: number, windowMs: number): void {
    if (this.closed || now < this.nextSweepAt) return;
    this.nextSweepAt = now + windowMs;
    this.inBackground(sql`delete from request_budget_counts where window_end <= ${DATABASE_NOW_MS}`.execute(this.db));
  }

  /** Work no call waits for: its failure is logged, and close() waits for it. */
  private inBackground(work: Promise<unknown>): void {
    const done = work.then(
      () => undefined,
      (error: unknown) => this.onBackgroundError(error),
    );
    this.background = Promise.all([this.background, done]).then(() => undefined);
  }
}
