/**
 * The only code that calls fetch: attaches the access token, checks every answer against the
 * contract, and turns failures into the catalogue's messages plus the server's own.
 */
import type * as z from 'zod/mini';
import { ACCOUNT_PATHS, type AccountCounts, accountCountsSchema } from '../../contract/account.js';
import { withId } from '../../contract/common.js';
import { DEPOSITS_PATHS, type DepositsInfo, depositsInfoSchema } from '../../contract/deposits.js';
import type { DepositInput } from '../../contract/deposit-input.js';
import { type ApiOperation, errorBodySchema, FAILURE_MESSAGES } from '../../contract/errors.js';
import { EXPENSES_PATHS, type ExpensesInfo, expensesInfoSchema } from '../../contract/expenses.js';
import type { ExpenseInput } from '../../contract/expense-input.js';
import { type Forecast, forecastSchema, LEDGER_PATHS, type Ledger, type LedgerInfo, ledgerInfoSchema } from '../../contract/ledger.js';
import type { CreateLedgerRequest, ExtendLedgerRequest, NewTransaction, TransactionUpdate } from '../../contract/ledger-requests.js';
import type { StatementImportRequest, StatementPreviewRequest } from '../../contract/statement-requests.js';
import {
  STATEMENT_PATHS,
  type StatementImport,
  statementImportSchema,
  type StatementPreview,
  statementPreviewSchema,
} from '../../contract/statements.js';
import { noteLedgerVersion } from './ledger-version.js';

export class ApiCallError extends Error {
  constructor(
    readonly operation: ApiOperation,
    /** 0 when the server could not be reached at all. */
    readonly status: number,
    /** What the server said, or what went wrong on the way. */
    readonly detail: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(FAILURE_MESSAGES[operation]);
    this.name = 'ApiCallError';
  }
}

interface ApiClientOptions {
  readonly getAccessToken: () => string | undefined;
  /** A 401: the token is gone or refused; the page signs in again. */
  readonly onUnauthorized: () => void;
  /** Counts calls in flight, for the spinner. */
  readonly onCallStart?: () => void;
  readonly onCallEnd?: () => void;
  readonly fetchImpl?: typeof fetch;
}

/**
 * The write went through; only reloading the ledger after it failed (decision 0030). The dialog
 * that sent it closes: sending it again would write it twice.
 */
export class LedgerReloadError extends ApiCallError {}

/** The ledger the page holds at the moment it is asked (when an answer arrives), or null while it holds none. */
export type HeldLedger = () => Ledger | null;

interface Request<T> {
  readonly operation: ApiOperation;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly answer: z.ZodMiniType<T>;
  readonly body?: unknown;
  /** The whole ledger in an answer that carries one: the page notes its version (decision 0030). */
  readonly ledgerOf?: (answer: T) => Ledger | null;
}

const loadLedgerChanges = () => import('./ledger-changes.js');

