/**
 * Every call of the API, with a valid body for it: what the security tests and the fuzzer walk
 * through. The calls are the endpoint table's routes (decision 0036): each row's own path, and its
 * alias on the primary account when it has one (decision 0059). `registeredApiRoutes` reads the
 * routes the app really has, so a route the server adds outside the table, or a row it does not
 * register, fails those tests instead of going unchecked.
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { ApiOperation, HttpMethod, OperationId } from '../../src/contract/common.js';
import { type ENDPOINT_SCHEMAS, endpointRoutes, isFileAnswer } from '../../src/contract/endpoints.js';

/** Where a call names the row it acts on. */
export type IdPlace = 'none' | 'path' | 'body';

export interface ApiCall {
  /** The row's operation: the same at both paths of an account's ledger call. */
  readonly operation: ApiOperation;
  /** The OpenAPI document's name of this path's call: the operation, or `<operation>Primary` at an alias. */
  readonly operationId: OperationId;
  readonly method: HttpMethod;
  /** The route as registered, `:id` included. */
  readonly route: string;
  readonly idPlace: IdPlace;
  url(id: string): string;
  /** A body the contract accepts; for a body id, naming that row. Undefined: the call takes no body. */
  validBody?(id: string): unknown;
  /** The contract's schema of the body, when the call takes one. */
  readonly bodySchema?: z.ZodMiniType;
  /** The contract's schema of a 200 answer. */
  readonly answerSchema: z.ZodMiniType;
  /** The call's own request body limit in bytes, when it is not the app's (BODY_LIMIT_BYTES). */
  readonly bodyLimit?: number;
  /** A 200 answer that is a file, not JSON (the ledger's CSV): answerSchema checks its text. */
  readonly answerIsText?: boolean;
  /** The 200 answer's media type: application/json, or the file's (text/csv, text/event-stream). */
  readonly answerMediaType: string;
}

// 2026-11-20 is a Friday, inside the ledger the fixtures create (November and December 2026).
export const VALID_DEPOSIT = {
  name: 'Paycheck',
  type: 'Direct Deposit',
  day: 'Friday',
  amount: 1000,
  startDate: '2026-11-20',
  frequency: 'BW',
} as const;
export const VALID_EXPENSE = { name: 'Rent', type: 'Housing', day: 1, amount: 1200, endDate: null } as const;
export const VALID_LEDGER = { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 500 } } as const;
export const VALID_EXTENSION = { endDate: '2027-01-31' } as const;
export const VALID_TRANSACTION = { date: '2026-11-25', name: 'Coffee', type: 'D', amount: 4.5 } as const;
/** A whole export document (issue 15): one deposit, one expense, a ledger with one generated row. */
export const VALID_EXPORT_DOCUMENT = {
  format: 'leftover-export',
  version: 1,
  exportedAt: '2026-11-21T12:00:00.000Z',
  deposits: [{ ...VALID_DEPOSIT, id: '0190a1b2-c3d4-7e5f-8a6b-000000000001', createdAt: '2026-11-01T09:00:00.000Z' }],
  expenses: [
    {
      ...VALID_EXPENSE,
      id: '0190a1b2-c3d4-7e5f-8a6b-000000000002',
      frequency: 'M',
      startDate: null,
      createdAt: '2026-11-01T09:00:01.000Z',
    },
  ],
  ledger: {
    startDate: '2026-11-01',
    endDate: '2026-12-31',
    openingBalance: 500,
    nextSequence: 2,
    transactions: [
      {
        id: '0190a1b2-c3d4-7e5f-8a6b-000000000003',
        sequence: 1,
        date: '2026-12-01',
        name: 'Rent',
        type: 'D',
        amount: 1200,
        status: 'PAID',
        source: { kind: 'expense', id: '0190a1b2-c3d4-7e5f-8a6b-000000000002', occurrence: '2026-12-01', edited: false },
      },
    ],
    skippedOccurrences: [{ kind: 'expense', id: '0190a1b2-c3d4-7e5f-8a6b-000000000002', occurrence: '2026-11-01' }],
    importedStatementRows: [
      { key: 'a'.repeat(64), transactionId: '0190a1b2-c3d4-7e5f-8a6b-000000000003', importedAt: '2026-11-20T10:00:00.000Z' },
    ],
    removedSchedules: [],
  },
} as const;
export const VALID_ACCOUNT = { name: 'Savings', kind: 'SAVINGS' } as const;
export const VALID_STATEMENT = { fileName: 'statement.csv', content: 'Date,Description,Amount\n2026-11-25,COFFEE,-4.50\n' } as const;

/** The calls whose row takes a body. */
type WithBody = {
  [Operation in ApiOperation]: (typeof ENDPOINT_SCHEMAS)[Operation] extends { body: unknown } ? Operation : never;
}[ApiOperation];

