/**
 * Budgets shared with a partner under /api/budgets and /api/invitations (issue 38, decision 0088).
 * Thin: the endpoint table's schemas check bodies and answers, the /api scope has already found the
 * budget a path names and checked the caller's role in it (api-scope.ts), and BudgetService does the work.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { budgetOf, userOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import type { BudgetService } from './budget-service.js';

export interface BudgetRoutesOptions {
  readonly budgets: BudgetService;
}

export const budgetRoutes: FastifyPluginAsyncZod<BudgetRoutesOptions> = async (api, { budgets }) => {
  registerEndpoint(api, 'listBudgets', async (request) => ({ budgets: await budgets.list(userOf(request)) }));
  registerEndpoint(api, 'createBudget', async (request) => budgets.create(userOf(request), request.body.name));
  registerEndpoint(api, 'renameBudget', async (request) => budgets.rename(userOf(request), budgetOf(request), request.body.name));
  registerEndpoint(api, 'deleteBudget', async (request) => ({
    budgets: await budgets.delete(userOf(request), budgetOf(request), request.body.confirm),
  }));

  registerEndpoint(api, 'listMembers', async (request) => ({ members: await budgets.members(userOf(request), budgetOf(request)) }));
  registerEndpoint(api, 'updateMember', async (request) => ({
    members: await budgets.changeRole(userOf(request), budgetOf(request), request.params.member, request.body.role),
  }));
  registerEndpoint(api, 'removeMember', async (request) => ({
    members: await budgets.remove(userOf(request), budgetOf(request), request.params.member),
  }));
  registerEndpoint(api, 'setBudgetNotify', async (request) => ({
    budgets: await budgets.setNotify(userOf(request), budgetOf(request), request.body.notify),
  }));
  registerEndpoint(api, 'leaveBudget', async (request) => ({ budgets: await budgets.leave(userOf(request), budgetOf(request)) }));

  registerEndpoint(api, 'listInvitations', async (request) => ({ invitations: await budgets.invitations(budgetOf(request)) }));
  registerEndpoint(api, 'createInvitation', async (request) => budgets.invite(userOf(request), budgetOf(request), request.body.role));
  registerEndpoint(api, 'revokeInvitation', async (request) => ({
    invitations: await budgets.revoke(userOf(request), budgetOf(request), request.params.invitation),
  }));

  registerEndpoint(api, 'sendInvitation', async (request) =>
    budgets.sendInvitation(userOf(request), budgetOf(request), request.params.invitation, request.body.email, request.body.token),
  );

  registerEndpoint(api, 'viewInvitation', async (request) => budgets.view(request.body.token));
  registerEndpoint(api, 'acceptInvitation', async (request) => budgets.accept(userOf(request), request.body.token));
  registerEndpoint(api, 'declineInvitation', async (request) => budgets.decline(userOf(request), request.body.token));
};
