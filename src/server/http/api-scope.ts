/**
 * The /api scope: the token check, the request budgets, and which budget a call acts on with what
 * role (decision 0088), registered once for every call under it, and how routes inside it name the
 * contract's paths.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BUDGET_HEADER } from '../../contract/budgets.js';
import { API_PREFIX, idSchema } from '../../contract/common.js';
import { type EndpointAccess, PERSON } from '../../contract/endpoints.js';
import { type BudgetRole, roleRefusal } from '../../domain/budgets.js';
import { ForbiddenError, InvalidInputError, NotFoundError } from '../../domain/errors.js';
import { type AccessTokenVerifier, type Caller, InvalidTokenError, type SignedInUser } from '../auth/access-token.js';
import { answerInSlices } from './answer-serializer.js';
import { type RateLimits, ROWS_PER_BUDGET_UNIT } from './rate-limit.js';

/** A budget the signed-in user is a member of, as the scope found it (decision 0088). */
export interface BudgetMembership {
  readonly id: string;
  readonly name: string;
  readonly personal: boolean;
  /** The owner columns the budget's rows carry: the user's own (issuer, subject) for their personal budget. */
  readonly owner: Caller;
  readonly role: BudgetRole;
}

/** Finds the budget `id` among the user's; undefined when there is no such budget or they are not its member. */
export type BudgetFinder = (user: SignedInUser, id: string) => Promise<BudgetMembership | undefined>;

/** Who is calling and, for a call about a budget, which one and with what role. */
export interface CallMember {
  readonly user: SignedInUser;
  /** The budget a header or a path named; absent for the personal budget no header named (never looked up) and a PERSON call. */
  readonly budget?: BudgetMembership;
  /** The caller's role in the budget the call acts on; absent for a PERSON call. */
  readonly role?: BudgetRole;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Whose data the call acts on: the owner columns of the budget it names (the signed-in user's own
     * for their personal budget), which every service scopes its rows by.
     */
    caller: Caller | null;
    /** The signed-in person behind the call: request budgets are theirs, whatever budget the call acts on. */
    member: CallMember | null;
    /** Ledger rows this call inserted; charged to the caller's budget as the answer leaves (chargeRowsWritten). */
    rowsWritten: number;
    /** Rows this call read or answered (ledger rows, statement rows); charged the same way (chargeRowsRead). */
    rowsRead: number;
    /** Ledger rows this call's writes added, took away or changed in place (chargeRowsTouched). */
    rowsTouched: number;
  }
  interface FastifyContextConfig {
    /** Who may call the route: its row's roles (endpoint-route.ts); a route without them is refused. */
    access?: EndpointAccess;
    /** Which budget the route acts on: the one its path names, the header's, or none (a PERSON call). */
    budgetPlace?: 'path' | 'header' | 'none';
  }
}

export const NO_SUCH_BUDGET = 'No such budget.';
const NO_ROLE_DECLARED = 'This call says nobody may make it.';
const BAD_BUDGET_HEADER = `${BUDGET_HEADER} must be the id of one of your budgets (GET /api/budgets), or left out for your personal budget.`;

/**
 * The request each signed-in call's caller object came with. Every call gets a caller object of its
 * own, which the services it calls are handed as the owner; work done deep inside in that owner's
 * name (a ledger write) is charged to that call through it, without passing the request down.
 */
const requestOfCaller = new WeakMap<Caller, FastifyRequest>();

/**
 * Runs first for every /api request, before its body is read: a refused token costs one signature
 * check at most, and a caller past their budget is turned away before any work is done for them.
 */
export function registerTokenCheck(api: FastifyInstance, verify: AccessTokenVerifier, limits: RateLimits, findBudget: BudgetFinder): void {
  api.decorateRequest('caller', null);
  api.decorateRequest('member', null);
  api.addHook('onRequest', async (request, reply) => {
    let user: SignedInUser;
    try {
      user = await verify(request.headers.authorization);
    } catch (error) {
      // Only the caller's own fault counts against their address; an unreachable provider does not.
      if (error instanceof InvalidTokenError) await limits.countRefusedToken(request);
      throw error;
    }
    request.member = { user };
    actFor(request, user);
    // The person's budget, whichever budget the call acts on: a guess at a budget id costs them too.
    await limits.countCall(request, reply);
    // An unknown call names no row: the scope's not-found handler answers it.
    if (request.is404) return;
    const { access, budgetPlace } = request.routeOptions.config;
    if (access === undefined) throw new ForbiddenError(NO_ROLE_DECLARED);
    // A PERSON call acts on the signed-in user; a budget's own call (/api/budgets/:id/...) is checked once its path is (below).
    if (budgetPlace !== 'header') return;
    const asked = request.headers[BUDGET_HEADER.toLowerCase()];
    if (asked === undefined) {
      // No header: the caller's personal budget, which is always theirs to own; nothing is looked up.
      request.member = { user, role: 'OWNER' };
      checkRole(access, 'OWNER');
      return;
    }
    // Before the body is read: a guess or a viewer's write costs one lookup at most.
    if (typeof asked !== 'string' || !idSchema.safeParse(asked).success) {
      throw new InvalidInputError('Some fields need attention.', { [BUDGET_HEADER]: BAD_BUDGET_HEADER });
    }
    enterBudget(request, user, access, await findBudget(user, asked));
  });
  // A budget's own call names it in its path, checked (as every path) before this runs.
  api.addHook('preHandler', async (request) => {
    const { access, budgetPlace } = request.routeOptions.config;
    if (request.is404 || budgetPlace !== 'path' || access === undefined) return;
    const { id } = request.params as { readonly id: string };
    const user = userOf(request);
    enterBudget(request, user, access, await findBudget(user, id));
  });
  // A call that inserted, read or answered many rows costs more than one call (decisions 0007 and
  // 0031), charged once its count is known: a 20,000-row read costs what a 20,000-row create does.
  api.decorateRequest('rowsWritten', 0);
  api.decorateRequest('rowsRead', 0);
  api.decorateRequest('rowsTouched', 0);
  // Every answer that carries a ledger is charged for its rows here, whichever call answered it.
  // Then a long answer is checked and written in slices, other users' calls served between them (answer-serializer.ts).
  api.addHook('preSerialization', async (request, reply, payload) => {
    request.rowsRead = Math.max(request.rowsRead, ledgerRowsIn(payload));
    return answerInSlices(request, reply.statusCode, payload);
  });
  api.addHook('onSend', async (request, reply, payload) => {
    // The first 100 rows a write touches come with its call (a Pay, an add, their followers: a block
    // of rows read to place them, issue 34); past them it costs as reading that many more would.
    const touched = Math.max(0, request.rowsTouched - ROWS_PER_BUDGET_UNIT);
    const rows = Math.max(request.rowsWritten, request.rowsRead, touched);
    if (request.caller && rows > 0) await limits.chargeRows(request, reply, rows);
    return payload;
  });
}

