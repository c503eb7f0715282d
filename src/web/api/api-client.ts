/**
 * The only code that calls fetch: attaches the access token, checks every answer against the
 * contract and decodes it once (decision 0034: Cents and IsoDate, never dollars or plain date
 * strings past this point), and turns failures into the catalogue's messages plus the server's own.
 */
import type * as z from 'zod/mini';
import { ACCOUNT_PATHS, type AccountCounts, accountCountsSchema } from '../../contract/account.js';
import {
  type DepositsInfoView,
  depositsInfoCodec,
  type ExpensesInfoView,
  expensesInfoCodec,
  ledgerInfoCodec,
  type LedgerInfoView,
  type LedgerView,
  statementImportCodec,
  type StatementImportView,
  statementPreviewCodec,
  type StatementPreviewView,
} from '../../contract/codecs.js';
import { withId } from '../../contract/common.js';
import { DEPOSITS_PATHS } from '../../contract/deposits.js';
import type { DepositInput } from '../../contract/deposit-input.js';
import { type ApiOperation, errorBodySchema, FAILURE_MESSAGES } from '../../contract/errors.js';
import { EXPENSES_PATHS } from '../../contract/expenses.js';
import type { ExpenseInput } from '../../contract/expense-input.js';
import { LEDGER_PATHS } from '../../contract/ledger.js';
import type { CreateLedgerRequest, ExtendLedgerRequest, NewTransaction, TransactionUpdate } from '../../contract/ledger-requests.js';
import type { StatementImportRequest, StatementPreviewRequest } from '../../contract/statement-requests.js';
import { STATEMENT_PATHS } from '../../contract/statements.js';
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
export type HeldLedger = () => LedgerView | null;

interface Request<T> {
  readonly operation: ApiOperation;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** The answer's codec (contract/codecs.ts): one parse checks it and decodes it. */
  readonly answer: z.ZodMiniType<T>;
  readonly body?: unknown;
  /** The whole ledger in an answer that carries one: the page notes its version (decision 0030). */
  readonly ledgerOf?: (answer: T) => LedgerView | null;
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
  async function callLedger<Info extends LedgerInfoView>(request: Omit<Request<Info>, 'ledgerOf'>): Promise<Info> {
    const answer = await call({ ...request, ledgerOf: (info) => info.ledger });
    if (answer.ledger !== null) void loadLedgerChanges().catch(() => undefined);
    return answer;
  }

  const getLedger = (): Promise<LedgerInfoView> =>
    callLedger({ operation: 'getLedger', method: 'GET', path: LEDGER_PATHS.retrieve, answer: ledgerInfoCodec });

  /**
   * A write of one ledger row by the page (decision 0030): while the page holds a ledger it asks
   * for the changes only and applies them to the ledger it holds when the answer arrives; when
   * they are based on another version (another tab, a schedule change came between) or do not add
   * up, it reloads the whole ledger instead.
   */
  async function writeRow(request: Omit<Request<unknown>, 'answer'>, held: HeldLedger | undefined): Promise<LedgerInfoView> {
    if (held === undefined || held() === null) return callLedger({ ...request, answer: ledgerInfoCodec });
    let changesCode: Awaited<ReturnType<typeof loadLedgerChanges>>;
    try {
      changesCode = await loadLedgerChanges();
    } catch {
      // Its code did not load (the network went): the whole ledger still works.
      return callLedger({ ...request, answer: ledgerInfoCodec });
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
    getDeposits: (): Promise<DepositsInfoView> =>
      call({ operation: 'getDeposits', method: 'GET', path: DEPOSITS_PATHS.retrieve, answer: depositsInfoCodec }),
    addDeposit: (deposit: DepositInput): Promise<DepositsInfoView> =>
      call({ operation: 'addDeposit', method: 'POST', path: DEPOSITS_PATHS.add, answer: depositsInfoCodec, body: deposit }),
    updateDeposit: (id: string, deposit: DepositInput): Promise<DepositsInfoView> =>
      call({ operation: 'updateDeposit', method: 'PUT', path: withId(DEPOSITS_PATHS.one, id), answer: depositsInfoCodec, body: deposit }),
    deleteDeposit: (id: string): Promise<DepositsInfoView> =>
      call({ operation: 'deleteDeposit', method: 'DELETE', path: withId(DEPOSITS_PATHS.one, id), answer: depositsInfoCodec }),

    getExpenses: (): Promise<ExpensesInfoView> =>
      call({ operation: 'getExpenses', method: 'GET', path: EXPENSES_PATHS.retrieve, answer: expensesInfoCodec }),
    addExpense: (expense: ExpenseInput): Promise<ExpensesInfoView> =>
      call({ operation: 'addExpense', method: 'POST', path: EXPENSES_PATHS.add, answer: expensesInfoCodec, body: expense }),
    updateExpense: (id: string, expense: ExpenseInput): Promise<ExpensesInfoView> =>
      call({ operation: 'updateExpense', method: 'PUT', path: withId(EXPENSES_PATHS.one, id), answer: expensesInfoCodec, body: expense }),
    deleteExpense: (id: string): Promise<ExpensesInfoView> =>
      call({ operation: 'deleteExpense', method: 'DELETE', path: withId(EXPENSES_PATHS.one, id), answer: expensesInfoCodec }),

    getLedger,
    createLedger: (request: CreateLedgerRequest): Promise<LedgerInfoView> =>
      callLedger({ operation: 'createLedger', method: 'POST', path: LEDGER_PATHS.create, answer: ledgerInfoCodec, body: request }),
    extendLedger: (request: ExtendLedgerRequest): Promise<LedgerInfoView> =>
      callLedger({ operation: 'extendLedger', method: 'POST', path: LEDGER_PATHS.extend, answer: ledgerInfoCodec, body: request }),
    addTransaction: (transaction: NewTransaction, held?: HeldLedger): Promise<LedgerInfoView> =>
      writeRow({ operation: 'addTransaction', method: 'POST', path: LEDGER_PATHS.addTransaction, body: transaction }, held),
    updateTransaction: (transaction: TransactionUpdate, held?: HeldLedger): Promise<LedgerInfoView> =>
      writeRow({ operation: 'updateTransaction', method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: transaction }, held),
    deleteTransaction: (id: string, held?: HeldLedger): Promise<LedgerInfoView> =>
      writeRow({ operation: 'deleteTransaction', method: 'DELETE', path: withId(LEDGER_PATHS.transaction, id) }, held),

    /** What importing the statement would do to the ledger; changes nothing. */
    previewStatement: (request: StatementPreviewRequest): Promise<StatementPreviewView> =>
      call({ operation: 'previewStatement', method: 'POST', path: STATEMENT_PATHS.preview, answer: statementPreviewCodec, body: request }),
    importStatement: (request: StatementImportRequest): Promise<StatementImportView> =>
      callLedger({
        operation: 'importStatement',
        method: 'POST',
        path: STATEMENT_PATHS.import,
        answer: statementImportCodec,
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
