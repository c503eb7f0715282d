/**
 * Request budgets for /api (docs/decisions/0007-rate-limits.md): each signed-in user has their own,
 * counted after the token check so one user cannot spend another's; calls whose token is missing
 * or refused are counted per network address, so a flood of bad tokens is answered 429 without
 * touching any user's budget (nor the budget of a signed-in neighbour behind the same address). Counters live in this process (@fastify/rate-limit's local
 * store, a bounded LRU): the limit is a safety valve per server process, not a quota.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

export interface RateLimits {
  /** Counts one call of the signed-in caller (request.caller); throws TooManyRequestsError past their budget. */
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

/** Registers the limiter in the /api scope; the token check calls the two counters it answers. */
export async function registerRateLimits(api: FastifyInstance, budget: RateLimitBudget): Promise<RateLimits> {
  // global: false: no route gets the plugin's own hook; the token check decides when to count.
  await api.register(rateLimit, { global: false });

  const userLimit = api.createRateLimit({
    max: budget.perUserPerMinute,
    timeWindow: budget.windowMs,
    keyGenerator: (request) => {
      if (!request.caller) throw new Error('a user budget is counted only after the token check');
      return callerKey(request.caller);
    },
  });
  const refusedTokenLimit = api.createRateLimit({
    max: budget.unauthenticatedPerMinute,
    timeWindow: budget.windowMs,
    keyGenerator: (request) => request.ip,
  });

  return {
    async countCall(request, reply) {
      const result = await userLimit(request);
      if (result.isAllowed) return;
      reply.header('X-RateLimit-Limit', result.max);
      reply.header('X-RateLimit-Remaining', result.remaining);
      reply.header('X-RateLimit-Reset', result.ttlInSeconds);
      if (result.isExceeded) {
        throw new TooManyRequestsError(
          `Too many requests: the limit is ${perMinute(result.max, budget.windowMs)} for each user. Try again in ${seconds(result.ttlInSeconds)}.`,
          result.ttlInSeconds,
        );
      }
    },
    async chargeRows(request, reply, rows) {
      const extra = callCost(rows) - 1;
      for (let unit = 1; unit <= extra; unit += 1) {
        const result = await userLimit(request);
        if (result.isAllowed) return;
        if (unit < extra) continue;
        reply.header('X-RateLimit-Limit', result.max);
        reply.header('X-RateLimit-Remaining', result.remaining);
        reply.header('X-RateLimit-Reset', result.ttlInSeconds);
      }
    },
    async countRefusedToken(request) {
      const result = await refusedTokenLimit(request);
      if (!result.isAllowed && result.isExceeded) {
        throw new TooManyRequestsError(
          `Too many requests without a valid access token from your address. Sign in again, then try again in ${seconds(result.ttlInSeconds)}.`,
          result.ttlInSeconds,
        );
      }
    },
  };
}
