/**
 * What every call shares: its row of the endpoint table as the page reads it, the paths' helpers,
 * and the field schemas every answer shares (the request fields are in request-fields.ts).
 */
import * as z from 'zod/mini';
import { hasAtMostTwoDecimals } from '../domain/money.js';

/**
 * A dollar amount in an answer: the server only ever sends whole cents, and the page relies on it
 * (dollarsToCents), so an answer with a third decimal is refused at the edge, not deep in a view.
 */
export const dollarsAnswerSchema = /* @__PURE__ */ z
  .number()
  .check(z.refine(hasAtMostTwoDecimals, 'Amounts carry at most two decimal places.'));

/** Every stored row answers with a stable id (a UUID) so the page can name it in later calls. */
export const idSchema = /* @__PURE__ */ z.string({ error: 'Id is required.' }).check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'Id is not valid.'));

/** Every API call's path starts with this; the server's token check and budgets cover all of it. */
export const API_PREFIX = '/api';

/** A route with an `:id` parameter, as the server registers it and the page fills it in. */
export type RouteWithId = `${string}/:id`;

/** The route with the id put in place of `:id`, escaped so any id stays one path segment. */
export function withId(route: RouteWithId, id: string): string {
  return route.replace(':id', encodeURIComponent(id));
}

/*
 * The endpoint table (convention 13, decisions 0036 and 0059): one row per operation of the API,
 * named by its operation, with its method, its path and what the page says when it fails (SPEC.md
 * section 8). The page's api client reads these rows; endpoints.ts gives each the schemas of its
 * request and answer and a one-line summary, which the server registers, the OpenAPI document
 * describes and the tests walk. The rows are here, not in endpoints.ts, so the page's first view
 * carries no request schema (nor a summary it never shows), and not in a module of their own,
 * which rolldown splits the first view's script around (benchmark 4a).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type ApiPath = `/api/${string}`;

/**
 * The same operation at a second path that acts on the primary account: SPEC.md's `/api/ledger/...`
 * for an account's `/api/accounts/:id/ledger/...` (decision 0059). The server answers both alike.
 */
export interface PrimaryAlias {
  /** The row's path without the account; a ledger row's own parameter is `:id` here, as SPEC.md spells it. */
  readonly path: ApiPath;
  /** The alias keeps the message the page has always said for it. */
  readonly failure: string;
}

export interface EndpointRow {
  readonly method: HttpMethod;
  /** Under API_PREFIX; `:id` names the row the call acts on (the account, for an account's ledger). */
  readonly path: ApiPath;
  /** What the page says when the call fails, before the server's own message. */
  readonly failure: string;
  readonly primary?: PrimaryAlias;
}

