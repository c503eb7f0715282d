/**
 * The only code that calls fetch: attaches the access token, checks every answer against the
 * contract and decodes it once (decision 0034: Cents and IsoDate, never dollars or plain date
 * strings past this point), and turns failures into the catalogue's messages plus the server's own.
 * Each call's method, path and failure message are its row of the endpoint table (decision 0036).
 */
import type * as z from 'zod/mini';
import { type AccountCounts, accountCountsSchema } from '../../contract/account.js';
import {
  type DepositsInfoView,
  depositsInfoCodec,
  type ExpensesInfoView,
  expensesInfoCodec,
  ledgerInfoCodec,
  type LedgerInfoView,
  type LedgerView,
  type StatementImportView,
  type StatementPreviewView,
} from '../../contract/codecs.js';
import { type ApiOperation, ENDPOINTS, type HttpMethod, type RouteWithId, withId } from '../../contract/common.js';
import type { DepositInput } from '../../contract/deposit-input.js';
import { errorBodySchema } from '../../contract/errors.js';
import type { ExpenseInput } from '../../contract/expense-input.js';
import type { CreateLedgerRequest, ExtendLedgerRequest, NewTransaction, TransactionUpdate } from '../../contract/ledger-requests.js';
import type { StatementImportRequest, StatementPreviewRequest } from '../../contract/statement-requests.js';
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
    super(ENDPOINTS[operation].failure);
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

/** A call as its row of the endpoint table gives it, with the row's id in its path. */
interface Endpoint {
  readonly operation: ApiOperation;
  readonly method: HttpMethod;
  readonly path: string;
}

type PathOf<Operation extends ApiOperation> = (typeof ENDPOINTS)[Operation]['path'];

/** The operation's method and path; a path with `:id` takes the id of the row the call acts on. */
export function endpoint<Operation extends ApiOperation>(
  operation: Operation,
  ...id: PathOf<Operation> extends RouteWithId ? [id: string] : []
): Endpoint {
  const { method, path } = ENDPOINTS[operation];
  return { operation, method, path: id[0] === undefined ? path : withId(path as RouteWithId, id[0]) };
}

interface Request<T> extends Endpoint {
  /** The answer's codec (contract/codecs.ts): one parse checks it and decodes it. */
  readonly answer: z.ZodMiniType<T>;
  readonly body?: unknown;
  /** The whole ledger in an answer that carries one: the page notes its version (decision 0030). */
  readonly ledgerOf?: (answer: T) => LedgerView | null;
}

const loadLedgerChanges = () => import('./ledger-changes.js');

/** The statement calls with their answers' codecs: a lazy chunk loaded by the first statement call, not the first view's. */
const loadStatementCalls = () => import('./statement-calls.js');

const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

export function createApiClient(options: ApiClientOptions) {
  const fetchImpl = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  /** Sends a request with the user's token; a refusal or a failed connection becomes an ApiCallError. */
  async function send({ operation, method, path, body }: Endpoint & { readonly body?: unknown }): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = options.getAccessToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchImpl(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new ApiCallError(operation, 0, UNREACHABLE);
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

  const getLedger = (): Promise<LedgerInfoView> => callLedger({ ...endpoint('getLedger'), answer: ledgerInfoCodec });

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

  /** The statement calls' code; when it does not load, the call fails as if the server could not be reached. */
  async function statementCalls(operation: ApiOperation): Promise<Awaited<ReturnType<typeof loadStatementCalls>>> {
    try {
      return await loadStatementCalls();
    } catch {
      throw new ApiCallError(operation, 0, UNREACHABLE);
    }
  }

  /** A file to save as it came (the ledger's CSV, the whole export): the page does not read it. */
  async function download(file: Endpoint): Promise<Blob> {
    options.onCallStart?.();
    try {
      const response = await send(file);
      try {
        return await response.blob();
      } catch {
        throw new ApiCallError(file.operation, 0, 'The download was cut off. Check your connection and try again.');
      }
    } finally {
      options.onCallEnd?.();
    }
  }

  return {
    getDeposits: (): Promise<DepositsInfoView> => call({ ...endpoint('getDeposits'), answer: depositsInfoCodec }),
    addDeposit: (deposit: DepositInput): Promise<DepositsInfoView> =>
      call({ ...endpoint('addDeposit'), answer: depositsInfoCodec, body: deposit }),
    updateDeposit: (id: string, deposit: DepositInput): Promise<DepositsInfoView> =>
      call({ ...endpoint('updateDeposit', id), answer: depositsInfoCodec, body: deposit }),
    deleteDeposit: (id: string): Promise<DepositsInfoView> => call({ ...endpoint('deleteDeposit', id), answer: depositsInfoCodec }),

    getExpenses: (): Promise<ExpensesInfoView> => call({ ...endpoint('getExpenses'), answer: expensesInfoCodec }),
    addExpense: (expense: ExpenseInput): Promise<ExpensesInfoView> =>
      call({ ...endpoint('addExpense'), answer: expensesInfoCodec, body: expense }),
    updateExpense: (id: string, expense: ExpenseInput): Promise<ExpensesInfoView> =>
      call({ ...endpoint('updateExpense', id), answer: expensesInfoCodec, body: expense }),
    deleteExpense: (id: string): Promise<ExpensesInfoView> => call({ ...endpoint('deleteExpense', id), answer: expensesInfoCodec }),

    getLedger,
    createLedger: (request: CreateLedgerRequest): Promise<LedgerInfoView> =>
      callLedger({ ...endpoint('createLedger'), answer: ledgerInfoCodec, body: request }),
    extendLedger: (request: ExtendLedgerRequest): Promise<LedgerInfoView> =>
      callLedger({ ...endpoint('extendLedger'), answer: ledgerInfoCodec, body: request }),
    addTransaction: (transaction: NewTransaction, held?: HeldLedger): Promise<LedgerInfoView> =>
      writeRow({ ...endpoint('addTransaction'), body: transaction }, held),
    updateTransaction: (transaction: TransactionUpdate, held?: HeldLedger): Promise<LedgerInfoView> =>
      writeRow({ ...endpoint('updateTransaction'), body: transaction }, held),
    deleteTransaction: (id: string, held?: HeldLedger): Promise<LedgerInfoView> => writeRow(endpoint('deleteTransaction', id), held),

    /** What importing the statement would do to the ledger; changes nothing. */
    previewStatement: async (request: StatementPreviewRequest): Promise<StatementPreviewView> =>
      call((await statementCalls('previewStatement')).previewStatementCall(request)),
    importStatement: async (request: StatementImportRequest): Promise<StatementImportView> =>
      callLedger((await statementCalls('importStatement')).importStatementCall(request)),
    exportLedgerCsv: (): Promise<Blob> => download(endpoint('exportLedgerCsv')),
    exportAccount: (): Promise<Blob> => download(endpoint('exportAccount')),
    /** The document as read from the user's file: the server checks all of it. */
    importAccount: (document: unknown): Promise<AccountCounts> =>
      call({ ...endpoint('importAccount'), answer: accountCountsSchema, body: document }),
    deleteAccount: (): Promise<AccountCounts> =>
      call({ ...endpoint('deleteAccount'), answer: accountCountsSchema, body: { confirm: 'DELETE' } }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
