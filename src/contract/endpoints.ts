/**
 * The endpoint table's schemas (decision 0036): for each row of ENDPOINTS (common.ts), what it does
 * in one line (decision 0059), what its request may carry and what it answers. The server
 * registers each call from its row and these (the OpenAPI document is generated from them), and
 * the API tests walk them. The page never imports this module: its first view would carry every
 * request schema (benchmark 4a). Its dialogs import the request schemas they check forms with
 * themselves.
 */
import * as z from 'zod/mini';
import { RESTORE_BODY_LIMIT_BYTES, yourDataCountsSchema, yourDataExportSchema } from './your-data.js';
import { activityQuerySchema, activitySchema } from './activity.js';
import { restoreYourDataRequestSchema, deleteYourDataRequestSchema } from './your-data-requests.js';
import { profileSchema } from './app-config.js';
import { type BudgetRole, OWNERS, READERS, WRITERS } from '../domain/budgets.js';
import {
  budgetNameSchema,
  budgetNotifyRequestSchema,
  deleteBudgetRequestSchema,
  invitationParamsSchema,
  invitationTokenRequestSchema,
  memberParamsSchema,
  roleRequestSchema,
  sendInvitationRequestSchema,
} from './budget-requests.js';
import {
  budgetSchema,
  budgetsSchema,
  invitationDeclinedSchema,
  invitationSentSchema,
  invitationsSchema,
  invitationViewSchema,
  membersSchema,
  newInvitationSchema,
} from './budgets.js';
import {
  bankConnectionParamsSchema,
  bankConnectionSchema,
  bankConnectionsSchema,
  bankRemoteAccountParamsSchema,
  bankSyncAnswerSchema,
  connectBankRequestSchema,
  linkBankAccountRequestSchema,
} from './bank-connections.js';
import { accountTransactionParamsSchema, accountUpdateSchema, newAccountSchema, removeAccountRequestSchema } from './account-input.js';
import { accountForecastSchema, accountSchema, accountsInfoSchema } from './accounts.js';
import {
  type AliasedOperation,
  type ApiOperation,
  type EndpointRow,
  ENDPOINTS,
  type HttpMethod,
  type OperationId,
  primaryOperationId,
} from './common.js';
import { depositInputSchema } from './deposit-input.js';
import { depositsInfoSchema } from './deposits.js';
import { expenseInputSchema } from './expense-input.js';
import { expensesInfoSchema } from './expenses.js';
import { firstReadsQuerySchema, firstReadsSchema } from './first-reads.js';
import { ledgerInfoSchema } from './ledger.js';
import { ledgerAnswerQuerySchema, ledgerWriteAnswerSchema } from './ledger-changes.js';
import { ledgerWindowQuerySchema, ledgerWindowSchema } from './ledger-window.js';
import { createLedgerRequestSchema, extendLedgerRequestSchema, newTransactionSchema, transactionUpdateSchema } from './ledger-requests.js';
import { idParamsSchema } from './request-fields.js';
import { statementImportRequestSchema, statementPreviewRequestSchema } from './statement-requests.js';
import { STATEMENT_BODY_LIMIT_BYTES, statementImportSchema, statementPreviewSchema } from './statements.js';
import { notificationSettingsSchema, pushKeySchema, testDeliverySchema } from './notifications.js';
import { newChannelSchema, notificationPreferencesSchema, profileUpdateSchema } from './notification-requests.js';
import { newTransferSchema } from './transfers.js';
import { undoAnswerSchema, undoRequestSchema } from './undo.js';
import { EVENT_STREAM_ACCEPT, EVENT_STREAM_TYPE } from './live-changes.js';
import { everydaySuggestionSchema, whatIfAnswerSchema } from './what-if.js';
import { everydaySuggestionQuerySchema, whatIfRequestSchema } from './what-if-requests.js';

