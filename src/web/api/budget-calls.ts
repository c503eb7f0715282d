/**
 * Budgets shared with a partner (issue 38, decision 0088): the caller's budgets, a budget's members
 * and invitations, and an invitation opened by its token. Built on the api client's own `request`.
 * The budget a call acts on is named in its path; the invitation's token travels in the body, never
 * in an address.
 */
import { useContext, useMemo } from 'react';
import {
  type Budget,
  budgetSchema,
  budgetsSchema,
  type Invitation,
  invitationDeclinedSchema,
  invitationsSchema,
  type InvitationView,
  invitationViewSchema,
  type Member,
  membersSchema,
  type NewInvitation,
  newInvitationSchema,
} from '../../contract/budgets.js';
import { ENDPOINTS } from '../../contract/common.js';
import type { BudgetRole } from '../../domain/budgets.js';
import { useApiClient } from './api-context.js';
import { BudgetsApiContext } from './budgets-api-context.js';
import { type ApiClient, endpoint } from './api-client.js';

export interface BudgetsApi {
  readonly listBudgets: () => Promise<readonly Budget[]>;
  readonly createBudget: (name: string) => Promise<Budget>;
  readonly listMembers: (budget: string) => Promise<readonly Member[]>;
  readonly changeRole: (budget: string, member: string, role: BudgetRole) => Promise<readonly Member[]>;
  readonly removeMember: (budget: string, member: string) => Promise<readonly Member[]>;
  /** Answers the budgets the caller is still in. */
  readonly leaveBudget: (budget: string) => Promise<readonly Budget[]>;
  readonly listInvitations: (budget: string) => Promise<readonly Invitation[]>;
  readonly createInvitation: (budget: string, role: BudgetRole) => Promise<NewInvitation>;
  readonly revokeInvitation: (budget: string, invitation: string) => Promise<readonly Invitation[]>;
  readonly viewInvitation: (token: string) => Promise<InvitationView>;
  /** Answers the budget joined. */
  readonly acceptInvitation: (token: string) => Promise<Budget>;
  readonly declineInvitation: (token: string) => Promise<void>;
}

/** A call whose path names the budget, and one of its members or invitations after it (`/api/budgets/:id/members/:member`). */
function budgetPath(operation: 'updateMember' | 'removeMember' | 'revokeInvitation', budget: string, second: string) {
  const { method, path } = ENDPOINTS[operation];
  const filled = path.replace(':id', encodeURIComponent(budget)).replace(/:[a-z]+$/, encodeURIComponent(second));
  return { operation, method, path: filled };
}

/** A call whose path names the budget before its last part (`/api/budgets/:id/leave`). */
function innerPath(operation: 'listMembers' | 'leaveBudget' | 'listInvitations' | 'createInvitation', budget: string) {
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
    listInvitations: async (budget) =>
      (await api.request({ ...innerPath('listInvitations', budget), answer: invitationsSchema })).invitations,
    createInvitation: (budget, role) =>
      api.request({ ...innerPath('createInvitation', budget), answer: newInvitationSchema, body: { role } }),
    revokeInvitation: async (budget, invitation) =>
      (await api.request({ ...budgetPath('revokeInvitation', budget, invitation), answer: invitationsSchema })).invitations,
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