export const ENDPOINTS = {
  /** Who the API thinks is calling: two sign-ins are two users. For people and scripts. */
  getProfile: { method: 'GET', path: '/api/me', failure: 'Failed to get who is signed in!' },
  /** The caller's time zone (issue 26, decision 0047); answers the profile as getProfile does. */
  updateProfile: { method: 'PATCH', path: '/api/me', failure: 'Failed to save your time zone!' },

  /** A view's first reads in one answer (issue 35, decision 0128): the document's first script sends them so. */
  getFirstReads: { method: 'GET', path: '/api/first-reads', failure: "Failed to get the view's data!" },

  getDeposits: { method: 'GET', path: '/api/deposits/retrieve-deposits', failure: 'Failed to get deposits!' },
  addDeposit: { method: 'POST', path: '/api/deposits/add-deposit', failure: 'Failed to add deposit!' },
  updateDeposit: { method: 'PUT', path: '/api/deposits/:id', failure: 'Failed to update deposit!' },
  deleteDeposit: { method: 'DELETE', path: '/api/deposits/:id', failure: 'Failed to delete deposit!' },

  getExpenses: { method: 'GET', path: '/api/expenses/retrieve-expenses', failure: 'Failed to get expenses!' },
  addExpense: { method: 'POST', path: '/api/expenses/add-expense', failure: 'Failed to add expense!' },
  updateExpense: { method: 'PUT', path: '/api/expenses/:id', failure: 'Failed to update expense!' },
  deleteExpense: { method: 'DELETE', path: '/api/expenses/:id', failure: 'Failed to delete expense!' },

  // An account's ledger (decision 0042): each call at /api/accounts/:id/ledger, and for the primary
  // account at SPEC.md's /api/ledger path too. One row, two paths (decision 0059).
  getLedger: {
    method: 'GET',
    path: '/api/accounts/:id/ledger/retrieve-ledger',
    failure: "Failed to get the account's ledger!",
    primary: { path: '/api/ledger/retrieve-ledger', failure: 'Failed to get ledger!' },
  },
  createLedger: {
    method: 'POST',
    path: '/api/accounts/:id/ledger/create-ledger',
    failure: "Failed to create the account's ledger!",
    primary: { path: '/api/ledger/create-ledger', failure: 'Failed to create ledger!' },
  },
  /** For scripts: the page computes the same from the ledger it holds (decision 0034). */
  getForecast: {
    method: 'GET',
    path: '/api/accounts/:id/ledger/forecast',
    failure: "Failed to get the account's forecast!",
    primary: { path: '/api/ledger/forecast', failure: 'Failed to get forecast!' },
  },
  extendLedger: {
    method: 'POST',
    path: '/api/accounts/:id/ledger/extend-ledger',
    failure: "Failed to extend the account's ledger!",
    primary: { path: '/api/ledger/extend-ledger', failure: 'Failed to extend ledger!' },
  },
  addTransaction: {
    method: 'POST',
    path: '/api/accounts/:id/ledger/add-transaction',
    failure: 'Failed to add transaction to the account!',
    primary: { path: '/api/ledger/add-transaction', failure: 'Failed to add transaction!' },
  },
  /** An edit or a status move (pay, clear); the body names the row. */
  updateTransaction: {
    method: 'PATCH',
    path: '/api/accounts/:id/ledger/update-transaction',
    failure: "Failed to update the account's transaction!",
    primary: { path: '/api/ledger/update-transaction', failure: 'Failed to update transaction!' },
  },
  /** `:transaction` names the row, `:id` its account; at the alias, `:id` names the row. */
  deleteTransaction: {
    method: 'DELETE',
    path: '/api/accounts/:id/ledger/transactions/:transaction',
    failure: "Failed to delete the account's transaction!",
    primary: { path: '/api/ledger/transactions/:id', failure: 'Failed to delete transaction!' },
  },

  previewStatement: {
    method: 'POST',
    path: '/api/accounts/:id/ledger/statements/preview',
    failure: 'Failed to read the statement for the account!',
    primary: { path: '/api/ledger/statements/preview', failure: 'Failed to read statement!' },
  },
  importStatement: {
    method: 'POST',
    path: '/api/accounts/:id/ledger/statements/import',
    failure: 'Failed to import the statement into the account!',
    primary: { path: '/api/ledger/statements/import', failure: 'Failed to import statement!' },
  },

  /** The ledger as the register shows it, one CSV row per transaction. */
  exportLedgerCsv: {
    method: 'GET',
    path: '/api/accounts/:id/ledger/export.csv',
    failure: "Failed to export the account's ledger!",
    primary: { path: '/api/ledger/export.csv', failure: 'Failed to export the ledger!' },
  },
  exportYourData: { method: 'GET', path: '/api/account/export', failure: 'Failed to download your data!' },
  restoreYourData: { method: 'POST', path: '/api/account/import', failure: 'Failed to restore your data!' },
  /** Every row the caller owns. */
  deleteYourData: { method: 'DELETE', path: '/api/account', failure: 'Failed to delete your data!' },

  /** Takes back a write whose answer carried UNDO_HEADER, and answers what that write answered (decision 0040). */
  undo: { method: 'POST', path: '/api/undo', failure: 'Failed to undo!' },

  // Accounts (issue 25, decision 0042): where money is, each with its own ledger (above).
  listAccounts: { method: 'GET', path: '/api/accounts', failure: 'Failed to get accounts!' },
  addAccount: { method: 'POST', path: '/api/accounts', failure: 'Failed to add account!' },
  /** Renames it and/or makes it the primary account. */
  updateAccount: { method: 'PATCH', path: '/api/accounts/:id', failure: 'Failed to update account!' },
  /** Deletes it and its ledger; the body confirms with its name. */
  removeAccount: { method: 'DELETE', path: '/api/accounts/:id', failure: 'Failed to delete account!' },

  /** Money moved between two of the caller's accounts: a linked pair of rows (decision 0043). Answers From's ledger. */
  addTransfer: { method: 'POST', path: '/api/transfers', failure: 'Failed to add transfer!' },

  // Notifications (issue 26, decision 0051): the rules, the hour, and where messages go.
  getNotifications: { method: 'GET', path: '/api/notifications', failure: 'Failed to get notification settings!' },
  updateNotifications: { method: 'PUT', path: '/api/notifications', failure: 'Failed to save notification settings!' },
  addNotificationChannel: { method: 'POST', path: '/api/notifications/channels', failure: 'Failed to add the channel!' },
  removeNotificationChannel: { method: 'DELETE', path: '/api/notifications/channels/:id', failure: 'Failed to remove the channel!' },
  /** Sends the test message now and answers what happened. */
  testNotificationChannel: { method: 'POST', path: '/api/notifications/channels/:id/test', failure: 'Failed to send a test!' },
  /** The VAPID public key the page subscribes with. */
  getPushKey: { method: 'GET', path: '/api/notifications/push-key', failure: 'Failed to get the push key!' },

  // Can I afford it? and everyday spending (issue 36, decisions 0075 and 0076).
  /** The forecast of each account touched, before and after purchases that are never stored. */
  whatIf: { method: 'POST', path: '/api/what-if', failure: 'Failed to check the purchase!' },
  getEverydaySuggestion: { method: 'GET', path: '/api/everyday-spending/suggestion', failure: 'Failed to suggest everyday spending!' },

  // Bank sync (issue 37, decision 0082): SimpleFIN connections, their accounts' links, and Sync now.
  /** Claims a Setup Token and lists the bridge's accounts; stores the Access URL sealed. */
  connectBank: { method: 'POST', path: '/api/bank-connections', failure: 'Failed to connect the bank!' },
  listBankConnections: { method: 'GET', path: '/api/bank-connections', failure: 'Failed to get bank connections!' },
  /** Links a bridge account to an account (or a new one), or unlinks it. */
  linkBankAccount: {
    method: 'PUT',
    path: '/api/bank-connections/:id/accounts/:remoteId',
    failure: 'Failed to link the bank account!',
  },
  /** "Sync now": at most once a minute per connection. */
  syncBankConnection: { method: 'POST', path: '/api/bank-connections/:id/sync', failure: 'Failed to sync with the bank!' },
  /** Deletes the connection and its sealed secret at once; the ledgers keep their rows. */
  disconnectBank: { method: 'DELETE', path: '/api/bank-connections/:id', failure: 'Failed to disconnect the bank!' },

  // Budgets shared with a partner (issue 38, decision 0088). Every call above acts on the budget the
  // Leftover-Budget header names (absent: the personal one); these act on the budget their path names.
  listBudgets: { method: 'GET', path: '/api/budgets', failure: 'Failed to get your budgets!' },
  createBudget: { method: 'POST', path: '/api/budgets', failure: 'Failed to create the budget!' },
  renameBudget: { method: 'PATCH', path: '/api/budgets/:id', failure: 'Failed to rename the budget!' },
  /** The body confirms with its name; never the personal budget. */
  deleteBudget: { method: 'DELETE', path: '/api/budgets/:id', failure: 'Failed to delete the budget!' },
  listMembers: { method: 'GET', path: '/api/budgets/:id/members', failure: "Failed to get the budget's members!" },
  updateMember: { method: 'PATCH', path: '/api/budgets/:id/members/:member', failure: "Failed to change the member's role!" },
  removeMember: { method: 'DELETE', path: '/api/budgets/:id/members/:member', failure: 'Failed to remove the member!' },
  leaveBudget: { method: 'POST', path: '/api/budgets/:id/leave', failure: 'Failed to leave the budget!' },
  /** The caller's own choice of being told of this budget (decision 0099). */
  setBudgetNotify: {
    method: 'PUT',
    path: '/api/budgets/:id/notifications',
    failure: "Failed to change this budget's notifications!",
  },
  /** Who did what, newest first, a page at a time (decision 0094). */
  listActivity: { method: 'GET', path: '/api/budgets/:id/activity', failure: "Failed to get the budget's activity!" },
  listInvitations: { method: 'GET', path: '/api/budgets/:id/invitations', failure: 'Failed to get the invitations!' },
  createInvitation: { method: 'POST', path: '/api/budgets/:id/invitations', failure: 'Failed to create the invitation!' },
  revokeInvitation: {
    method: 'DELETE',
    path: '/api/budgets/:id/invitations/:invitation',
    failure: 'Failed to revoke the invitation!',
  },
  /** Mails a pending invitation's link to an address (decision 0105): only where the operator set up SMTP_URL. */
  sendInvitation: {
    method: 'POST',
    path: '/api/budgets/:id/invitations/:invitation/send',
    failure: 'Failed to send the invitation!',
  },
  // An invitation by its token, for the person invited: the token travels in the body, never in an address.
  viewInvitation: { method: 'POST', path: '/api/invitations/view', failure: 'Failed to open the invitation!' },
  acceptInvitation: { method: 'POST', path: '/api/invitations/accept', failure: 'Failed to join the budget!' },
  declineInvitation: { method: 'POST', path: '/api/invitations/decline', failure: 'Failed to decline the invitation!' },

  // Changes seen live (issue 38 point 6, decision 0096): a stream of the budget's changes by other members.
  streamChanges: { method: 'GET', path: '/api/events', failure: 'Failed to follow changes to the budget!' },
} as const satisfies Record<string, EndpointRow>;

