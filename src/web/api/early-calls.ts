/**
 * The first view's data asked for by the first script (issue 35, decision 0073). For a returning
 * tab the token is in sessionStorage already, so main.tsx sends the calls the view at the address
 * reads first as soon as the script runs, before the page's settings, the view's code or React. The
 * api client takes each answer when the view makes the same call (the same path, with the same
 * token), and decodes it as always (decision 0034): a call is never sent twice, and one the view does
 * not make, or makes with another token, is dropped once the view has painted.
 */
import type { IsoDate } from '../../domain/calendar-date.js';
import { ENDPOINTS } from '../../contract/common.js';
import { firstReadsQuery } from '../../contract/first-reads-query.js';
import { BUDGET_HEADER } from './budget-header.js';

/**
 * Rows the Ledger view asks for first (decision 0053): more than a tall monitor's screenful and its
 * overscan, so a user who only pays the next bills, or scrolls a little, never needs more.
 */
export const FIRST_WINDOW_ROWS = 100;

/** The query of the Ledger view's first window, with "today" on the page's clock (decision 0034). */
export function firstWindowQuery(today: IsoDate, limit = FIRST_WINDOW_ROWS): string {
  return new URLSearchParams({ limit: String(limit), today }).toString();
}

/**
 * One call sent early: its answer as the client will take it, and, once a successful answer's body
 * has been read, that body, for a view that renders its first state from it (decision 0109).
 */
interface EarlyCall {
  readonly answer: Promise<Response>;
  /** Settles once the answer is in and, when successful, its body read: never rejects. */
  readonly settled: Promise<void>;
  /** The successful answer's body once read; undefined before, or for a failure. */
  text?: string;
  /** Its ETag (a ledger's version, decision 0030), read with the body: a view that renders from the body notes it. */
  etag?: string | null;
  /** That body parsed, the first time a view asks for it in hand (Plan and the Ledger; Home parses it once, in the client). */
  json?: { readonly value: unknown } | null;
}

/**
 * Where the HTML's own script (first-reads-inline.ts, decision 0121) leaves the calls it sent: it
 * runs as the document is parsed, a separate bundle, before any of the page's modules; the page's
 * modules take them when they first need a call.
 */
interface CallsLeftByTheDocument {
  leftoverFirstReads?: Map<string, EarlyCall>;
}

function leftByTheDocument(): CallsLeftByTheDocument {
  return globalThis as CallsLeftByTheDocument;
}

let held: Map<string, EarlyCall> | undefined;

/** The calls sent early: the HTML's script's when it sent them, else this page's own. */
function sentCalls(): Map<string, EarlyCall> {
  held ??= leftByTheDocument().leftoverFirstReads ?? new Map<string, EarlyCall>();
  return held;
}

/** Whether the HTML's own script sent the first reads (and this page takes its calls). */
export function firstReadsSentByTheDocument(): boolean {
  return leftByTheDocument().leftoverFirstReads !== undefined;
}

/** For the HTML's own script: leaves its calls where the page's script finds them. */
export function leaveEarlyCallsForThePage(): void {
  leftByTheDocument().leftoverFirstReads = sentCalls();
}

/** Whatever the view did not ask for by its first paint it never will: first-reads-now.ts drops it then. */
export function dropUntakenEarlyCalls(): void {
  sentCalls().clear();
}

/** The budget is part of the key: an answer for one budget is never taken by a call for another (decision 0092). */
const keyOf = (token: string, path: string, budget: string | undefined) => `${token} ${budget ?? ''} ${path}`;

/**
 * One read's answer as an early call keeps it: the response the client takes and, for a successful
 * one, its body and ETag, read already.
 */
type ReadAnswer = { readonly response: Response } | { readonly response: Response; readonly text: string; readonly etag: string | null };

/** The answer with its body read: a successful one keeps its body and ETag in hand; a failure goes to the client as it came. */
function withBody(response: Response, text: string, etag: string | null): ReadAnswer {
  return response.ok ? { response, text, etag } : { response };
}

