/**
 * Budgets shared with a partner (issue 38, decision 0088): who may do what in a budget, how many
 * budgets and members there may be, and when an invitation can still be taken. Pure rules: the
 * server asks them inside its transactions and turns their refusals into answers.
 */
import { ConflictError, ForbiddenError, GoneError } from './errors.js';
import { formatCount } from './limits.js';

/** OWNER: everything; EDITOR: every change to the budget's data; VIEWER: reads only. */
export const BUDGET_ROLES = ['OWNER', 'EDITOR', 'VIEWER'] as const;
export type BudgetRole = (typeof BUDGET_ROLES)[number];

/** Every role: a call that only reads the budget. */
export const READERS: readonly BudgetRole[] = ['OWNER', 'EDITOR', 'VIEWER'];
/** A change to the budget's data. */
export const WRITERS: readonly BudgetRole[] = ['OWNER', 'EDITOR'];
/** Members, invitations, export, restore, deleting: the owner's. */
export const OWNERS: readonly BudgetRole[] = ['OWNER'];

/** A user is in at most this many budgets, their personal one included. */
export const MAX_BUDGETS_PER_USER = 10;
/** A budget has at most this many members, pending invitations counted as members (YNAB Together's 6). */
export const MAX_MEMBERS_PER_BUDGET = 6;
export const MAX_BUDGET_NAME_LENGTH = 50;
/** What a personal budget is called until its owner renames it. */
export const PERSONAL_BUDGET_NAME = 'Personal';
/** An invitation can be taken for 7 days on the app's clock. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const VIEWER_CANNOT_CHANGE = 'You can view this budget but not change it.';
export const OWNERS_ONLY = 'Only an owner of this budget can do this.';
/** Undo of a change made before activity named its maker (decision 0094): it was the owner's. */
export const OWNERS_ONLY_UNDO = 'Only an owner of this budget can undo this.';

/** The refusal of a call that accepts `accepted` to a member of role `role`, or undefined when it is allowed. */
export function roleRefusal(accepted: readonly BudgetRole[], role: BudgetRole): ForbiddenError | undefined {
  if (accepted.includes(role)) return undefined;
  // A viewer is told they cannot change the budget whenever an editor could have made the call.
  return new ForbiddenError(role === 'VIEWER' && accepted.includes('EDITOR') ? VIEWER_CANNOT_CHANGE : OWNERS_ONLY);
}

/** Refuses a budget past the user's limit; `total` is how many they would be in with it, their personal one included. */
export function checkBudgetCount(total: number): ConflictError | undefined {
  if (total <= MAX_BUDGETS_PER_USER) return undefined;
  return new ConflictError(`You can be in at most ${formatCount(MAX_BUDGETS_PER_USER)} budgets. Leave or delete one first.`);
}

/** Refuses a member or an invitation past the budget's limit; `total` is members and pending invitations with it. */
export function checkMemberCount(total: number): ConflictError | undefined {
  if (total <= MAX_MEMBERS_PER_BUDGET) return undefined;
  return new ConflictError(
    `A budget has at most ${formatCount(MAX_MEMBERS_PER_BUDGET)} members, pending invitations included. Revoke an invitation or remove a member first.`,
  );
}

/**
 * Refuses a change that would leave the budget without an owner: the last owner leaving, being
 * removed or becoming an editor or a viewer. `owners` counts the owners now; `losing` says whether
 * the change takes one away.
 */
export function checkOwnerLeft(owners: number, losing: boolean): ConflictError | undefined {
  if (!losing || owners > 1) return undefined;
  return new ConflictError('A budget needs an owner: make another member an owner first, or delete the budget.');
}

/**
 * "Delete everything" leaves the person's shared budgets (issue 38 point 7, decision 0095), so it
 * refuses while they are the last owner of one that others are still in, naming each.
 */
export function lastOwnerRefusal(budgetNames: readonly string[]): ConflictError | undefined {
  if (budgetNames.length === 0) return undefined;
  const names = budgetNames.join(', ');
  const one = budgetNames.length === 1;
  return new ConflictError(
    `You are the last owner of ${names}, which others are still in: make another member an owner of ${one ? 'it' : 'each'}, or delete ${one ? 'it' : 'them'}, then delete everything.`,
  );
}

/** Where an invitation is: open until it is accepted, declined or revoked, or it expires. */
export type InvitationState = 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'REVOKED';

export const INVITATION_USED = 'This invitation has already been used.';

/** The refusal of taking (viewing, accepting, declining) an invitation in this state at `now`, or undefined. */
export function invitationRefusal(state: InvitationState, expiresAt: Date, now: Date): GoneError | undefined {
  if (state === 'ACCEPTED' || state === 'DECLINED') return new GoneError(INVITATION_USED);
  if (state === 'REVOKED') return new GoneError('This invitation was revoked by an owner of the budget.');
  if (now.getTime() >= expiresAt.getTime()) return new GoneError('This invitation has expired. Ask for a new one.');
  return undefined;
}