/**
 * The header of a write's answer that names the token undoing it (POST /api/undo, decision 0040):
 * a row write, an Extend, a statement import, or a write of a deposit or an expense.
 */
export const UNDO_HEADER = 'leftover-undo';

export type ApiOperation = keyof typeof ENDPOINTS;

/** The operations with an alias on the primary account: an account's ledger calls. */
export type AliasedOperation = {
  [Operation in ApiOperation]: (typeof ENDPOINTS)[Operation] extends { readonly primary: PrimaryAlias } ? Operation : never;
}[ApiOperation];

/** An alias's name, its operationId in the OpenAPI document: `getLedgerPrimary` is GET /api/ledger/retrieve-ledger. */
export type PrimaryOperation = `${AliasedOperation}Primary`;

/** Every call by its OpenAPI operationId: a row's operation at its own path, `<operation>Primary` at its alias. */
export type OperationId = ApiOperation | PrimaryOperation;

const PRIMARY_SUFFIX = 'Primary';

export function primaryOperationId(operation: AliasedOperation): PrimaryOperation {
  return `${operation}${PRIMARY_SUFFIX}`;
}

/** What the page says when the call an operationId names fails: its row's message, or its alias's. */
export function failureOf(operationId: OperationId): string {
  const own: EndpointRow | undefined = ENDPOINTS[operationId as ApiOperation];
  const alias: PrimaryAlias | undefined = ENDPOINTS[operationId.slice(0, -PRIMARY_SUFFIX.length) as AliasedOperation]?.primary;
  // Every OperationId names a row or an alias, so one of the two is found.
  return (own ?? alias)?.failure ?? '';
}

