/**
 * Changes seen live (issue 38 point 6, decision 0096): every change a call makes to a budget is
 * published once the call is answered, from this one hook at the /api edge, whichever resource it
 * wrote (ledger, deposits, expenses, accounts, settings, members) and whether or not it went through
 * the ledger's unit of work; GET /api/events streams them to the budget's members. Thin: the scope
 * has found the budget and checked the role (READERS) already.
 */
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ENDPOINTS } from '../../contract/common.js';
import { PERSON } from '../../contract/endpoints.js';
import { EVENT_STREAM_TYPE } from '../../contract/live-changes.js';
import { callerOf, userOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { genericChangeText } from './budget-change.js';
import { changeTextOf } from './change-text.js';
import type { EventStreams } from './event-streams.js';
import type { LiveBus } from './live-bus.js';

/** Calls a writer may make that store nothing: no one is told of them. */
const STORES_NOTHING = new Set<string>([ENDPOINTS.previewStatement.path, ENDPOINTS.previewStatement.primary.path]);

/**
 * Publishes each answered change of a budget that others can see. A change of a personal budget is
 * not published: nobody else is its member, and the person's own page already has the answer.
 */
export function registerChangePublishing(api: FastifyInstance, bus: LiveBus): void {
  api.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode < 200 || reply.statusCode >= 300) return;
    const { access } = request.routeOptions.config;
    // A reader's call (a what-if, leaving) changes nothing the budget's pages show; a person's call no budget.
    if (access === undefined || access === PERSON || access.includes('VIEWER')) return;
    const budget = request.member?.budget;
    if (!request.caller || !budget || budget.personal || STORES_NOTHING.has(`/api${request.routeOptions.url ?? ''}`)) return;
    const user = userOf(request);
    const by = user.name ?? null;
    const owner = callerOf(request);
    // A budget's own calls (renaming it, its members) write for the owner the path named, the same budget.
    const text = changeTextOf(owner) ?? changeTextOf(budget.owner) ?? genericChangeText(by);
    await bus
      .publish({ owner, actor: { issuer: user.issuer, subject: user.subject }, by, text })
      .catch((error: unknown) => request.log.warn({ err: error }, 'a change could not be told to the other processes'));
  });
}

export interface LiveRoutesOptions {
  readonly streams: EventStreams;
}

export const liveRoutes: FastifyPluginAsyncZod<LiveRoutesOptions> = async (api, { streams }) => {
  registerEndpoint(api, 'streamChanges', async (request, reply) => {
    // The HEAD Fastify adds beside every GET says what the stream would be, and holds nothing open.
    if (request.method === 'HEAD') return reply.type(EVENT_STREAM_TYPE).header('cache-control', 'no-store').send('');
    streams.follow(request, reply, userOf(request), callerOf(request), request.member?.budget);
    return reply;
  });
};
