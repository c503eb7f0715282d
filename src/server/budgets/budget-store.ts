/**
 * The budgets and budget_members tables (issue 38, decision 0088): which budgets there are, the owner
 * columns each one's rows carry, and who is in each with what role. Every function takes the handle
 * to run on, so a service can run several in one transaction under a lock.
 */
import crypto from 'node:crypto';
import { type BudgetRole, PERSONAL_BUDGET_NAME } from '../../domain/budgets.js';
import { byCodeUnits, compareNames } from '../../domain/names.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';

/**
 * The issuer of a shared budget's owner columns: (BUDGET_ISSUER, the budget's id). Not a URL, so it
 * can never be a token's issuer (the configured issuer is an http or https URL): no user's own rows
 * and no budget's can ever share owner columns.
 */
export const BUDGET_ISSUER = 'urn:leftover:budget';

/** A budget a user is in, as stored. */
export interface StoredMembership {
  readonly id: string;
  readonly name: string;
  readonly personal: boolean;
  readonly owner: Caller;
  readonly role: BudgetRole;
  readonly displayName: string | null;
  /** The member's own choice: their day's messages cover this budget (decision 0099). */
  readonly notify: boolean;
}

/** A member of a budget, as stored. */
export interface StoredMember {
  readonly id: string;
  readonly user: Caller;
  readonly role: BudgetRole;
  readonly displayName: string | null;
}

const MEMBERSHIP_COLUMNS = [
  'budgets.id as id',
  'budgets.name as name',
  'budgets.personal as personal',
  'budgets.owner_iss as owner_iss',
  'budgets.owner_sub as owner_sub',
  'budget_members.role as role',
  'budget_members.display_name as display_name',
  'budget_members.notify as notify',
] as const;

interface MembershipRow {
  id: string;
  name: string;
  personal: number | string;
  owner_iss: string;
  owner_sub: string;
  role: string;
  display_name: string | null;
  notify: number | string;
}

function membershipOf(row: MembershipRow): StoredMembership {
  return {
    id: row.id,
    name: row.name,
    personal: Number(row.personal) === 1,
    owner: { issuer: row.owner_iss, subject: row.owner_sub },
    role: row.role as BudgetRole,
    displayName: row.display_name,
    notify: Number(row.notify) === 1,
  };
}

/** The budget `id` if `user` is its member: one query, whatever the budget. */
export async function findMembership(db: Database, user: Caller, id: string): Promise<StoredMembership | undefined> {
  const row = await db
    .selectFrom('budgets')
    .innerJoin('budget_members', 'budget_members.budget_id', 'budgets.id')
    .select(MEMBERSHIP_COLUMNS)
    .where('budgets.id', '=', id)
    .where('budget_members.member_iss', '=', user.issuer)
    .where('budget_members.member_sub', '=', user.subject)
    .executeTakeFirst();
  return row && membershipOf(row);
}

/** Every budget `user` is in: the personal one first, then by name (decision 0006), then by id. */
export async function listMemberships(db: Database, user: Caller): Promise<StoredMembership[]> {
  const rows = await db
    .selectFrom('budgets')
    .innerJoin('budget_members', 'budget_members.budget_id', 'budgets.id')
    .select(MEMBERSHIP_COLUMNS)
    .where('budget_members.member_iss', '=', user.issuer)
    .where('budget_members.member_sub', '=', user.subject)
    .execute();
  return rows
    .map(membershipOf)
    .sort((a, b) => Number(b.personal) - Number(a.personal) || compareNames(a.name, b.name) || byCodeUnits(a.id, b.id));
}

/**
 * What a person's notifications cover (decisions 0095, 0099): their personal budget unless they turned
 * it off (a person who never listed their budgets has no membership row yet: on, as for everyone), and
 * the budgets shared with others they are in and did not turn off, by name and owner columns.
 */
export async function notifiedBudgetsOf(
  db: Database,
  user: Caller,
): Promise<{ readonly personal: boolean; readonly shared: { readonly name: string; readonly owner: Caller }[] }> {
  const memberships = await listMemberships(db, user);
  return {
    personal: memberships.find((budget) => budget.personal)?.notify ?? true,
    shared: memberships.filter((budget) => !budget.personal && budget.notify).map(({ name, owner }) => ({ name, owner })),
  };
}

/** Turns a member's messages about one budget on or off: their own row only. */
export async function setMemberNotify(db: Database, budgetId: string, user: Caller, notify: boolean): Promise<void> {
  await db
    .updateTable('budget_members')
    .set({ notify: notify ? 1 : 0 })
    .where('budget_id', '=', budgetId)
    .where('member_iss', '=', user.issuer)
    .where('member_sub', '=', user.subject)
    .execute();
}