/** An answer that is a file to save, not JSON: its media type and what it is, for the OpenAPI document. */
export interface FileAnswer {
  readonly mediaType: string;
  readonly description: string;
}

/**
 * Who may make a call (issue 38, decision 0088): the roles in the budget it acts on that it accepts,
 * or PERSON for a call about the signed-in person rather than a budget (their budgets, an invitation
 * they were given, where their notifications go), which any signed-in user may make for themself.
 * A row that declares no role is refused by the server at start, and each call of it answers 403.
 */
export type EndpointAccess = readonly BudgetRole[] | typeof PERSON;

/** A call about the signed-in person, not a budget: it ignores the budget header. */
export const PERSON = 'person';

export interface EndpointSchemas {
  /** Deny by default: every row says who may call it (EndpointAccess). */
  readonly roles: EndpointAccess;
  /** What the call does, in one line: the OpenAPI document's summary (here, not in ENDPOINTS: the page never shows it). */
  readonly summary: string;
  /** The same at the row's alias on the primary account (PrimaryAlias), which the row has exactly when this is given. */
  readonly primarySummary?: string;
  /** The path's parameters (`:id`). */
  readonly params?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly headers?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  /** A 200 answer: JSON checked by its schema, or a file. */
  readonly answer: z.ZodMiniType | FileAnswer;
  /** The call's own request body limit in bytes, when it is not the app's (it carries a whole file). */
  readonly bodyLimit?: number;
}

export function isFileAnswer(answer: EndpointSchemas['answer']): answer is FileAnswer {
  return 'mediaType' in answer;
}

/** The If-Match a ledger write may carry (decision 0030). */
/**
 * The headers a ledger write may carry: If-Match with the ETag of the ledger the caller holds
 * (`W/"<version>"`, `"<version>"`, or `*` for any ledger) makes it go ahead only at that version;
 * at another it answers 412 precondition_failed and changes nothing. Loose: every other header
 * passes through as sent.
 */
/* Here, not in ledger-requests.ts: the page never sends it, and its zod (looseObject, describe)
 * would otherwise join the first view's script (benchmark 4a). */
export const ledgerWriteHeadersSchema = z.looseObject({
  'if-match': z.optional(
    z
      .string()
      .check(
        z.describe(
          'Write only if the ledger is still at this version: the ETag of the ledger you hold (W/"<version>"), or * for any ledger. Otherwise 412 precondition_failed, and nothing changes.',
        ),
      ),
  ),
});

/**
 * A stream of the budget's changes is only for a client that asks for one (decision 0096): any other
 * GET of it (a script, a walk of every read) answers 400 at once instead of holding a connection open.
 */
export const eventStreamHeadersSchema = z.looseObject({
  accept: z.string({ error: EVENT_STREAM_ACCEPT }).check(
    z.refine((accept) => accept.toLowerCase().includes(EVENT_STREAM_TYPE), EVENT_STREAM_ACCEPT),
    z.describe(EVENT_STREAM_ACCEPT),
  ),
});

const headers = ledgerWriteHeadersSchema;
/** A write of one ledger row: If-Match, and `?answer=changes` for only what it changed (decision 0030). */
const rowWrite = { headers, query: ledgerAnswerQuerySchema, answer: ledgerWriteAnswerSchema } as const;
/** The whole ledger, or a window of it when the query asks for one (decision 0053). */
const ledgerRead = { query: ledgerWindowQuerySchema, answer: z.union([ledgerInfoSchema, ledgerWindowSchema]) } as const;

