/**
 * What a call is (its row of the endpoint table, decision 0036, and its answer's codec) and what
 * the Ledger view holds of the ledger. Below the client: the statement calls, the changes' code
 * and the ledger windows, which the client loads lazily, build on these without importing it.
 */
import type * as z from 'zod/mini';
import type { LedgerInfoView, LedgerView } from '../../contract/codecs.js';
import {
  type AliasedOperation,
  type ApiOperation,
  type EndpointRow,
  ENDPOINTS,
  type HttpMethod,
  type OperationId,
  type PrimaryPathOf,
  primaryOperationId,
  type RouteWithId,
  withId,
} from '../../contract/common.js';
import type { LedgerWindowInfoView, LedgerWindowView } from '../../contract/ledger-window-codec.js';

/** A call as its row of the endpoint table gives it, named by its operationId, with the row's id in its path. */
export interface Endpoint {
  readonly operation: OperationId;
  readonly method: HttpMethod;
  readonly path: string;
}

/**
 * The operation's method and path as the primary account's client sends it: an account's ledger
 * call at its alias (`/api/ledger/...`, decision 0059), every other call at its own path. A path
 * with `:id` takes the id of the row the call acts on.
 */
export function endpoint<Operation extends ApiOperation>(
  operation: Operation,
  ...id: PrimaryPathOf<Operation> extends RouteWithId ? [id: string] : []
): Endpoint {
  const { method, path, primary }: EndpointRow = ENDPOINTS[operation];
  const sent = primary?.path ?? path;
  return {
    operation: primary ? primaryOperationId(operation as AliasedOperation) : operation,
    method,
    path: id[0] === undefined ? sent : withId(sent as RouteWithId, id[0]),
  };
}

/** How the client finds a call's method and path: the primary account's (endpoint), or one account's (account-calls.ts). */
export type Endpoints = typeof endpoint;

export interface Request<T> extends Endpoint {
  /** The answer's codec (contract/codecs.ts): one parse checks it and decodes it. */
  readonly answer: z.ZodMiniType<T>;
  readonly body?: unknown;
  /** The whole ledger (or a window of it) in an answer that carries one: the page notes its version (decision 0030). */
  readonly ledgerOf?: (answer: T) => LedgerView | LedgerWindowView | null;
  /** What the write did, in words, should the server answer it with an undo token ("Paid Rent."). */
  readonly undo?: string | ((answer: T) => string);
  /**
   * What the page says when the call fails, for an operation that sets several things (PATCH /api/me:
   * the time zone, "Keep at least", everyday spending), so each names itself; else its row's words.
   */
  readonly failure?: string;
  /**
   * Sent without the budget header whatever budget is in view (decision 0092): a call about the
   * person, not the budget (the browser's own zone at sign-in, decision 0088).
   */
  readonly personal?: boolean;
}

/**
 * The ledger the page holds at the moment it is asked (when an answer arrives): the whole of it, or
 * the window of it the Ledger view shows first (decision 0053), or null while it holds none.
 */
export type HeldLedger = () => LedgerView | LedgerWindowView | null;

/**
 * What the Ledger view holds: the whole ledger, or a window of it (decision 0053). A window has no
 * `ledger`, so code that reads one finds none rather than a part taken for the whole.
 */
export type HeldLedgerInfo = LedgerInfoView | (LedgerWindowInfoView & { readonly ledger?: undefined });

/**
 * How GET retrieve-ledger is sent: as the whole ledger's call, or as the Ledger view sends it to
 * ask for a window of the ledger (decision 0053), given the call as it would be sent for the whole.
 */
export type LedgerRead = (whole: Omit<Request<LedgerInfoView>, 'ledgerOf'>) => Promise<HeldLedgerInfo>;

/** A LedgerRead of an answer the first script's call has in already (decision 0109): undefined when it has not. */
export type LedgerReadInHand = (whole: Omit<Request<LedgerInfoView>, 'ledgerOf'>) => HeldLedgerInfo | undefined;

/** The part of a call that finds its answer in hand: where it goes, how its answer decodes, and the ledger it carries. */
export type CallInHand<T> = Pick<Request<T>, 'path' | 'answer' | 'ledgerOf'>;

/**
 * What reading a window of the ledger needs of the client: any call of the table, the answer to one
 * in hand, and the ledger read a given way, now or in hand.
 */
export interface LedgerReader {
  readonly request: <T>(request: Request<T>) => Promise<T>;
  readonly inHand: <T>(request: CallInHand<T>) => T | undefined;
  readonly getLedger: (read?: LedgerRead) => Promise<HeldLedgerInfo>;
  readonly getLedgerInHand: (read: LedgerReadInHand) => HeldLedgerInfo | undefined;
}