export async function countMemberships(db: Database, user: Caller): Promise<number> {
  const row = await db
    .selectFrom('budget_members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('member_iss', '=', user.issuer)
    .where('member_sub', '=', user.subject)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The user's personal budget, made the first time it is needed (decision 0088): its owner columns
 * are the user's own, so every row they had before budgets is in it. Two calls at once make one:
 * the owner columns are unique, and the second insert does nothing.
 */
export async function ensurePersonalBudget(db: Database, user: Caller, displayName: string | null, now: Date): Promise<void> {
  await db
    .insertInto('budgets')
    .values({
      id: crypto.randomUUID(),
      owner_iss: user.issuer,
      owner_sub: user.subject,
      name: PERSONAL_BUDGET_NAME,
      personal: 1,
      created_at: now.toISOString(),
    })
    .onConflict((conflict) => conflict.columns(['owner_iss', 'owner_sub']).doNothing())
    .execute();
  const { id } = await db
    .selectFrom('budgets')
    .select('id')
    .where('owner_iss', '=', user.issuer)
    .where('owner_sub', '=', user.subject)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('budget_members')
    .values({
      id: crypto.randomUUID(),
      budget_id: id,
      member_iss: user.issuer,
      member_sub: user.subject,
      role: 'OWNER',
      display_name: displayName,
      joined_at: now.toISOString(),
    })
    .onConflict((conflict) => conflict.columns(['member_iss', 'member_sub', 'budget_id']).doNothing())
    .execute();
}

/** Stores a budget made to share; its rows will carry (BUDGET_ISSUER, id). */
export async function insertBudget(db: Database, id: string, name: string, now: Date): Promise<Caller> {
  const owner = { issuer: BUDGET_ISSUER, subject: id };
  await db
    .insertInto('budgets')
    .values({ id, owner_iss: owner.issuer, owner_sub: owner.subject, name, personal: 0, created_at: now.toISOString() })
    .execute();
  return owner;
}

export async function insertMember(
  db: Database,
  budgetId: string,
  user: Caller,
  role: BudgetRole,
  displayName: string | null,
  now: Date,
): Promise<void> {
  await db
    .insertInto('budget_members')
    .values({
      id: crypto.randomUUID(),
      budget_id: budgetId,
      member_iss: user.issuer,
      member_sub: user.subject,
      role,
      display_name: displayName,
      joined_at: now.toISOString(),
    })
    .execute();
}

export async function renameBudget(db: Database, id: string, name: string): Promise<void> {
  await db.updateTable('budgets').set({ name }).where('id', '=', id).execute();
}

/** Removes the budget, its members and its invitations. */
export async function deleteBudget(db: Database, id: string): Promise<void> {
  await db.deleteFrom('budget_invitations').where('budget_id', '=', id).execute();
  await db.deleteFrom('budget_members').where('budget_id', '=', id).execute();
  await db.deleteFrom('budgets').where('id', '=', id).execute();
}

export async function listMembers(db: Database, budgetId: string): Promise<StoredMember[]> {
  const rows = await db
    .selectFrom('budget_members')
    .select(['id', 'member_iss', 'member_sub', 'role', 'display_name'])
    .where('budget_id', '=', budgetId)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    user: { issuer: row.member_iss, subject: row.member_sub },
    role: row.role as BudgetRole,
    displayName: row.display_name,
  }));
}

/**
 * The display names of the members of the budget whose rows carry `owner`'s columns (a personal
 * budget's user, or a shared budget's own), for answers that name who made something (decision 0106).
 */
export async function memberNamesOf(db: Database, owner: Caller): Promise<{ readonly user: Caller; readonly name: string | null }[]> {
  const rows = await db
    .selectFrom('budget_members')
    .innerJoin('budgets', 'budgets.id', 'budget_members.budget_id')
    .select(['budget_members.member_iss as member_iss', 'budget_members.member_sub as member_sub', 'budget_members.display_name as name'])
    .where('budgets.owner_iss', '=', owner.issuer)
    .where('budgets.owner_sub', '=', owner.subject)
    .execute();
  return rows.map((row) => ({ user: { issuer: row.member_iss, subject: row.member_sub }, name: row.name }));
}

export async function countMembers(db: Database, budgetId: string, role?: BudgetRole): Promise<number> {
  let query = db
    .selectFrom('budget_members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('budget_id', '=', budgetId);
  if (role !== undefined) query = query.where('role', '=', role);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

export async function setMemberRole(db: Database, budgetId: string, memberId: string, role: BudgetRole): Promise<void> {
  await db.updateTable('budget_members').set({ role }).where('budget_id', '=', budgetId).where('id', '=', memberId).execute();
}

export async function deleteMember(db: Database, budgetId: string, memberId: string): Promise<void> {
  await db.deleteFrom('budget_members').where('budget_id', '=', budgetId).where('id', '=', memberId).execute();
}

/** Keeps the name the other members see a member by up to date with their sign-in. */
export async function rememberDisplayName(db: Database, budgetId: string, user: Caller, displayName: string): Promise<void> {
  await db
    .updateTable('budget_members')
    .set({ display_name: displayName })
    .where('budget_id', '=', budgetId)
    .where('member_iss', '=', user.issuer)
    .where('member_sub', '=', user.subject)
    .execute();
}
