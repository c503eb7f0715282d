/**
 * The /api scope: the token check and the request budgets, registered once for every call under it,
 * and how routes inside it name the contract's paths.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../contract/common.js';
import { type AccessTokenVerifier, type Caller, InvalidTokenError } from '../auth/access-token.js';
import { type RateLimits, ROWS_PER_BUDGET_UNIT } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    /** Ledger rows this call inserted; charged to the caller's budget as the answer leaves (chargeRowsWritten). */
    rowsWritten: number;
    /** Rows this call read or answered (ledger rows, statement rows); charged the same way (chargeRowsRead). */
    rowsRead: number;
    /** Ledger rows this call's writes added, took away or changed in place (chargeRowsTouched). */
    rowsTouched: number;
  }
}

/**
 * The request each signed-in call's caller object came with. Every call gets a caller object of its
 * own, which the services it calls are handed as the owner; work done deep inside in that owner's
 * name (a ledger write) is charged to that call through it, without passing the request down.
 */
const requestOfCaller = new WeakMap<Caller, FastifyRequest>();

/**
 * Runs first for every /api request, before its body is read: a refused token costs one signature
 * check at most, and a caller past their budget is turned away before any work is done for them.
 */
export function registerTokenCheck(api: FastifyInstance, verify: AccessTokenVerifier, limits: RateLimits): void {
  api.decorateRequest('caller', null);
  api.addHook('onRequest', async (request, reply) => {
    try {
      const verified = await verify(request.headers.authorization);
      // A copy per call: a verified token's caller may be shared by the same user's other calls.
      request.caller = { issuer: verified.issuer, subject: verified.subject };
      requestOfCaller.set(request.caller, request);
    } catch (error) {
      // Only the caller's own fault counts against their address; an unreachable provider does not.
      if (error instanceof InvalidTokenError) await limits.countRefusedToken(request);
      throw error;
    }
    await limits.countCall(request, reply);
  });
  // A call that inserted, read or answered many rows costs more than one call (decisions 0007 and
  // 0031), charged once its count is known: a 20,000-row read costs what a 20,000-row create does.
  api.decorateRequest('rowsWritten', 0);
  api.decorateRequest('rowsRead', 0);
  api.decorateRequest('rowsTouched', 0);
  // Every answer that carries a ledger is charged for its rows here, whichever call answered it.
  api.addHook('preSerialization', async (request, _reply, payload) => {
    request.rowsRead = Math.max(request.rowsRead, ledgerRowsIn(payload));
    return payload;
  });
  api.addHook('onSend', async (request, reply, payload) => {
    // The first 100 rows a write touches come with its call (a Pay, an add, their followers: a block
    // of rows read to place them, issue 34); past them it costs as reading that many more would.
    const touched = Math.max(0, request.rowsTouched - ROWS_PER_BUDGET_UNIT);
    const rows = Math.max(request.rowsWritten, request.rowsRead, touched);
    if (request.caller && rows > 0) await limits.chargeRows(request, reply, rows);
    return payload;
  });
}

/** The rows of the ledger an answer carries (`{ ledger: { transactions } }`), or 0. */
function ledgerRowsIn(payload: unknown): number {
  if (typeof payload !== 'object' || payload === null || !('ledger' in payload)) return 0;
  const { ledger } = payload;
  if (typeof ledger !== 'object' || ledger === null || !('transactions' in ledger)) return 0;
  return Array.isArray(ledger.transactions) ? ledger.transactions.length : 0;
}

/** Records that this call inserted `rows` ledger rows, so it is charged for them (decision 0007). */
export function chargeRowsWritten(request: FastifyRequest, rows: number | undefined): void {
  request.rowsWritten += rows ?? 0;
}

/**
 * Records that this call read or answered `rows` rows (a ledger read, a statement and the ledger
 * it was matched against), so it is charged for the work (decision 0031).
 */
export function chargeRowsRead(request: FastifyRequest, rows: number | undefined): void {
  request.rowsRead += rows ?? 0;
}

/**
 * Records that a ledger write made in this caller's name added, took away or changed `rows` rows,
 * so the call it came with is charged for them past the first 100 (issue 34). A caller that came
 * with no call (a background job) is charged nothing.
 */
export function chargeRowsTouched(caller: Caller, rows: number): void {
  const request = requestOfCaller.get(caller);
  if (request) request.rowsTouched += rows;
}

/** The signed-in caller of an /api request; the hook above guarantees there is one. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used outside the /api scope');
  return request.caller;
}

/** A contract path as a route of the /api scope, which Fastify prefixes with API_PREFIX itself. */
export function routeInApi(contractPath: string): string {
  if (!contractPath.startsWith(`${API_PREFIX}/`)) throw new Error(`not an API path: ${contractPath}`);
  return contractPath.slice(API_PREFIX.length);
}