/** A body the contract accepts, for each call that takes one (and no other); a body id names the row given. */
const VALID_BODIES: { readonly [Operation in WithBody]: (id: string) => unknown } = {
  addDeposit: () => VALID_DEPOSIT,
  updateDeposit: () => VALID_DEPOSIT,
  addExpense: () => VALID_EXPENSE,
  updateExpense: () => VALID_EXPENSE,
  createLedger: () => VALID_LEDGER,
  extendLedger: () => VALID_EXTENSION,
  addTransaction: () => VALID_TRANSACTION,
  updateTransaction: (id) => ({ id, ...VALID_TRANSACTION, status: 'PAID', balance: 0 }),
  previewStatement: () => VALID_STATEMENT,
  importStatement: () => ({ ...VALID_STATEMENT, decisions: [{ index: 0, action: 'new' }] }),
  restoreYourData: () => VALID_EXPORT_DOCUMENT,
  deleteYourData: () => ({ confirm: 'DELETE' }),
  // Shaped as the server's tokens are (43 base64url characters), so it is looked up, and names no entry.
  undo: () => ({ token: 'A'.repeat(43) }),
  addAccount: () => VALID_ACCOUNT,
  updateAccount: () => ({ name: 'Rainy Day' }),
  removeAccount: () => ({ confirm: 'Savings' }),
  addTransfer: (id) => ({ fromAccountId: id, toAccountId: id, date: '2026-11-25', amount: 100 }),
  updateProfile: () => ({ timeZone: 'America/Los_Angeles' }),
  whatIf: () => ({ items: [{ date: '2026-11-25', amount: 10 }] }),
  updateNotifications: () => ({ hour: 7, belowZero: true, billsDue: true }),
  // A public address literal: adding it needs no DNS lookup (the guard checks the address itself).
  addNotificationChannel: () => ({ kind: 'WEBHOOK', target: 'https://93.184.215.14/leftover' }),
  // Not base64 of a URL: refused before any request leaves the server.
  connectBank: () => ({ setupToken: 'not-a-setup-token' }),
  linkBankAccount: () => ({ accountId: null }),
  createBudget: () => ({ name: 'Household' }),
  renameBudget: () => ({ name: 'Home' }),
  deleteBudget: () => ({ confirm: 'Household' }),
  updateMember: () => ({ role: 'VIEWER' }),
  setBudgetNotify: () => ({ notify: false }),
  createInvitation: () => ({ role: 'EDITOR' }),
  // An invitation's token shaped as the server's, naming none: no mail is sent (and a test app has no SMTP server).
  sendInvitation: () => ({ email: 'sam@example.com', token: 'B'.repeat(32) }),
  // Shaped as the server's tokens are (32 base64url characters), so it is looked up, and names no invitation.
  viewInvitation: () => ({ token: 'B'.repeat(32) }),
  acceptInvitation: () => ({ token: 'B'.repeat(32) }),
  declineInvitation: () => ({ token: 'B'.repeat(32) }),
};

/** A query for the calls that read nothing without one: the first reads (decision 0128) read the deposits. */
const VALID_QUERIES: Partial<Record<ApiOperation, string>> = {
  getFirstReads: `?${new URLSearchParams({ paths: '/api/deposits/retrieve-deposits' }).toString()}`,
};

/** Calls that name their row in the body, not the path (an account's ledger names its account in the path too). */
const ID_IN_BODY: readonly ApiOperation[] = ['updateTransaction'];

const validBodies: Partial<Record<ApiOperation, (id: string) => unknown>> = VALID_BODIES;

export const API_CALLS: readonly ApiCall[] = endpointRoutes().map(({ operation, operationId, method, path, body, answer, bodyLimit }) => {
  const validBody = validBodies[operation];
  return {
    operation,
    operationId,
    method,
    route: path,
    idPlace: ID_IN_BODY.includes(operation) ? 'body' : path.includes(':id') ? 'path' : 'none',
    // Every parameter of the path (an account's and its row's) is given the one id; a call that
    // does nothing without its query is given one.
    url: (id: string) => `${path.replace(/:\w+/g, encodeURIComponent(id))}${VALID_QUERIES[operation] ?? ''}`,
    ...(validBody && { validBody }),
    ...(body && { bodySchema: body }),
    // A file (the ledger's CSV) is checked as text.
    ...(isFileAnswer(answer)
      ? { answerSchema: z.string(), answerIsText: true, answerMediaType: answer.mediaType }
      : { answerSchema: answer, answerMediaType: 'application/json' }),
    ...(bodyLimit !== undefined && { bodyLimit }),
  };
});

/** A 200 answer checked against the call's contract: JSON, or the text of a file. */
export function checkAnswer(call: ApiCall, response: { body: string; json(): unknown }): void {
  call.answerSchema.parse(call.answerIsText ? response.body : response.json());
}

export function callName(call: ApiCall): string {
  return `${call.method} ${call.route}`;
}

/**
 * Calls under /api answered without a token: the API's own description, which holds nobody's data
 * (docs/decisions/0025-operations-and-openapi.md). tests/api/openapi.test.ts covers it.
 */
export const PUBLIC_API_ROUTES: readonly string[] = ['GET /api/openapi.json'];

/**
 * The routes the app serves under /api, as "METHOD /path" (HEAD, which Fastify adds to GET, aside):
 * the ones behind the token check, unless `includePublic` asks for PUBLIC_API_ROUTES too.
 */
export function registeredApiRoutes(app: FastifyInstance, { includePublic = false } = {}): string[] {
  const routes: string[] = [];
  // A route that extends another (/api/account/export under /api/account) prints as its child, one level deeper.
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─ ]*)(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const path = `${parents[depth - 1] ?? ''}${match[2]}`;
    parents[depth] = path;
    parents.length = depth + 1;
    if (!path.startsWith('/api/') || !match[3]) continue;
    for (const method of match[3].split(', ')) {
      if (method !== 'HEAD') routes.push(`${method} ${path}`);
    }
  }
  return routes.filter((route) => includePublic || !PUBLIC_API_ROUTES.includes(route)).sort();
}
