import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { profileSchema } from '../../contract/app-config.js';
import { callerOf } from '../auth/plugin.js';

/** Who the API thinks is calling: lets the page (and people) see two sign-ins are two users. */
export const profileRoutes: FastifyPluginAsyncZod = async (api) => {
  api.get('/me', { schema: { response: { 200: profileSchema } } }, async (request) => {
    const caller = callerOf(request);
    return { subject: caller.subject, name: null };
  });
};