export const ENDPOINT_SCHEMAS = {
  getProfile: { roles: READERS, summary: 'Get who the API thinks is calling, and their time zone', answer: profileSchema },
  updateProfile: {
    roles: WRITERS,
    summary: 'Set the caller\'s time zone, "Keep at least" buffer or everyday spending',
    body: profileUpdateSchema,
    answer: profileSchema,
  },

  getFirstReads: {
    roles: READERS,
    summary: "Get a view's first reads in one answer, each as its own call would answer it",
    query: firstReadsQuerySchema,
    answer: firstReadsSchema,
  },

  getDeposits: { roles: READERS, summary: 'List the deposits', answer: depositsInfoSchema },
  addDeposit: { roles: WRITERS, summary: 'Add a deposit', body: depositInputSchema, answer: depositsInfoSchema },
  updateDeposit: {
    roles: WRITERS,
    summary: 'Change a deposit',
    params: idParamsSchema,
    body: depositInputSchema,
    answer: depositsInfoSchema,
  },
  deleteDeposit: { roles: WRITERS, summary: 'Delete a deposit', params: idParamsSchema, answer: depositsInfoSchema },

  getExpenses: { roles: READERS, summary: 'List the expenses', answer: expensesInfoSchema },
  addExpense: { roles: WRITERS, summary: 'Add an expense', body: expenseInputSchema, answer: expensesInfoSchema },
  updateExpense: {
    roles: WRITERS,
    summary: 'Change an expense',
    params: idParamsSchema,
    body: expenseInputSchema,
    answer: expensesInfoSchema,
  },
  deleteExpense: { roles: WRITERS, summary: 'Delete an expense', params: idParamsSchema, answer: expensesInfoSchema },

  // An account's ledger: `:id` is the account; at its alias the primary account (routesOf).
  getLedger: {
    roles: READERS,
    summary: "Get an account's ledger, whole or a window of it",
    primarySummary: "Get the primary account's ledger, whole or a window of it",
    ...ledgerRead,
    params: idParamsSchema,
  },
  createLedger: {
    roles: WRITERS,
    summary: "Create an account's ledger from its deposits and expenses",
    primarySummary: "Create the primary account's ledger",
    params: idParamsSchema,
    headers,
    body: createLedgerRequestSchema,
    answer: ledgerInfoSchema,
  },
  getForecast: {
    roles: READERS,
    summary: "Get an account's forecast: the lowest balance ahead, pay periods and the next 14 days",
    primarySummary: "Get the primary account's forecast",
    params: idParamsSchema,
    answer: accountForecastSchema,
  },
  extendLedger: {
    roles: WRITERS,
    summary: "Extend an account's ledger to a later end date",
    primarySummary: "Extend the primary account's ledger",
    params: idParamsSchema,
    headers,
    body: extendLedgerRequestSchema,
    answer: ledgerInfoSchema,
  },
  addTransaction: {
    roles: WRITERS,
    summary: "Add a transaction to an account's ledger",
    primarySummary: "Add a transaction to the primary account's ledger",
    ...rowWrite,
    params: idParamsSchema,
    body: newTransactionSchema,
  },
  updateTransaction: {
    roles: WRITERS,
    summary: "Change a transaction of an account's ledger: edit, pay or clear it",
    primarySummary: "Change a transaction of the primary account's ledger",
    ...rowWrite,
    params: idParamsSchema,
    body: transactionUpdateSchema,
  },
  deleteTransaction: {
    roles: WRITERS,
    summary: "Delete a transaction of an account's ledger",
    primarySummary: "Delete a transaction of the primary account's ledger",
    ...rowWrite,
    params: accountTransactionParamsSchema,
  },

  previewStatement: {
    roles: WRITERS,
    summary: "Show what importing a bank statement would do to an account's ledger",
    primarySummary: "Show what importing a bank statement would do to the primary account's ledger",
    params: idParamsSchema,
    body: statementPreviewRequestSchema,
    answer: statementPreviewSchema,
    bodyLimit: STATEMENT_BODY_LIMIT_BYTES,
  },
  importStatement: {
    roles: WRITERS,
    summary: "Import a bank statement into an account's ledger",
    primarySummary: "Import a bank statement into the primary account's ledger",
    params: idParamsSchema,
    headers,
    body: statementImportRequestSchema,
    answer: statementImportSchema,
    bodyLimit: STATEMENT_BODY_LIMIT_BYTES,
  },

  exportLedgerCsv: {
    roles: READERS,
    summary: "Download an account's ledger as CSV",
    primarySummary: "Download the primary account's ledger as CSV",
    params: idParamsSchema,
    answer: { mediaType: 'text/csv', description: 'The ledger as a CSV file.' },
  },
  exportYourData: { roles: OWNERS, summary: 'Download all of your data as one document', answer: yourDataExportSchema },
  restoreYourData: {
    roles: OWNERS,
    summary: 'Replace all of your data with an exported document',
    body: restoreYourDataRequestSchema,
    answer: yourDataCountsSchema,
    bodyLimit: RESTORE_BODY_LIMIT_BYTES,
  },
  deleteYourData: { roles: OWNERS, summary: 'Delete all of your data', body: deleteYourDataRequestSchema, answer: yourDataCountsSchema },

  undo: { roles: WRITERS, summary: 'Undo a write by the token its answer carried', body: undoRequestSchema, answer: undoAnswerSchema },

  listAccounts: { roles: READERS, summary: 'List the accounts with their balances', answer: accountsInfoSchema },
  addAccount: { roles: WRITERS, summary: 'Add an account', body: newAccountSchema, answer: accountSchema },
  updateAccount: {
    roles: WRITERS,
    summary: "Rename an account, make it the primary one, or change a card's settings",
    params: idParamsSchema,
    body: accountUpdateSchema,
    answer: accountSchema,
  },
  removeAccount: {
    roles: WRITERS,
    summary: 'Delete an account and its ledger',
    params: idParamsSchema,
    body: removeAccountRequestSchema,
    answer: accountsInfoSchema,
  },

  addTransfer: {
    roles: WRITERS,
    summary: "Move money between two of the caller's accounts",
    headers,
    body: newTransferSchema,
    answer: ledgerInfoSchema,
  },

  getNotifications: { roles: PERSON, summary: 'Get what Leftover tells the caller, when, and where', answer: notificationSettingsSchema },
  updateNotifications: {
    roles: PERSON,
    summary: 'Choose what Leftover tells the caller and at what hour',
    body: notificationPreferencesSchema,
    answer: notificationSettingsSchema,
  },
  addNotificationChannel: {
    roles: PERSON,
    summary: 'Add an email address, a device or a webhook to send messages to',
    body: newChannelSchema,
    answer: notificationSettingsSchema,
  },
  removeNotificationChannel: { roles: PERSON, summary: 'Remove a channel', params: idParamsSchema, answer: notificationSettingsSchema },
  testNotificationChannel: {
    roles: PERSON,
    summary: 'Send a test message to a channel now',
    params: idParamsSchema,
    answer: testDeliverySchema,
  },
  getPushKey: { roles: PERSON, summary: 'Get the VAPID public key the page subscribes to web push with', answer: pushKeySchema },

  whatIf: {
    roles: READERS,
    summary: 'See what purchases would do to the forecast of each account they touch, storing nothing',
    body: whatIfRequestSchema,
    answer: whatIfAnswerSchema,
  },
  getEverydaySuggestion: {
    roles: READERS,
    summary: "Suggest everyday spending from the median of an account's last 13 full weeks",
    query: everydaySuggestionQuerySchema,
    answer: everydaySuggestionSchema,
  },

  connectBank: {
    roles: WRITERS,
    summary: 'Connect a bank through SimpleFIN: claim a Setup Token and list the bridge accounts',
    body: connectBankRequestSchema,
    answer: bankConnectionSchema,
  },
  listBankConnections: {
    roles: READERS,
    summary: "List the caller's bank connections with their accounts, state and last sync",
    answer: bankConnectionsSchema,
  },
  linkBankAccount: {
    roles: WRITERS,
    summary: 'Link a bank account to an account or a new one, or unlink it',
    params: bankRemoteAccountParamsSchema,
    body: linkBankAccountRequestSchema,
    answer: bankConnectionSchema,
  },
  syncBankConnection: {
    roles: WRITERS,
    summary: "Sync a bank connection's linked accounts into their ledgers now",
    params: bankConnectionParamsSchema,
    answer: bankSyncAnswerSchema,
  },
  disconnectBank: {
    roles: WRITERS,
    summary: 'Disconnect a bank: its secret is deleted at once, the ledgers keep their rows',
    params: bankConnectionParamsSchema,
    answer: bankConnectionsSchema,
  },

  listBudgets: { roles: PERSON, summary: "List the caller's budgets and their role in each", answer: budgetsSchema },
  createBudget: {
    roles: PERSON,
    summary: 'Create a budget to share, with the caller as its owner',
    body: budgetNameSchema,
    answer: budgetSchema,
  },
  renameBudget: { roles: OWNERS, summary: 'Rename a budget', params: idParamsSchema, body: budgetNameSchema, answer: budgetSchema },
  deleteBudget: {
    roles: OWNERS,
    summary: 'Delete a shared budget and all of its data',
    params: idParamsSchema,
    body: deleteBudgetRequestSchema,
    answer: budgetsSchema,
  },
  listMembers: {
    roles: READERS,
    summary: "List a budget's members by display name, with their roles",
    params: idParamsSchema,
    answer: membersSchema,
  },
  updateMember: {
    roles: OWNERS,
    summary: "Change a member's role",
    params: memberParamsSchema,
    body: roleRequestSchema,
    answer: membersSchema,
  },
  removeMember: { roles: OWNERS, summary: 'Remove a member from a budget', params: memberParamsSchema, answer: membersSchema },
  listActivity: {
    roles: READERS,
    summary: 'List who did what in a budget, newest first, a page at a time',
    params: idParamsSchema,
    query: activityQuerySchema,
    answer: activitySchema,
  },
  leaveBudget: { roles: READERS, summary: 'Leave a budget the caller is a member of', params: idParamsSchema, answer: budgetsSchema },
  // Every member, a viewer too: it changes their own membership, never the budget's data.
  setBudgetNotify: {
    roles: READERS,
    summary: "Choose whether the caller's notifications cover this budget",
    params: idParamsSchema,
    body: budgetNotifyRequestSchema,
    answer: budgetsSchema,
  },
  listInvitations: { roles: OWNERS, summary: "List a budget's pending invitations", params: idParamsSchema, answer: invitationsSchema },
  createInvitation: {
    roles: OWNERS,
    summary: 'Invite someone to a budget: a single-use link for a role, valid for 7 days',
    params: idParamsSchema,
    body: roleRequestSchema,
    answer: newInvitationSchema,
  },
  revokeInvitation: { roles: OWNERS, summary: 'Revoke a pending invitation', params: invitationParamsSchema, answer: invitationsSchema },
  sendInvitation: {
    roles: OWNERS,
    summary: "Email a pending invitation's link to an address, within that address's limits",
    params: invitationParamsSchema,
    body: sendInvitationRequestSchema,
    answer: invitationSentSchema,
  },
  viewInvitation: {
    roles: PERSON,
    summary: "See an invitation's budget name, who invited and the role, before joining",
    body: invitationTokenRequestSchema,
    answer: invitationViewSchema,
  },
  acceptInvitation: {
    roles: PERSON,
    summary: 'Join the budget an invitation is for',
    body: invitationTokenRequestSchema,
    answer: budgetSchema,
  },
  declineInvitation: {
    roles: PERSON,
    summary: 'Decline an invitation: it can no longer be used',
    body: invitationTokenRequestSchema,
    answer: invitationDeclinedSchema,
  },

  streamChanges: {
    roles: READERS,
    summary: "Follow the budget's changes: a stream of server-sent events, one each time a member changes it",
    headers: eventStreamHeadersSchema,
    answer: {
      mediaType: EVENT_STREAM_TYPE,
      description:
        'Server-sent events: `ready` once open, `change` with { by, text, you } after each change, `gone` when the caller is no longer a member.',
    },
  },
} as const satisfies {
  readonly [Operation in ApiOperation]: EndpointSchemas &
    (Operation extends AliasedOperation ? { readonly primarySummary: string } : { readonly primarySummary?: never });
};

