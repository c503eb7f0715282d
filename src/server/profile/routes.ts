import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf, userOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { ProfileService } from './profile-service.js';

export interface ProfileRoutesOptions {
  /** The server's zone (TZ): a user's until they store one. */
  readonly defaultTimeZone: string;
}

/**
 * Who the API thinks is calling (lets the page and people see two sign-ins are two users), and the
 * settings of the budget the call acts on (decisions 0047, 0088): its time zone, buffer and everyday spending.
 */
export const profileRoutes: FastifyPluginAsyncZod<ProfileRoutesOptions> = async (api, { defaultTimeZone }) => {
  const profiles = new ProfileService(api.database, () => api.now(), defaultTimeZone);

  registerEndpoint(api, 'getProfile', async (request) => profiles.profile(callerOf(request), userOf(request)));

  registerEndpoint(api, 'updateProfile', async (request) => profiles.update(callerOf(request), userOf(request), request.body));
};
