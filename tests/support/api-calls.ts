/**
 * Every call of the API, with a valid body for it: what the security tests and the fuzzer walk
 * through. `registeredApiRoutes` reads the routes the app really has, so a call added to the
 * server and not here fails those tests instead of going unchecked.
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { ACCOUNT_IMPORT_BODY_LIMIT_BYTES, ACCOUNT_PATHS, accountCountsSchema, accountExportSchema } from '../../src/contract/account.js';
import { accountImportRequestSchema, deleteAccountRequestSchema } from '../../src/contract/account-requests.js';
import { PROFILE_PATH, profileSchema } from '../../src/contract/app-config.js';
import { DEPOSITS_PATHS, depositsInfoSchema } from '../../src/contract/deposits.js';
import { depositInputSchema } from '../../src/contract/deposit-input.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { expenseInputSchema } from '../../src/contract/expense-input.js';
import { forecastSchema, LEDGER_PATHS, ledgerInfoSchema } from '../../src/contract/ledger.js';
import { transactionUpdateSchema } from '../../src/contract/ledger-requests.js';
import { createLedgerRequestSchema, extendLedgerRequestSchema, newTransactionSchema } from '../../src/contract/ledger-requests.js';
import { statementImportRequestSchema, statementPreviewRequestSchema } from '../../src/contract/statement-requests.js';
import {
  STATEMENT_BODY_LIMIT_BYTES,
  STATEMENT_PATHS,
  statementImportSchema,
  statementPreviewSchema,
} from '../../src/contract/statements.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a call names the row it acts on. */
export type IdPlace = 'none' | 'path' | 'body';

export interface ApiCall {
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
export const VALID_ACCOUNT_DOCUMENT = {
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
export const VALID_STATEMENT = { fileName: 'statement.csv', content: 'Date,Description,Amount\n2026-11-25,COFFEE,-4.50\n' } as const;

function call(
  method: HttpMethod,
  route: string,
  rest: Omit<ApiCall, 'method' | 'route' | 'url' | 'idPlace'> & { idPlace?: IdPlace },
): ApiCall {
  const idPlace = rest.idPlace ?? (route.includes(':id') ? 'path' : 'none');
  return { method, route, idPlace, url: (id) => route.replace(':id', encodeURIComponent(id)), ...rest };
}

export const API_CALLS: readonly ApiCall[] = [
  call('GET', PROFILE_PATH, { answerSchema: profileSchema }),
  call('GET', DEPOSITS_PATHS.retrieve, { answerSchema: depositsInfoSchema }),
  call('POST', DEPOSITS_PATHS.add, { validBody: () => VALID_DEPOSIT, bodySchema: depositInputSchema, answerSchema: depositsInfoSchema }),
  call('PUT', DEPOSITS_PATHS.one, { validBody: () => VALID_DEPOSIT, bodySchema: depositInputSchema, answerSchema: depositsInfoSchema }),
  call('DELETE', DEPOSITS_PATHS.one, { answerSchema: depositsInfoSchema }),
  call('GET', EXPENSES_PATHS.retrieve, { answerSchema: expensesInfoSchema }),
  call('POST', EXPENSES_PATHS.add, { validBody: () => VALID_EXPENSE, bodySchema: expenseInputSchema, answerSchema: expensesInfoSchema }),
  call('PUT', EXPENSES_PATHS.one, { validBody: () => VALID_EXPENSE, bodySchema: expenseInputSchema, answerSchema: expensesInfoSchema }),
  call('DELETE', EXPENSES_PATHS.one, { answerSchema: expensesInfoSchema }),
  call('GET', LEDGER_PATHS.retrieve, { answerSchema: ledgerInfoSchema }),
  call('POST', LEDGER_PATHS.create, {
    validBody: () => VALID_LEDGER,
    bodySchema: createLedgerRequestSchema,
    answerSchema: ledgerInfoSchema,
  }),
  call('GET', LEDGER_PATHS.forecast, { answerSchema: forecastSchema }),
  call('POST', LEDGER_PATHS.extend, {
    validBody: () => VALID_EXTENSION,
    bodySchema: extendLedgerRequestSchema,
    answerSchema: ledgerInfoSchema,
  }),
  call('POST', LEDGER_PATHS.addTransaction, {
    validBody: () => VALID_TRANSACTION,
    bodySchema: newTransactionSchema,
    answerSchema: ledgerInfoSchema,
  }),
  call('PATCH', LEDGER_PATHS.updateTransaction, {
    idPlace: 'body',
    validBody: (id) => ({ id, ...VALID_TRANSACTION, status: 'PAID', balance: 0 }),
    bodySchema: transactionUpdateSchema,
    answerSchema: ledgerInfoSchema,
  }),
  call('DELETE', LEDGER_PATHS.transaction, { answerSchema: ledgerInfoSchema }),
  call('POST', STATEMENT_PATHS.preview, {
    validBody: () => VALID_STATEMENT,
    bodySchema: statementPreviewRequestSchema,
    answerSchema: statementPreviewSchema,
    bodyLimit: STATEMENT_BODY_LIMIT_BYTES,
  }),
  call('POST', STATEMENT_PATHS.import, {
    validBody: () => ({ ...VALID_STATEMENT, decisions: [{ index: 0, action: 'new' }] }),
    bodySchema: statementImportRequestSchema,
    answerSchema: statementImportSchema,
    bodyLimit: STATEMENT_BODY_LIMIT_BYTES,
  }),
  call('GET', ACCOUNT_PATHS.ledgerCsv, { answerSchema: z.string(), answerIsText: true }),
  call('GET', ACCOUNT_PATHS.export, { answerSchema: accountExportSchema }),
  call('POST', ACCOUNT_PATHS.import, {
    validBody: () => VALID_ACCOUNT_DOCUMENT,
    bodySchema: accountImportRequestSchema,
    answerSchema: accountCountsSchema,
    bodyLimit: ACCOUNT_IMPORT_BODY_LIMIT_BYTES,
  }),
  call('DELETE', ACCOUNT_PATHS.account, {
    validBody: () => ({ confirm: 'DELETE' }),
    bodySchema: deleteAccountRequestSchema,
    answerSchema: accountCountsSchema,
  }),
];

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
