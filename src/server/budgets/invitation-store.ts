/**
 * The budget_invitations table (issue 38, decision 0088): an invitation by the SHA-256 of its token
 * (the token itself is never stored), its role, who made it, until when it can be taken and what
 * became of it. Single use: closing it is one conditional UPDATE, which only one of two calls at once
 * can win.
 */
import type { BudgetRole, InvitationState } from '../../domain/budgets.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import type { BudgetInvitationsTable } from '../db/schema.js';

export interface StoredInvitation {
  readonly id: string;
  readonly budgetId: string;
  readonly role: BudgetRole;
  readonly invitedBy: Caller;
  readonly invitedByName: string | null;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly state: InvitationState;
}

/** An invitation found by its token, with the name of its budget (all the invited person may see before joining). */
export interface InvitationWithBudget extends StoredInvitation {
  readonly budgetName: string;
}

const COLUMNS = [
  'budget_invitations.id as id',
  'budget_invitations.budget_id as budget_id',
  'budget_invitations.role as role',
  'budget_invitations.invited_by_iss as invited_by_iss',
  'budget_invitations.invited_by_sub as invited_by_sub',
  'budget_invitations.invited_by_name as invited_by_name',
  'budget_invitations.created_at as created_at',
  'budget_invitations.expires_at as expires_at',
  'budget_invitations.state as state',
] as const;

/** A row as COLUMNS read it: the table's, without the token's hash and the closing time. */
type InvitationRow = Omit<BudgetInvitationsTable, 'token_hash' | 'closed_at'>;

function invitationOf(row: InvitationRow): StoredInvitation {
  return {
    id: row.id,
    budgetId: row.budget_id,
    role: row.role as BudgetRole,
    invitedBy: { issuer: row.invited_by_iss, subject: row.invited_by_sub },
    invitedByName: row.invited_by_name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    state: row.state as InvitationState,
  };
}

export async function insertInvitation(db: Database, invitation: Omit<StoredInvitation, 'state'>, tokenHash: string): Promise<void> {
  await db
    .insertInto('budget_invitations')
    .values({
      id: invitation.id,
      budget_id: invitation.budgetId,
      token_hash: tokenHash,
      role: invitation.role,
      invited_by_iss: invitation.invitedBy.issuer,
      invited_by_sub: invitation.invitedBy.subject,
      invited_by_name: invitation.invitedByName,
      created_at: invitation.createdAt,
      expires_at: invitation.expiresAt,
      state: 'PENDING',
      closed_at: null,
    })
    .execute();
}

/** The budget's invitations that can still be taken at `now`, oldest first. */
export async function listPendingInvitations(db: Database, budgetId: string, now: Date): Promise<StoredInvitation[]> {
  const rows = await db
    .selectFrom('budget_invitations')
    .select(COLUMNS)
    .where('budget_id', '=', budgetId)
    .where('state', '=', 'PENDING')
    .where('expires_at', '>', now.toISOString())
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(invitationOf);
}

/** The role a budget's still pending invitation is for (expired or not: revoking one closes it all the same). */
export async function pendingInvitationRole(db: Database, budgetId: string, id: string): Promise<BudgetRole | undefined> {
  const row = await db
    .selectFrom('budget_invitations')
    .select('role')
    .where('budget_id', '=', budgetId)
    .where('id', '=', id)
    .where('state', '=', 'PENDING')
    .executeTakeFirst();
  return row && (row.role as BudgetRole);
}

export async function countPendingInvitations(db: Database, budgetId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('budget_invitations')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('budget_id', '=', budgetId)
    .where('state', '=', 'PENDING')
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findInvitationByToken(db: Database, tokenHash: string): Promise<InvitationWithBudget | undefined> {
  const row = await db
    .selectFrom('budget_invitations')
    .innerJoin('budgets', 'budgets.id', 'budget_invitations.budget_id')
    .select([...COLUMNS, 'budgets.name as budget_name'])
    .where('budget_invitations.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && { ...invitationOf(row), budgetName: row.budget_name };
}

/**
 * Closes a pending invitation (accepted, declined or revoked); false when it was no longer pending.
 * `budgetId`, when given, must be the invitation's budget: an owner revokes only their budget's.
 */
export async function closeInvitation(
  db: Database,
  id: string,
  state: Exclude<InvitationState, 'PENDING'>,
  now: Date,
  budgetId?: string,
): Promise<boolean> {
  let update = db
    .updateTable('budget_invitations')
    .set({ state, closed_at: now.toISOString() })
    .where('id', '=', id)
    .where('state', '=', 'PENDING');
  if (budgetId !== undefined) update = update.where('budget_id', '=', budgetId);
  const result = await update.executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** One of the budget's invitations by its id, whatever became of it, with its token's hash: undefined when the budget has none by that id. */
export async function findBudgetInvitation(
  db: Database,
  budgetId: string,
  id: string,
): Promise<(StoredInvitation & { readonly tokenHash: string }) | undefined> {
  const row = await db
    .selectFrom('budget_invitations')
    .select([...COLUMNS, 'budget_invitations.token_hash as token_hash'])
    .where('budget_invitations.budget_id', '=', budgetId)
    .where('budget_invitations.id', '=', id)
    .executeTakeFirst();
  return row && { ...invitationOf(row), tokenHash: row.token_hash };
}