export function createApiClient(options: ApiClientOptions) {
  const fetchImpl = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  /** Sends a request with the user's token; a refusal or a failed connection becomes an ApiCallError. */
  async function send({ operation, method, path, body }: Omit<Request<unknown>, 'answer'>): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = options.getAccessToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchImpl(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new ApiCallError(operation, 0, 'The server could not be reached. Check your connection and try again.');
    }
    if (!response.ok) {
      if (response.status === 401) options.onUnauthorized();
      const payload: unknown = await response.json().catch(() => undefined);
      const error = errorBodySchema.safeParse(payload);
      throw new ApiCallError(
        operation,
        response.status,
        error.success ? error.data.error.message : `The server answered ${response.status}.`,
        error.success ? (error.data.error.fields ?? {}) : {},
      );
    }
    return response;
  }

  async function call<T>({ answer, ledgerOf, ...request }: Request<T>): Promise<T> {
    options.onCallStart?.();
    try {
      const response = await send(request);
      const payload: unknown = await response.json().catch(() => undefined);
      const parsed = answer.safeParse(payload);
      if (!parsed.success) throw new ApiCallError(request.operation, response.status, 'The server answered something unexpected.');
      if (ledgerOf) noteLedgerVersion(ledgerOf(parsed.data), response.headers.get('etag'));
      return parsed.data;
    } finally {
      options.onCallEnd?.();
    }
  }

  /**
   * A call answering the whole ledger, whose version the page notes. Once the page holds a
   * ledger, the code that applies changes to it loads (a lazy chunk, not the first view's).
   */
  async function callLedger<Info extends LedgerInfo>(request: Omit<Request<Info>, 'ledgerOf'>): Promise<Info> {
    const answer = await call({ ...request, ledgerOf: (info) => info.ledger });
    if (answer.ledger !== null) void loadLedgerChanges().catch(() => undefined);
    return answer;
  }

  const getLedger = (): Promise<LedgerInfo> =>
    callLedger({ operation: 'getLedger', method: 'GET', path: LEDGER_PATHS.retrieve, answer: ledgerInfoSchema });

  /**
   * A write of one ledger row by the page (decision 0030): while the page holds a ledger it asks
   * for the changes only and applies them to the ledger it holds when the answer arrives; when
   * they are based on another version (another tab, a schedule change came between) or do not add
   * up, it reloads the whole ledger instead.
   */
  async function writeRow(request: Omit<Request<unknown>, 'answer'>, held: HeldLedger | undefined): Promise<LedgerInfo> {
    if (held === undefined || held() === null) return callLedger({ ...request, answer: ledgerInfoSchema });
    let changesCode: Awaited<ReturnType<typeof loadLedgerChanges>>;
    try {
      changesCode = await loadLedgerChanges();
    } catch {
      // Its code did not load (the network went): the whole ledger still works.
      return callLedger({ ...request, answer: ledgerInfoSchema });
    }
    return changesCode.writeWithChanges((answer) => call({ ...request, path: `${request.path}?answer=changes`, answer }), held, getLedger);
  }

  /** A file to save as it came (the ledger's CSV, the whole export): the page does not read it. */
  async function download(operation: ApiOperation, path: string): Promise<Blob> {
    options.onCallStart?.();
    try {
      const response = await send({ operation, method: 'GET', path });
      try {
        return await response.blob();
      } catch {
        throw new ApiCallError(operation, 0, 'The download was cut off. Check your connection and try again.');
      }
    } finally {
      options.onCallEnd?.();
    }
  }

  return {
    getDeposits: (): Promise<DepositsInfo> =>
      call({ operation: 'getDeposits', method: 'GET', path: DEPOSITS_PATHS.retrieve, answer: depositsInfoSchema }),
    addDeposit: (deposit: DepositInput): Promise<DepositsInfo> =>
      call({ operation: 'addDeposit', method: 'POST', path: DEPOSITS_PATHS.add, answer: depositsInfoSchema, body: deposit }),
    updateDeposit: (id: string, deposit: DepositInput): Promise<DepositsInfo> =>
      call({ operation: 'updateDeposit', method: 'PUT', path: withId(DEPOSITS_PATHS.one, id), answer: depositsInfoSchema, body: deposit }),
    deleteDeposit: (id: string): Promise<DepositsInfo> =>
      call({ operation: 'deleteDeposit', method: 'DELETE', path: withId(DEPOSITS_PATHS.one, id), answer: depositsInfoSchema }),

    getExpenses: (): Promise<ExpensesInfo> =>
      call({ operation: 'getExpenses', method: 'GET', path: EXPENSES_PATHS.retrieve, answer: expensesInfoSchema }),
    addExpense: (expense: ExpenseInput): Promise<ExpensesInfo> =>
      call({ operation: 'addExpense', method: 'POST', path: EXPENSES_PATHS.add, answer: expensesInfoSchema, body: expense }),
    updateExpense: (id: string, expense: ExpenseInput): Promise<ExpensesInfo> =>
      call({ operation: 'updateExpense', method: 'PUT', path: withId(EXPENSES_PATHS.one, id), answer: expensesInfoSchema, body: expense }),
    deleteExpense: (id: string): Promise<ExpensesInfo> =>
      call({ operation: 'deleteExpense', method: 'DELETE', path: withId(EXPENSES_PATHS.one, id), answer: expensesInfoSchema }),

    getLedger,
    /** The forecast, or null while the user has no ledger (the page reads the server's today from it). */
    getForecast: async (): Promise<Forecast | null> => {
      try {
        return await call({ operation: 'getForecast', method: 'GET', path: LEDGER_PATHS.forecast, answer: forecastSchema });
      } catch (error) {
        if (error instanceof ApiCallError && error.status === 404) return null;
        throw error;
      }
    },
    createLedger: (request: CreateLedgerRequest): Promise<LedgerInfo> =>
      callLedger({ operation: 'createLedger', method: 'POST', path: LEDGER_PATHS.create, answer: ledgerInfoSchema, body: request }),
    extendLedger: (request: ExtendLedgerRequest): Promise<LedgerInfo> =>
      callLedger({ operation: 'extendLedger', method: 'POST', path: LEDGER_PATHS.extend, answer: ledgerInfoSchema, body: request }),
    addTransaction: (transaction: NewTransaction, held?: HeldLedger): Promise<LedgerInfo> =>
      writeRow({ operation: 'addTransaction', method: 'POST', path: LEDGER_PATHS.addTransaction, body: transaction }, held),
    updateTransaction: (transaction: TransactionUpdate, held?: HeldLedger): Promise<LedgerInfo> =>
      writeRow({ operation: 'updateTransaction', method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: transaction }, held),
    deleteTransaction: (id: string, held?: HeldLedger): Promise<LedgerInfo> =>
      writeRow({ operation: 'deleteTransaction', method: 'DELETE', path: withId(LEDGER_PATHS.transaction, id) }, held),

    /** What importing the statement would do to the ledger; changes nothing. */
    previewStatement: (request: StatementPreviewRequest): Promise<StatementPreview> =>
      call({ operation: 'previewStatement', method: 'POST', path: STATEMENT_PATHS.preview, answer: statementPreviewSchema, body: request }),
    importStatement: (request: StatementImportRequest): Promise<StatementImport> =>
      callLedger({
        operation: 'importStatement',
        method: 'POST',
        path: STATEMENT_PATHS.import,
        answer: statementImportSchema,
        body: request,
      }),
    exportLedgerCsv: (): Promise<Blob> => download('exportLedgerCsv', ACCOUNT_PATHS.ledgerCsv),
    exportAccount: (): Promise<Blob> => download('exportAccount', ACCOUNT_PATHS.export),
    /** The document as read from the user's file: the server checks all of it. */
    importAccount: (document: unknown): Promise<AccountCounts> =>
      call({ operation: 'importAccount', method: 'POST', path: ACCOUNT_PATHS.import, answer: accountCountsSchema, body: document }),
    deleteAccount: (): Promise<AccountCounts> =>
      call({
        operation: 'deleteAccount',
        method: 'DELETE',
        path: ACCOUNT_PATHS.account,
        answer: accountCountsSchema,
        body: { confirm: 'DELETE' },
      }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
