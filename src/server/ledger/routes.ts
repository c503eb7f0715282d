import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// TODO(helper): the ledger routes.
export const ledgerRoutes: FastifyPluginAsyncZod = async () => {};
