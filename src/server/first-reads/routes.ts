/**
 * A view's first reads in one call (issue 35, decision 0128). Each read goes through the app as the
 * call it names would have (Fastify's inject): the same token check, budget, limits, charges, schema
 * checks and answer, so nothing about a read is decided here but which reads may be asked for
 * (contract/first-reads.ts: only the first views' GETs, at most four, never this call itself).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BUDGET_HEADER } from '../../contract/budgets.js';
import type { FirstReadsView } from '../../contract/first-reads.js';
import { firstReadsOf } from '../../contract/first-reads-query.js';
import { registerEndpoint } from '../http/endpoint-route.js';

/** The request's headers a read needs to be the caller's own call: who, which budget, and the host it was sent to. */
const PASSED_ON = ['authorization', BUDGET_HEADER.toLowerCase(), 'host', 'accept-language'] as const;

async function readAsItsOwnCall(app: FastifyInstance, request: FastifyRequest, path: string): Promise<FirstReadsView['answers'][number]> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity' };
  for (const name of PASSED_ON) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const answer = await app.inject({ method: 'GET', url: path, headers, remoteAddress: request.ip });
  const etag = answer.headers.etag;
  return { path, status: answer.statusCode, etag: typeof etag === 'string' ? etag : null, body: answer.payload };
}

/** The call answered as one read was: its status and body as they came (the route's own type is its 200 answer's). */
function answeredAs(reply: FastifyReply, read: FirstReadsView['answers'][number]): FastifyReply {
  return reply.code(read.status).type('application/json; charset=utf-8').send(read.body);
}

export const firstReadsRoutes: FastifyPluginAsyncZod = async (api) => {
  registerEndpoint(api, 'getFirstReads', async (request, reply) => {
    const answers = await Promise.all(firstReadsOf(request.query.paths).map((path) => readAsItsOwnCall(api, request, path)));
    // A read the server failed (its database closed or busy) fails the call, with that read's own
    // answer: the view needs every read, and each would have failed so alone. A refusal (a 404) is the read's.
    const failed = answers.find((answer) => answer.status >= 500);
    if (failed) return answeredAs(reply, failed);
    return { answers };
  });
};
