/**
 * Budgets shared with a partner (issue 38, decision 0088): the caller's budgets, a budget's members
 * and invitations, and an invitation opened by its token. Built on the api client's own `request`.
 * The budget a call acts on is named in its path; the invitation's token travels in the body, never
 * in an address.
 */
import { useContext, useMemo } from 'react';
import {
  budgetSchema,
  budgetsSchema,
  invitationDeclinedSchema,
  invitationSentSchema,
  invitationsSchema,
  invitationViewSchema,
  membersSchema,
  newInvitationSchema,
} from '../../contract/budgets.js';
import { ENDPOINTS } from '../../contract/common.js';
import { useApiClient } from './api-context.js';
import { type ApiClient, endpoint } from './api-client.js';
import { BudgetsApiContext, type BudgetsApi } from './budgets-api-context.js';

/** A call whose path names the budget, and one of its members or invitations after it (`/api/budgets/:id/members/:member`). */
function budgetPath(operation: 'updateMember' | 'removeMember' | 'revokeInvitation', budget: string, second: string) {
  const { method, path } = ENDPOINTS[operation];
  const filled = path.replace(':id', encodeURIComponent(budget)).replace(/:[a-z]+$/, encodeURIComponent(second));
  return { operation, method, path: filled };
}

/** POST /api/budgets/:id/invitations/:invitation/send. */
function sendPath(budget: string, invitation: string) {
  const { method, path } = ENDPOINTS.sendInvitation;
  const filled = path.replace(':id', encodeURIComponent(budget)).replace(':invitation', encodeURIComponent(invitation));
  return { operation: 'sendInvitation' as const, method, path: filled };
}

/** A call whose path names the budget before its last part (`/api/budgets/:id/leave`). */
function innerPath(operation: 'listMembers' | 'leaveBudget' | 'setBudgetNotify' | 'listInvitations' | 'createInvitation', budget: string) {
  const { method, path } = ENDPOINTS[operation];
  return { operation, method, path: path.replace(':id', encodeURIComponent(budget)) };
}

export function budgetsApi(api: ApiClient): BudgetsApi {
  return {
    listBudgets: async () => (await api.request({ ...endpoint('listBudgets'), answer: budgetsSchema })).budgets,
    createBudget: (name) => api.request({ ...endpoint('createBudget'), answer: budgetSchema, body: { name } }),
    listMembers: async (budget) => (await api.request({ ...innerPath('listMembers', budget), answer: membersSchema })).members,
    changeRole: async (budget, member, role) =>
      (await api.request({ ...budgetPath('updateMember', budget, member), answer: membersSchema, body: { role } })).members,
    removeMember: async (budget, member) =>
      (await api.request({ ...budgetPath('removeMember', budget, member), answer: membersSchema })).members,
    leaveBudget: async (budget) => (await api.request({ ...innerPath('leaveBudget', budget), answer: budgetsSchema })).budgets,
    setBudgetNotify: async (budget, notify) =>
      (await api.request({ ...innerPath('setBudgetNotify', budget), answer: budgetsSchema, body: { notify } })).budgets,
    listInvitations: async (budget) =>
      (await api.request({ ...innerPath('listInvitations', budget), answer: invitationsSchema })).invitations,
    createInvitation: (budget, role) =>
      api.request({ ...innerPath('createInvitation', budget), answer: newInvitationSchema, body: { role } }),
    revokeInvitation: async (budget, invitation) =>
      (await api.request({ ...budgetPath('revokeInvitation', budget, invitation), answer: invitationsSchema })).invitations,
    sendInvitation: async (budget, invitation, body) =>
      (await api.request({ ...sendPath(budget, invitation), answer: invitationSentSchema, body })).sentTo,
    viewInvitation: (token) => api.request({ ...endpoint('viewInvitation'), answer: invitationViewSchema, body: { token } }),
    acceptInvitation: (token) => api.request({ ...endpoint('acceptInvitation'), answer: budgetSchema, body: { token } }),
    declineInvitation: async (token) => {
      await api.request({ ...endpoint('declineInvitation'), answer: invitationDeclinedSchema, body: { token } });
    },
  };
}

export function useBudgetsApi(): BudgetsApi {
  const api = useApiClient();
  const given = useContext(BudgetsApiContext);
  return useMemo(() => given ?? budgetsApi(api), [given, api]);
}
