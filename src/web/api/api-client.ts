/**
 * The only code that calls fetch: attaches the access token, checks every answer against the
 * contract and decodes it once (decision 0034: Cents and IsoDate, never dollars or plain date
 * strings past this point), and turns failures into the catalogue's messages plus the server's own.
 * Each call's method, path and failure message are its row of the endpoint table (decision 0036).
 */
import * as z from 'zod/mini';
import {
  type DepositsInfoView,
  depositsInfoCodec,
  type ExpensesInfoView,
  expensesInfoCodec,
  forecastCodec,
  type ForecastView,
  ledgerInfoCodec,
  type LedgerInfoView,
} from '../../contract/codecs.js';
import { type OperationId, UNDO_HEADER } from '../../contract/common.js';
import type { DepositInput } from '../../contract/deposit-input.js';
import { errorBodySchema } from '../../contract/errors.js';
import type { ExpenseInput } from '../../contract/expense-input.js';
import type { CreateLedgerRequest, ExtendLedgerRequest, NewTransaction, TransactionUpdate } from '../../contract/ledger-requests.js';
import type { StatementImportRequest, StatementPreviewRequest } from '../../contract/statement-requests.js';
import type { LedgerChangesView } from '../../contract/ledger-changes-codec.js';
import type { StatementImportView, StatementPreviewView } from '../../contract/statement-codecs.js';
import { formatDate, isoDate } from '../../domain/calendar-date.js';
import { ApiCallError } from './api-error.js';
import { BUDGET_HEADER } from './budget-header.js';
import {
  type CallInHand,
  type Endpoint,
  endpoint,
  type Endpoints,
  type HeldLedger,
  type HeldLedgerInfo,
  type LedgerRead,
  type LedgerReadInHand,
  type Request,
} from './api-request.js';
import { earlyAnswerInHand, takeEarlyCall } from './early-calls.js';
import { noteLedgerVersion } from './ledger-version.js';

// The client is the api folder's face: the page imports what a call is and how one fails from
// here. The modules below it (the error, a call's shape) are apart so that the lazy chunks the
// client loads can use them without importing the client back.
export { ApiCallError } from './api-error.js';
export { endpoint, type Endpoints, type HeldLedger, type HeldLedgerInfo, type LedgerRead } from './api-request.js';

interface ApiClientOptions {
  readonly getAccessToken: () => string | undefined;
  /** A 401: the token is gone or refused; the page signs in again. */
  readonly onUnauthorized: () => void;
  /** Counts calls in flight, for the spinner. */
  readonly onCallStart?: () => void;
  readonly onCallEnd?: () => void;
  /** A write answered a `Leftover-Undo` token (issue 24): the page offers to undo it, saying what happened. */
  readonly onUndoable?: (token: string, message: string) => void;
  readonly fetchImpl?: typeof fetch;
  /**
   * The budget in view when it is not the personal one (decision 0092): every call names it in the
   * `Leftover-Budget` header (decision 0088). Undefined: no header, as before budgets were shared.
   */
  readonly budget?: string;
  /** A call naming that budget answered 404 "No such budget.": the user is no longer its member. */
  readonly onBudgetGone?: () => void;
}

/** What the server answers a call naming a budget the caller is not a member of (decision 0088). */
const NO_SUCH_BUDGET = 'No such budget.';

const loadLedgerChanges = () => import('./ledger-changes.js');

/** The changes answer's codec alone, for a view that holds no ledger to apply it to (Home). */
const loadChangesCodec = () => import('../../contract/ledger-changes-codec.js');

/** The statement calls with their answers' codecs: a lazy chunk loaded by the first statement call, not the first view's. */
const loadStatementCalls = () => import('./statement-calls.js');

const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

/** A lazy chunk of the client's own code; when it does not load, the call fails as if the server could not be reached. */
async function codeFor<Code>(load: () => Promise<Code>, operation: OperationId): Promise<Code> {
  try {
    return await load();
  } catch {
    throw new ApiCallError(operation, 0, UNREACHABLE);
  }
}

