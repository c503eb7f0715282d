import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// TODO(helper): the expenses routes.
export const expenseRoutes: FastifyPluginAsyncZod = async () => {};
