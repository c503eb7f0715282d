import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PROFILE_PATH, profileSchema } from '../../contract/app-config.js';
import { callerOf, routeInApi } from '../http/api-scope.js';

/** Who the API thinks is calling: lets the page (and people) see two sign-ins are two users. */
export const profileRoutes: FastifyPluginAsyncZod = async (api) => {
  api.get(routeInApi(PROFILE_PATH), { schema: { response: { 200: profileSchema } } }, async (request) => {
    const caller = callerOf(request);
    return { subject: caller.subject, name: null };
  });
};
