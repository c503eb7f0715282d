import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { ProfileService } from './profile-service.js';

export interface ProfileRoutesOptions {
  /** The server's zone (TZ): a user's until they store one. */
  readonly defaultTimeZone: string;
}

/** Who the API thinks is calling (lets the page and people see two sign-ins are two users), and their time zone (decision 0047). */
export const profileRoutes: FastifyPluginAsyncZod<ProfileRoutesOptions> = async (api, { defaultTimeZone }) => {
  const profiles = new ProfileService(api.database, () => api.now(), defaultTimeZone);

  registerEndpoint(api, 'getProfile', async (request) => profiles.profile(callerOf(request)));

  registerEndpoint(api, 'updateProfile', async (request) => profiles.update(callerOf(request), request.body));
};