/** Every row of the table, whole (method, path, failure message and schemas), in its order. */
export function endpointRows(): readonly (EndpointRow & EndpointSchemas & { readonly operation: ApiOperation })[] {
  return (Object.keys(ENDPOINTS) as ApiOperation[]).map((operation) => ({
    operation,
    ...ENDPOINTS[operation],
    ...ENDPOINT_SCHEMAS[operation],
  }));
}

/**
 * One path the server answers (decision 0059): a row at its own path, or at its alias on the
 * primary account. Each is one operation of the OpenAPI document, named by its operationId.
 */
export interface EndpointRoute extends EndpointSchemas {
  readonly operation: ApiOperation;
  /** The operation at its own path; `<operation>Primary` at its alias. */
  readonly operationId: OperationId;
  readonly method: HttpMethod;
  readonly path: `/api/${string}`;
  readonly summary: string;
  readonly failure: string;
  /** At an alias: the call acts on the primary account, which its path does not name. */
  readonly atPrimary: boolean;
}

/**
 * The routes of one row: its own, then its alias's, if it has one. The alias takes the row's
 * schemas but not its path parameters: its path names no account, and the row's own parameter
 * (a ledger row's `:transaction`) is its `:id`, checked as every other path's `:id` is.
 */
export function routesOf(operation: ApiOperation): readonly EndpointRoute[] {
  const { primary, ...row }: EndpointRow = ENDPOINTS[operation];
  const { primarySummary, ...schemas }: EndpointSchemas = ENDPOINT_SCHEMAS[operation];
  const own: EndpointRoute = { operation, operationId: operation, ...row, ...schemas, atPrimary: false };
  if (primary === undefined) return [own];
  const aliasSchemas: { -readonly [Key in keyof EndpointSchemas]: EndpointSchemas[Key] } = { ...schemas };
  delete aliasSchemas.params;
  if (primary.path.includes(':id')) aliasSchemas.params = idParamsSchema;
  const alias: EndpointRoute = {
    operation,
    operationId: primaryOperationId(operation as AliasedOperation),
    method: row.method,
    ...primary,
    ...aliasSchemas,
    summary: primarySummary ?? schemas.summary,
    atPrimary: true,
  };
  return [own, alias];
}