/** `at`: where the ledger calls go; the primary account's `/api/ledger` unless an account's client asks otherwise. */
export function createApiClient(options: ApiClientOptions, at: Endpoints = endpoint): ApiClient {
  return {
    ...clientCalls(options, at),
    withEndpoints: (other) => createApiClient(options, other),
    inBackground: () => createApiClient(withoutSpinner(options), at),
  };
}

/** The options without the spinner's counting: calls made with them never show the overlay. */
function withoutSpinner({ onCallStart, onCallEnd, ...rest }: ApiClientOptions): ApiClientOptions {
  void onCallStart;
  void onCallEnd;
  return rest;
}

function clientCalls(options: ApiClientOptions, at: Endpoints) {
  const fetchImpl = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  /** Sends a request with the user's token; a refusal or a failed connection becomes an ApiCallError. */
  async function send({
    operation,
    method,
    path,
    body,
    failure,
    personal,
  }: Endpoint & { readonly body?: unknown; readonly failure?: string; readonly personal?: boolean }): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = options.getAccessToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const budget = personal ? undefined : options.budget;
    if (budget !== undefined) headers[BUDGET_HEADER] = budget;
    // The first view's reads may have left with the first script already (decision 0073).
    const early = method === 'GET' && token ? takeEarlyCall(token, path, budget) : undefined;
    let response: Response;
    try {
      response = await (early ?? fetchImpl(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    } catch {
      throw new ApiCallError(operation, 0, UNREACHABLE, {}, failure);
    }
    if (!response.ok) {
      if (response.status === 401) options.onUnauthorized();
      const payload: unknown = await response.json().catch(() => undefined);
      const error = errorBodySchema.safeParse(payload);
      // Only a call that named the budget can say it is gone; a row's own 404 says "No such ...".
      if (response.status === 404 && budget !== undefined && error.success && error.data.error.message === NO_SUCH_BUDGET) {
        options.onBudgetGone?.();
      }
      throw new ApiCallError(
        operation,
        response.status,
        error.success ? error.data.error.message : `The server answered ${response.status}.`,
        error.success ? (error.data.error.fields ?? {}) : {},
        failure,
      );
    }
    return response;
  }

  async function call<T>({ answer, ledgerOf, undo, ...request }: Request<T>): Promise<T> {
    options.onCallStart?.();
    try {
      const response = await send(request);
      const payload: unknown = await response.json().catch(() => undefined);
      const parsed = answer.safeParse(payload);
      if (!parsed.success) {
        throw new ApiCallError(request.operation, response.status, 'The server answered something unexpected.', {}, request.failure);
      }
      if (ledgerOf) noteLedgerVersion(ledgerOf(parsed.data), response.headers.get('etag'));
      const undoToken = response.headers.get(UNDO_HEADER);
      if (undoToken && undo !== undefined) options.onUndoable?.(undoToken, typeof undo === 'function' ? undo(parsed.data) : undo);
      return parsed.data;
    } finally {
      options.onCallEnd?.();
    }
  }

  /**
   * The answer to a GET the first script sent (decision 0073), decoded, when it is in already: a
   * view's first state, so it paints once, with its data (decision 0109). The call itself stays for
   * the view's load to take, which then finds the same answer; undefined when it is not in, failed,
   * or does not decode, and the view loads as it always did. A ledger's version is noted as a
   * call's is, so the view's first write is based on it.
   */
  function inHand<T>({ path, answer, ledgerOf }: CallInHand<T>): T | undefined {
    const token = options.getAccessToken();
    const body = token === undefined ? undefined : earlyAnswerInHand(token, path, options.budget);
    if (body === undefined) return undefined;
    const parsed = answer.safeParse(body.json);
    if (!parsed.success) return undefined;
    if (ledgerOf) noteLedgerVersion(ledgerOf(parsed.data), body.etag);
    return parsed.data;
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

  /** The whole ledger; or what `read` makes of the call: the Ledger view asks for a window of it (decision 0053). */
  const getLedger = (read: LedgerRead = callLedger): Promise<HeldLedgerInfo> => read({ ...at('getLedger'), answer: ledgerInfoCodec });
  /** The same, read from an answer in hand (decision 0109): the Ledger view's first window. */
  const getLedgerInHand = (read: LedgerReadInHand): HeldLedgerInfo | undefined => read({ ...at('getLedger'), answer: ledgerInfoCodec });

  /**
   * A write of one ledger row by the page (decision 0030): while the page holds a ledger it asks
   * for the changes only and applies them to the ledger it holds when the answer arrives; when
   * they are based on another version (another tab, a schedule change came between) or do not add
   * up, it reloads the whole ledger instead.
   */
  async function writeRow(request: Omit<Request<unknown>, 'answer'>, held: HeldLedger | undefined): Promise<HeldLedgerInfo> {
    // Without a ledger held, or when the changes' code does not load (the network went), the whole ledger still works.
    const changesCode = held?.() ? await loadLedgerChanges().catch(() => null) : null;
    return changesCode && held
      ? changesCode.writeWithChanges((answer) => call({ ...request, path: `${request.path}?answer=changes`, answer }), held, getLedger)
      : callLedger({ ...request, answer: ledgerInfoCodec });
  }

  /** A write of one row answered by its changes alone, for a view that holds no ledger to apply them to (Home). */
  async function writeRowChanges(request: Omit<Request<unknown>, 'answer'>): Promise<LedgerChangesView> {
    const { ledgerChangesCodec } = await codeFor(loadChangesCodec, request.operation);
    return (await call({ ...request, path: `${request.path}?answer=changes`, answer: ledgerChangesCodec })).changes;
  }

  /** The statement calls' code. */
  const statementCalls = (operation: OperationId) => codeFor(loadStatementCalls, operation);

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
    /** The deposits the first script asked for, when their answer is in (decision 0109). */
    depositsInHand: (): DepositsInfoView | undefined => inHand({ ...endpoint('getDeposits'), answer: depositsInfoCodec }),
    addDeposit: (deposit: DepositInput): Promise<DepositsInfoView> =>
      call({ ...endpoint('addDeposit'), answer: depositsInfoCodec, body: deposit, undo: `Added ${deposit.name}.` }),
    updateDeposit: (id: string, deposit: DepositInput): Promise<DepositsInfoView> =>
      call({ ...endpoint('updateDeposit', id), answer: depositsInfoCodec, body: deposit, undo: `Changed ${deposit.name}.` }),
    deleteDeposit: (id: string, name?: string): Promise<DepositsInfoView> =>
      call({ ...endpoint('deleteDeposit', id), answer: depositsInfoCodec, undo: deletedMessage(name, 'the deposit') }),

    getExpenses: (): Promise<ExpensesInfoView> => call({ ...endpoint('getExpenses'), answer: expensesInfoCodec }),
    /** The expenses the first script asked for, when their answer is in (decision 0109). */
    expensesInHand: (): ExpensesInfoView | undefined => inHand({ ...endpoint('getExpenses'), answer: expensesInfoCodec }),
    addExpense: (expense: ExpenseInput): Promise<ExpensesInfoView> =>
      call({ ...endpoint('addExpense'), answer: expensesInfoCodec, body: expense, undo: `Added ${expense.name}.` }),
    updateExpense: (id: string, expense: ExpenseInput): Promise<ExpensesInfoView> =>
      call({ ...endpoint('updateExpense', id), answer: expensesInfoCodec, body: expense, undo: `Changed ${expense.name}.` }),
    deleteExpense: (id: string, name?: string): Promise<ExpensesInfoView> =>
      call({ ...endpoint('deleteExpense', id), answer: expensesInfoCodec, undo: deletedMessage(name, 'the expense') }),

    getLedger,
    getLedgerInHand,
    /** Home's answer (issue 24): the forecast with the next 14 days' rows, not the whole ledger. 404 while there is no ledger. */
    getForecast: (): Promise<ForecastView> => call({ ...at('getForecast'), answer: forecastCodec }),
    createLedger: (request: CreateLedgerRequest): Promise<LedgerInfoView> =>
      callLedger({ ...at('createLedger'), answer: ledgerInfoCodec, body: request }),
    extendLedger: (request: ExtendLedgerRequest): Promise<LedgerInfoView> =>
      callLedger({
        ...at('extendLedger'),
        answer: ledgerInfoCodec,
        body: request,
        undo: `Extended the ledger to ${formatDate(isoDate(request.endDate))}.`,
      }),
    addTransaction: (transaction: NewTransaction, held?: HeldLedger): Promise<HeldLedgerInfo> =>
      writeRow({ ...at('addTransaction'), body: transaction, undo: `Added ${transaction.name}.` }, held),
    /** `message`: what the change is in words, when it is more than an edit ("Paid Rent."). */
    updateTransaction: (
      transaction: TransactionUpdate,
      held?: HeldLedger,
      message = `Changed ${transaction.name}.`,
    ): Promise<HeldLedgerInfo> => writeRow({ ...at('updateTransaction'), body: transaction, undo: message }, held),
    deleteTransaction: (id: string, held?: HeldLedger, name?: string): Promise<HeldLedgerInfo> =>
      writeRow({ ...at('deleteTransaction', id), undo: deletedMessage(name, 'the transaction') }, held),
    /**
     * A status move from a view that does not hold the whole ledger (Home): answers only what the
     * write changed, with the new balances (decision 0030's changes answer).
     */
    moveRowStatus: (transaction: TransactionUpdate, message: string): Promise<LedgerChangesView> =>
      writeRowChanges({ ...at('updateTransaction'), body: transaction, undo: message }),
    /** Add Transaction from a view that does not hold the whole ledger (Home): answers only what changed. */
    addTransactionChanges: (transaction: NewTransaction): Promise<LedgerChangesView> =>
      writeRowChanges({ ...at('addTransaction'), body: transaction, undo: `Added ${transaction.name}.` }),
    /** Puts back what the write with this token changed (issue 24); answers what that write answered. */
    undo: (token: string): Promise<UndoneAnswer> =>
      call({
        ...endpoint('undo'),
        answer: undoneAnswerCodec,
        body: { token },
        ledgerOf: (answer) => ('ledger' in answer ? answer.ledger : null),
      }),

    /** What importing the statement would do to the ledger; changes nothing. */
    previewStatement: async (request: StatementPreviewRequest): Promise<StatementPreviewView> =>
      call((await statementCalls('previewStatementPrimary')).previewStatementCall(at, request)),
    importStatement: async (request: StatementImportRequest): Promise<StatementImportView> =>
      callLedger({ ...(await statementCalls('importStatementPrimary')).importStatementCall(at, request), undo: importedMessage }),
    exportLedgerCsv: (): Promise<Blob> => download(at('exportLedgerCsv')),
    /** Any call of the table, for the calls whose code loads later (the accounts', your data's): not the first view's. */
    request: call,
    /** Any GET's answer the first script sent, when it is in (decision 0109). */
    inHand,
    /** Any file of the table, for the same (your data's export). */
    download,
  };
}

export type ApiClient = ReturnType<typeof clientCalls> & {
  /** The same client with its ledger calls sent elsewhere: one account's ledger (account-calls.ts). */
  readonly withEndpoints: (other: Endpoints) => ApiClient;
  /**
   * The same client for reads the page makes on its own once the view has painted (the names the
   * Edit dialog shows, the budget list): the full-screen spinner does not cover the page while they
   * run, so a tap on the view is never caught by it (decision 0120). What a user asks for still shows it.
   */
  readonly inBackground: () => ApiClient;
};

/** "Imported 8 statement rows.": the rows the import matched or added. */
function importedMessage({ imported }: StatementImportView): string {
  const rows = imported.matched + imported.added;
  return `Imported ${rows} statement ${rows === 1 ? 'row' : 'rows'}.`;
}

/** "Deleted Phone.", or what was deleted when its name is not known. */
function deletedMessage(name: string | undefined, what: string): string {
  return `Deleted ${name ?? what}.`;
}

/** What an undo answers: the undone write's answer (the ledger, the deposits or the expenses). */
const undoneAnswerCodec = z.union([ledgerInfoCodec, depositsInfoCodec, expensesInfoCodec]);
export type UndoneAnswer = z.output<typeof undoneAnswerCodec>;
