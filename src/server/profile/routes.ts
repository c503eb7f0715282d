import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';

/** Who the API thinks is calling: lets the page (and people) see two sign-ins are two users. */
export const profileRoutes: FastifyPluginAsyncZod = async (api) => {
  registerEndpoint(api, 'getProfile', async (request) => {
    const caller = callerOf(request);
    return { subject: caller.subject, name: null };
  });
};