/** Where a call goes for the primary account: its alias, when it has one; its own path otherwise. */
export type PrimaryPathOf<Operation extends ApiOperation> = (typeof ENDPOINTS)[Operation] extends {
  readonly primary: { readonly path: infer Path };
}
  ? Path
  : (typeof ENDPOINTS)[Operation]['path'];

/**
 * Rows' paths under a resource's own names (DEPOSITS_PATHS and the like), for tests and scripts, as
 * SPEC.md spells them: a ledger call's is its alias on the primary account (`/api/ledger/...`).
 * Called as a pure call, so a bundle that reads none of them drops the call whole: an object of
 * `ENDPOINTS.x.path` reads would leave the reads behind in the page's first view (benchmark 4a).
 */
export function pathsOf<const Names extends Record<string, ApiOperation>>(
  names: Names,
): { readonly [Name in keyof Names]: PrimaryPathOf<Names[Name]> } {
  const paths: Record<string, string> = {};
  for (const [name, operation] of Object.entries(names)) {
    const row: EndpointRow = ENDPOINTS[operation];
    paths[name] = (row.primary ?? row).path;
  }
  return paths as { readonly [Name in keyof Names]: PrimaryPathOf<Names[Name]> };
}

/** The rows' own paths (a ledger call's under `/api/accounts/:id/ledger`), for tests and scripts; pure, as pathsOf. */
export function accountPathsOf<const Names extends Record<string, ApiOperation>>(
  names: Names,
): { readonly [Name in keyof Names]: (typeof ENDPOINTS)[Names[Name]]['path'] } {
  const paths: Record<string, string> = {};
  for (const [name, operation] of Object.entries(names)) paths[name] = ENDPOINTS[operation].path;
  return paths as { readonly [Name in keyof Names]: (typeof ENDPOINTS)[Names[Name]]['path'] };
}
