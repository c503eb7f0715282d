/**
 * GET /api/budgets/{id}/activity (issue 38 point 5, decision 0094). Thin: the endpoint table's
 * schemas check the path and the query, the /api scope has found the budget and checked the
 * caller is a member (any role reads), and the service answers its entries newest first.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACTIVITY_PAGE_DEFAULT } from '../../domain/activity.js';
import { budgetOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { activityPage } from './activity-service.js';

export const activityRoutes: FastifyPluginAsyncZod = async (api) => {
  registerEndpoint(api, 'listActivity', async (request) =>
    activityPage(api.database.db, budgetOf(request).owner, request.query.before, request.query.limit ?? ACTIVITY_PAGE_DEFAULT),
  );
};
