import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// TODO(helper): the deposits routes.
export const depositRoutes: FastifyPluginAsyncZod = async () => {};
