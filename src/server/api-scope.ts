/**
 * The /api scope: the token check and the request budgets, registered once for every call under it,
 * and how routes inside it name the contract's paths.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../contract/common.js';
import { type AccessTokenVerifier, type Caller, InvalidTokenError } from './auth/access-token.js';
import type { RateLimits } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    /** Ledger rows this call inserted; charged to the caller's budget as the answer leaves (chargeRowsWritten). */
    rowsWritten: number;
  }
}

/**
 * Runs first for every /api request, before its body is read: a refused token costs one signature
 * check at most, and a caller past their budget is turned away before any work is done for them.
 */
export function registerTokenCheck(api: FastifyInstance, verify: AccessTokenVerifier, limits: RateLimits): void {
  api.decorateRequest('caller', null);
  api.addHook('onRequest', async (request, reply) => {
    try {
      request.caller = await verify(request.headers.authorization);
    } catch (error) {
      // Only the caller's own fault counts against their address; an unreachable provider does not.
      if (error instanceof InvalidTokenError) await limits.countRefusedToken(request);
      throw error;
    }
    await limits.countCall(request, reply);
  });
  // A write that inserted many rows costs more than one call (decision 0007), charged once its count is known.
  api.decorateRequest('rowsWritten', 0);
  api.addHook('onSend', async (request, reply, payload) => {
    if (request.caller && request.rowsWritten > 0) await limits.chargeRows(request, reply, request.rowsWritten);
    return payload;
  });
}

/** Records that this call inserted `rows` ledger rows, so it is charged for them (decision 0007). */
export function chargeRowsWritten(request: FastifyRequest, rows: number | undefined): void {
  request.rowsWritten += rows ?? 0;
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