/** A copy in memory of an answer whose body has been read, for the client to read again. */
function copyOf(response: Response, text: string): Response {
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A read sent alone: a successful answer is read at once, while the page's code is still loading, and handed to the client as a copy in memory. */
async function readAtOnce(response: Response): Promise<ReadAnswer> {
  if (!response.ok) return { response };
  const text = await response.text();
  return withBody(copyOf(response, text), text, response.headers.get('etag'));
}

/**
 * The call as the page keeps it: a successful answer's body in hand as soon as it is read (for a view
 * that renders its first state from it); a failure goes to the client as it came, to be reported as always.
 */
function early(read: Promise<ReadAnswer>): EarlyCall {
  const answer = read.then((each) => {
    if ('text' in each) {
      call.text = each.text;
      call.etag = each.etag;
    }
    return each.response;
  });
  const call: EarlyCall = {
    answer,
    settled: answer.then(
      () => undefined,
      () => undefined,
    ),
  };
  return call;
}

/** A status a Response can be made with and carry a body: what a read's answer may have. */
function isBodyStatus(status: unknown): status is number {
  return (
    typeof status === 'number' &&
    Number.isInteger(status) &&
    status >= 200 &&
    status <= 599 &&
    status !== 204 &&
    status !== 205 &&
    status !== 304
  );
}

/**
 * One read's answer inside the first reads' (contract/first-reads.ts), checked by hand: this script
 * carries no schema. A successful read's body is in hand at once, with no second read of a copy: the
 * view's first render waits for it (decision 0109).
 */
function readAnswerOf(part: unknown): ReadAnswer | undefined {
  if (typeof part !== 'object' || part === null) return undefined;
  const { status, etag, body } = part as Record<string, unknown>;
  if (!isBodyStatus(status) || typeof body !== 'string' || (etag !== null && typeof etag !== 'string')) return undefined;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (typeof etag === 'string') headers.etag = etag;
  return withBody(new Response(body, { status, headers }), body, etag);
}

/**
 * The first reads' one answer as each read's own (decision 0128), in the order asked. A refusal of
 * the whole call (a 401, a 429) is each read's; an answer of another shape is each read's too, and
 * the client says the server answered something unexpected, as it would have of the read itself.
 */
async function eachReadsAnswer(answer: Response, count: number): Promise<ReadAnswer[]> {
  const text = await answer.text();
  const asItCame = () => withBody(copyOf(answer, text), text, answer.headers.get('etag'));
  if (!answer.ok) return Array.from({ length: count }, asItCame);
  let parts: unknown;
  try {
    parts = (JSON.parse(text) as { answers?: unknown }).answers;
  } catch {
    parts = undefined;
  }
  const reads = Array.isArray(parts) && parts.length === count ? parts.map(readAnswerOf) : [];
  return reads.length === count && reads.every((read) => read !== undefined) ? reads : Array.from({ length: count }, asItCame);
}

/** The reads as one call, each read's answer its own promise. */
function sentAsOne(paths: readonly string[], headers: Record<string, string>, fetchImpl: typeof fetch): Promise<ReadAnswer>[] {
  const reads = fetchImpl(`${ENDPOINTS.getFirstReads.path}?${firstReadsQuery(paths)}`, { method: 'GET', headers }).then((answer) =>
    eachReadsAnswer(answer, paths.length),
  );
  return paths.map((_, index) => reads.then((each) => each[index] as ReadAnswer));
}

/**
 * Sends the GETs now, as the api client would send them (with the budget header when the address
 * names a budget that is not the personal one); their answers wait for the client to take them.
 * Two or more leave as one call (decision 0128): one request's answer is in 6 to 7 ms sooner than
 * the last of two or three (benchmark 12), and the client still takes each read's answer as its own.
 */
export function sendEarlyCalls(
  token: string,
  paths: readonly string[],
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  budget?: string,
): void {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
  if (budget !== undefined) headers[BUDGET_HEADER] = budget;
  const answers =
    paths.length === 1
      ? [fetchImpl(paths[0] as string, { method: 'GET', headers }).then(readAtOnce)]
      : sentAsOne(paths, headers, fetchImpl);
  paths.forEach((path, index) => {
    const call = early(answers[index] as Promise<ReadAnswer>);
    // A failure is the client's to report when it takes the call; an answer never taken is dropped.
    call.answer.catch(() => undefined);
    sentCalls().set(keyOf(token, path, budget), call);
  });
}

/**
 * Settles once every call sent early has its answer read (or has failed): main.tsx waits for it, a
 * little, before the first render, so the view can paint once, with its data (decision 0109).
 */
export function earlyCallsAnswered(): Promise<void> {
  return Promise.all([...sentCalls().values()].map((call) => call.settled)).then(() => undefined);
}

/**
 * The body of a successful answer to a GET sent early with this token for this budget, if it is in
 * already: a view's first state (decision 0109). The call stays for the client to take.
 */
export function earlyAnswerInHand(
  token: string,
  path: string,
  budget: string | undefined,
): { readonly json: unknown; readonly etag: string | null } | undefined {
  const call = sentCalls().get(keyOf(token, path, budget));
  if (call?.text === undefined) return undefined;
  if (call.json === undefined) {
    try {
      call.json = { value: JSON.parse(call.text) as unknown };
    } catch {
      // Not JSON: not in hand; the client says the server answered something unexpected, as it would have.
      call.json = null;
    }
  }
  return call.json === null ? undefined : { json: call.json.value, etag: call.etag ?? null };
}

/** The answer to a GET sent early with this token for this budget, once: the next same call goes to the server. */
export function takeEarlyCall(token: string, path: string, budget: string | undefined): Promise<Response> | undefined {
  const key = keyOf(token, path, budget);
  const calls = sentCalls();
  const call = calls.get(key);
  calls.delete(key);
  return call?.answer;
}
