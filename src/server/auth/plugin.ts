/** The token check, registered once for everything under /api. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessTokenVerifier, Caller } from './access-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export function registerTokenCheck(api: FastifyInstance, verify: AccessTokenVerifier): void {
  api.decorateRequest('caller', null);
  api.addHook('onRequest', async (request) => {
    request.caller = await verify(request.headers.authorization);
  });
}

/** The signed-in caller of an /api request; the hook above guarantees there is one. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used outside the /api scope');
  return request.caller;
}