/**
 * Which budget a route acts on (decision 0088): the one its path names (`/api/budgets/:id/...`), the
 * one the Leftover-Budget header names (absent: the caller's personal budget), or none (a PERSON call).
 */
export function budgetPlaceOf(route: Pick<EndpointRoute, 'path' | 'roles'>): 'path' | 'header' | 'none' {
  if (route.roles === PERSON) return 'none';
  return route.path.startsWith('/api/budgets/:id') ? 'path' : 'header';
}

/** Every route of the table: each row's own path and its alias, in the table's order. */
export function endpointRoutes(): readonly EndpointRoute[] {
  return (Object.keys(ENDPOINTS) as ApiOperation[]).flatMap(routesOf);
}

/**
 * The row's own path parameter an alias's `:id` stands for: `transaction` for
 * DELETE /api/ledger/transactions/:id, whose row is /api/accounts/:id/ledger/transactions/:transaction.
 * Undefined when the alias has no parameter (every other ledger call).
 */
export function aliasIdParameter(operation: AliasedOperation): string | undefined {
  const row: EndpointRow = ENDPOINTS[operation];
  if (!row.primary?.path.includes(':id')) return undefined;
  return [...row.path.matchAll(/:(\w+)/g)].map((match) => match[1]).find((name) => name !== 'id');
}
