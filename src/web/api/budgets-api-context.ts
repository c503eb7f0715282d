/**
 * Where component tests hand the budgets' parts their own calls. Apart from budget-calls.ts: the
 * header's list (use-budgets.ts) is in the first view and loads the calls' code only when it asks.
 */
import { createContext } from 'react';
import type { Budget, Invitation, InvitationView, Member, NewInvitation } from '../../contract/budgets.js';
import type { SendInvitationRequest } from '../../contract/budget-requests.js';
import type { BudgetRole } from '../../domain/budgets.js';

/** The budgets' calls (budget-calls.ts builds them on the api client). Here, so this module imports nothing of the calls' code. */
export interface BudgetsApi {
  readonly listBudgets: () => Promise<readonly Budget[]>;
  readonly createBudget: (name: string) => Promise<Budget>;
  readonly listMembers: (budget: string) => Promise<readonly Member[]>;
  readonly changeRole: (budget: string, member: string, role: BudgetRole) => Promise<readonly Member[]>;
  readonly removeMember: (budget: string, member: string) => Promise<readonly Member[]>;
  /** Answers the budgets the caller is still in. */
  readonly leaveBudget: (budget: string) => Promise<readonly Budget[]>;
  /** The caller's own choice of being told of this budget (decision 0099); answers their budgets. */
  readonly setBudgetNotify: (budget: string, notify: boolean) => Promise<readonly Budget[]>;
  readonly listInvitations: (budget: string) => Promise<readonly Invitation[]>;
  readonly createInvitation: (budget: string, role: BudgetRole) => Promise<NewInvitation>;
  readonly revokeInvitation: (budget: string, invitation: string) => Promise<readonly Invitation[]>;
  /** Mails a pending invitation's link (decision 0105); answers the address as the server read it. */
  readonly sendInvitation: (budget: string, invitation: string, request: SendInvitationRequest) => Promise<string>;
  readonly viewInvitation: (token: string) => Promise<InvitationView>;
  /** Answers the budget joined. */
  readonly acceptInvitation: (token: string) => Promise<Budget>;
  readonly declineInvitation: (token: string) => Promise<void>;
}

export const BudgetsApiContext = createContext<BudgetsApi | null>(null);

/** Component tests hand the budgets' parts their own calls; the page builds them from the api client. */
export const BudgetsApiProvider = BudgetsApiContext.Provider;
