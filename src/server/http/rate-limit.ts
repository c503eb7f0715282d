/**
 * Request budgets for /api (docs/decisions/0007-rate-limits.md): each signed-in user has their own,
 * counted after the token check so one user cannot spend another's; calls whose token is missing
 * or refused are counted per network address, so a flood of bad tokens is answered 429 without
 * touching any user's budget (nor the budget of a signed-in neighbour behind the same address).
 * Where they are counted (decision 0071): on PostgreSQL in the database, one budget for every server
 * process (app.ts hands in the store); on SQLite in this process, which is the only one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerKey } from '../auth/access-token.js';
import type { RateLimitConfig } from '../config.js';
import { TooManyRequestsError } from '../../domain/errors.js';

export interface RateLimitBudget extends RateLimitConfig {
  /** The length of one counting window; a minute in production, shorter in tests that wait for it. */
  readonly windowMs: number;
}

/**
 * Rows a write may insert for each budget unit past its first (decision 0007): a 20,000-row create
 * costs 201 calls, so one user can make at most about three a minute (about 1.5 s of server time).
 */
export const ROWS_PER_BUDGET_UNIT = 100;

/** What a call that inserted `rows` ledger rows costs, in calls: 1, plus 1 for every started 100 rows. */
export function callCost(rows: number): number {
  return 1 + Math.ceil(Math.max(0, rows) / ROWS_PER_BUDGET_UNIT);
}

/** The two budgets: a signed-in user's, and an address's for calls with a missing or refused token. */
type BudgetName = 'user' | 'address';

/** A key's count in its current window, and the milliseconds that window has left. */
interface BudgetCount {
  readonly count: number;
  readonly resetMs: number;
}

/**
 * Where the budgets are counted. `add` charges `units` to the key's count in its current window and
 * answers the count; the first charge after a window has ended starts a new one of `windowMs`. `max`
 * is the budget, for a counter that remembers who is past it. `addAfter` charges what an answered
 * call cost beyond its first unit: at once, answering the count, or (a shared counter) with the
 * key's next call in this process or within a second, answering nothing.
 */
interface BudgetCounters {
  add(budget: BudgetName, key: string, units: number, windowMs: number, max: number): Promise<BudgetCount>;
  addAfter(budget: BudgetName, key: string, units: number, windowMs: number): BudgetCount | undefined;
}

/** Keys each budget remembers in this process; past this the least recently seen is forgotten (lenient). */
const MAX_KEYS_PER_BUDGET = 5_000;

/** The counters of one process (SQLite's, and the default): a window per key, bounded per budget. */
class ProcessBudgetCounters implements BudgetCounters {
  private readonly windows = new Map<BudgetName, Map<string, { count: number; end: number }>>();

  async add(budget: BudgetName, key: string, units: number, windowMs: number): Promise<BudgetCount> {
    return this.addAfter(budget, key, units, windowMs);
  }

  addAfter(budget: BudgetName, key: string, units: number, windowMs: number): BudgetCount {
    const now = Date.now();
    let keys = this.windows.get(budget);
    if (keys === undefined) {
      keys = new Map();
      this.windows.set(budget, keys);
    }
    let window = keys.get(key);
    // Deleted and set again, so the map's order is least recently seen first.
    if (window !== undefined) keys.delete(key);
    if (window === undefined || window.end <= now) window = { count: 0, end: now + windowMs };
    window.count += units;
    keys.set(key, window);
    if (keys.size > MAX_KEYS_PER_BUDGET) {
      const oldest = keys.keys().next().value;
      if (oldest !== undefined) keys.delete(oldest);
    }
    return { count: window.count, resetMs: window.end - now };
  }
}

export interface RateLimits {
  /** Counts one call of the signed-in person (request.member); throws TooManyRequestsError past their budget. */
  countCall(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * Charges the rest of a write's cost (callCost) once it knows how many rows it inserted. It never
   * refuses (the write is done): the caller's next calls meet the budget sooner. Updates the headers.
   */
  chargeRows(request: FastifyRequest, reply: FastifyReply, rows: number): Promise<void>;
  /** Counts one call whose token was missing or refused; throws TooManyRequestsError past the address's budget. */
  countRefusedToken(request: FastifyRequest): Promise<void>;
}

function perMinute(budget: number, windowMs: number): string {
  return windowMs === 60_000 ? `${budget} a minute` : `${budget} every ${seconds(windowMs / 1000)}`;
}

function seconds(count: number): string {
  return count === 1 ? '1 second' : `${count} seconds`;
}

/** The signed-in person's key: a member of a shared budget spends their own budget, never the shared budget's (decision 0088). */
function userKey(request: FastifyRequest): string {
  if (!request.member) throw new Error('a user budget is counted only after the token check');
  return callerKey(request.member.user);
}

/** The budgets of the /api scope; the token check calls the three counters it answers. */
export function createRateLimits(budget: RateLimitBudget, counters: BudgetCounters = new ProcessBudgetCounters()): RateLimits {
  const { perUserPerMinute: userMax, unauthenticatedPerMinute: addressMax, windowMs } = budget;
  /** Each signed-in call's count when it was let in, and when: the headers of a later charge start from it. */
  const counted = new WeakMap<FastifyRequest, BudgetCount & { readonly at: number }>();

  function showBudget(reply: FastifyReply, count: number, resetSeconds: number): void {
    reply.header('X-RateLimit-Limit', userMax);
    reply.header('X-RateLimit-Remaining', Math.max(0, userMax - count));
    reply.header('X-RateLimit-Reset', resetSeconds);
  }

  return {
    async countCall(request, reply) {
      const { count, resetMs } = await counters.add('user', userKey(request), 1, windowMs, userMax);
      counted.set(request, { count, resetMs, at: Date.now() });
      const resetSeconds = Math.ceil(resetMs / 1000);
      showBudget(reply, count, resetSeconds);
      if (count > userMax) {
        throw new TooManyRequestsError(
          `Too many requests: the limit is ${perMinute(userMax, windowMs)} for each user. Try again in ${seconds(resetSeconds)}.`,
          resetSeconds,
        );
      }
    },
    async chargeRows(request, reply, rows) {
      // The rest of the cost in one charge, whatever the rows; a shared counter takes it without a round trip.
      const extra = callCost(rows) - 1;
      if (extra <= 0) return;
      const known = counters.addAfter('user', userKey(request), extra, windowMs);
      const before = counted.get(request);
      // Not known yet (shared counters): the count as this call found it, plus what it just cost.
      const after = known ?? (before && { count: before.count + extra, resetMs: before.resetMs - (Date.now() - before.at) });
      if (after) showBudget(reply, after.count, Math.max(1, Math.ceil(after.resetMs / 1000)));
    },
    async countRefusedToken(request) {
      const { count, resetMs } = await counters.add('address', request.ip, 1, windowMs, addressMax);
      if (count > addressMax) {
        const resetSeconds = Math.ceil(resetMs / 1000);
        throw new TooManyRequestsError(
          `Too many requests without a valid access token from your address. Sign in again, then try again in ${seconds(resetSeconds)}.`,
          resetSeconds,
        );
      }
    },
  };
}