/** Makes the call act on the budget found: 404 when there is none (or the user is not its member), 403 when their role may not. */
function enterBudget(request: FastifyRequest, user: SignedInUser, access: EndpointAccess, budget: BudgetMembership | undefined): void {
  if (!budget) throw new NotFoundError(NO_SUCH_BUDGET);
  request.member = { user, budget, role: budget.role };
  actFor(request, budget.owner);
  checkRole(access, budget.role);
}

function checkRole(access: EndpointAccess, role: BudgetRole): void {
  const refusal = access === PERSON ? undefined : roleRefusal(access, role);
  if (refusal) throw refusal;
}

/**
 * The call acts on the owner's rows: a caller object of its own (a verified token's may be shared by
 * the same user's other calls), through which work done in its name is charged to it.
 */
function actFor(request: FastifyRequest, owner: Caller): void {
  request.caller = { issuer: owner.issuer, subject: owner.subject };
  requestOfCaller.set(request.caller, request);
}

/** The rows of the ledger an answer carries (`{ ledger: { transactions } }`), or 0. */
function ledgerRowsIn(payload: unknown): number {
  if (typeof payload !== 'object' || payload === null || !('ledger' in payload)) return 0;
  const { ledger } = payload;
  if (typeof ledger !== 'object' || ledger === null || !('transactions' in ledger)) return 0;
  return Array.isArray(ledger.transactions) ? ledger.transactions.length : 0;
}

/** Records that this call inserted `rows` ledger rows, so it is charged for them (decision 0007). */
export function chargeRowsWritten(request: FastifyRequest, rows: number | undefined): void {
  request.rowsWritten += rows ?? 0;
}

/**
 * Records that this call read or answered `rows` rows (a ledger read, a statement and the ledger
 * it was matched against), so it is charged for the work (decision 0031).
 */
export function chargeRowsRead(request: FastifyRequest, rows: number | undefined): void {
  request.rowsRead += rows ?? 0;
}

/**
 * Records that a ledger write made in this caller's name added, took away or changed `rows` rows,
 * so the call it came with is charged for them past the first 100 (issue 34). A caller that came
 * with no call (a background job) is charged nothing.
 */
export function chargeRowsTouched(caller: Caller, rows: number): void {
  const request = requestOfCaller.get(caller);
  if (request) request.rowsTouched += rows;
}

/** Whose data an /api request acts on: its budget's owner columns; the hook above guarantees there are some. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used outside the /api scope');
  return request.caller;
}

/** The signed-in person behind an /api request, whatever budget it acts on. */
export function userOf(request: FastifyRequest): SignedInUser {
  if (!request.member) throw new Error('userOf used outside the /api scope');
  return request.member.user;
}

/** The signed-in person behind a call that acts on a budget, with their role in it. */
export function memberOf(request: FastifyRequest): { readonly user: SignedInUser; readonly role: BudgetRole } {
  const role = request.member?.role;
  if (!request.member || role === undefined) throw new Error('memberOf used on a call that acts on no budget');
  return { user: request.member.user, role };
}

/**
 * The signed-in person a call's caller object came with (decision 0094): who a write made in its
 * name is made by. Undefined for a caller that came with no call (a background job).
 */
export function actorOfCaller(caller: Caller): SignedInUser | undefined {
  return requestOfCaller.get(caller)?.member?.user;
}

/** The budget a budget's own call (/api/budgets/:id/...) names, with the caller's role in it. */
export function budgetOf(request: FastifyRequest): BudgetMembership {
  const budget = request.member?.budget;
  if (!budget) throw new Error('budgetOf used on a call that names no budget');
  return budget;
}

/** A contract path as a route of the /api scope, which Fastify prefixes with API_PREFIX itself. */
export function routeInApi(contractPath: string): string {
  if (!contractPath.startsWith(`${API_PREFIX}/`)) throw new Error(`not an API path: ${contractPath}`);
  return contractPath.slice(API_PREFIX.length);
}
