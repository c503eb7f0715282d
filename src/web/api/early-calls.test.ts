/**
 * The first script's calls (decisions 0073, 0109): a successful answer is read as soon as it
 * arrives, so a view can render its first state from it (`inHand`) while the call stays for its load
 * to take; a failed one reaches the client as it came. Only fetch is stubbed.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ledgerEtag } from '../../contract/ledger.js';
import { isoDate } from '../../domain/calendar-date.js';
import type * as ClientModule from './api-client.js';
import type * as EarlyCallsModule from './early-calls.js';

// The page's first paint drops every early call not taken; this project's files share modules, and
// another file's view may have painted already: each test loads the client and its calls afresh.
let createApiClient: typeof ClientModule.createApiClient;
let earlyCallsAnswered: typeof EarlyCallsModule.earlyCallsAnswered;
let sendEarlyCalls: typeof EarlyCallsModule.sendEarlyCalls;
let takeEarlyCall: typeof EarlyCallsModule.takeEarlyCall;

beforeEach(async () => {
  vi.resetModules();
  ({ createApiClient } = await import('./api-client.js'));
  ({ earlyCallsAnswered, sendEarlyCalls, takeEarlyCall } = await import('./early-calls.js'));
});

type Fetch = (path: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

const DEPOSITS = { deposits: [], totalDeposits: 0 };
const EXPENSES = { expenses: [], totalExpenses: 0 };
/** A window of a 3-row ledger as the wire has it, none of its rows answered. */
const WINDOW = {
  window: {
    startDate: '2031-03-01',
    endDate: '2031-03-31',
    openingBalance: 250,
    currentBalance: 250,
    pendingBalance: 100,
    count: 3,
    from: 0,
    transactions: [],
    payPeriods: [],
    payPeriodCount: 0,
    today: '2031-03-01',
    firstBelowZero: null,
  },
};

function answering(status: number, body: unknown) {
  return vi.fn<Fetch>(
    async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', etag: '"v1"' } }),
  );
}

/** The server's one answer to the first reads (decision 0128): each read answered as the test says, in the order asked. */
function answeringReads(reads: Record<string, { status: number; body: unknown; etag?: string }>) {
  return vi.fn<Fetch>(async (url) => {
    const paths = new URL(String(url), 'http://page.test').searchParams.get('paths')?.split(',') ?? [];
    const answers = paths.map((path) => {
      const read = reads[path];
      if (read === undefined) throw new Error(`no answer for ${path}`);
      return { path, status: read.status, etag: read.etag ?? null, body: JSON.stringify(read.body) };
    });
    return new Response(JSON.stringify({ answers }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}

/** A fetch whose answer arrives when the test says. */
function answeringLater() {
  let arrive!: (response: Response) => void;
  const fetchImpl = vi.fn<Fetch>(
    () =>
      new Promise<Response>((resolve) => {
        arrive = resolve;
      }),
  );
  return { fetchImpl, arrive: (body: unknown) => arrive(new Response(JSON.stringify(body), { status: 200 })) };
}

const client = (token: string, fetchImpl: Fetch) => createApiClient({ getAccessToken: () => token, onUnauthorized: vi.fn(), fetchImpl });

describe("the first script's calls", () => {
  it('are in hand once their answers are read, decoded as the view would decode them, and still taken once by its load', async () => {
    const early = answering(200, DEPOSITS);
    sendEarlyCalls('t-hand', ['/api/deposits/retrieve-deposits'], early);
    const later = answering(200, EXPENSES);
    const api = client('t-hand', later);
    await earlyCallsAnswered();
    expect(api.depositsInHand()).toEqual(DEPOSITS);
    expect(api.depositsInHand()).toEqual(DEPOSITS);
    // The load takes the same answer: nothing is sent again.
    await expect(api.getDeposits()).resolves.toEqual(DEPOSITS);
    expect(early).toHaveBeenCalledTimes(1);
    expect(later).not.toHaveBeenCalled();
    // Taken: the next read goes to the server, and nothing is in hand any more.
    expect(api.depositsInHand()).toBeUndefined();
  });

  it('are not in hand before their answers arrive, and the view loads them as it always did', async () => {
    const { fetchImpl, arrive } = answeringLater();
    sendEarlyCalls('t-later', ['/api/deposits/retrieve-deposits'], fetchImpl);
    const api = client('t-later', answering(500, {}));
    expect(api.depositsInHand()).toBeUndefined();
    const loaded = api.getDeposits();
    arrive(DEPOSITS);
    await expect(loaded).resolves.toEqual(DEPOSITS);
  });

  it('keep a failed answer out of hand and give it to the load, which reports it', async () => {
    const early = answering(503, { error: { code: 'service_unavailable', message: 'The database is busy. Try again in a moment.' } });
    sendEarlyCalls('t-failed', ['/api/deposits/retrieve-deposits'], early);
    const api = client('t-failed', answering(200, DEPOSITS));
    await earlyCallsAnswered();
    expect(api.depositsInHand()).toBeUndefined();
    await expect(api.getDeposits()).rejects.toMatchObject({ status: 503, detail: 'The database is busy. Try again in a moment.' });
  });

  it('are only in hand for the token that sent them, and an answer that does not decode is not in hand', async () => {
    sendEarlyCalls(
      't-own',
      ['/api/deposits/retrieve-deposits', '/api/expenses/retrieve-expenses'],
      answeringReads({
        '/api/deposits/retrieve-deposits': { status: 200, body: DEPOSITS },
        '/api/expenses/retrieve-expenses': { status: 200, body: { expenses: 'none' } },
      }),
    );
    await earlyCallsAnswered();
    expect(client('t-other', answering(200, DEPOSITS)).depositsInHand()).toBeUndefined();
    expect(client('t-own', answering(200, DEPOSITS)).expensesInHand()).toBeUndefined();
    expect(client('t-own', answering(200, DEPOSITS)).depositsInHand()).toEqual(DEPOSITS);
  });

  it("leave as one call when there are two or more (decision 0128), each read's answer its own, with its ETag", async () => {
    const { ledgerVersion } = await import('./ledger-version.js');
    const { firstWindowInHand } = await import('./status-moves.js');
    const { firstWindowQuery } = await import('./early-calls.js');
    const today = isoDate('2031-03-01');
    const window = `/api/ledger/retrieve-ledger?${firstWindowQuery(today)}`;
    const early = answeringReads({
      [window]: { status: 200, body: WINDOW, etag: ledgerEtag('v9') },
      '/api/accounts': { status: 200, body: { accounts: [] } },
    });
    sendEarlyCalls('t-one', [window, '/api/accounts'], early, 'budget-7');
    await earlyCallsAnswered();
    expect(early).toHaveBeenCalledOnce();
    const [url, init] = early.mock.calls[0] ?? [];
    expect(String(url)).toBe(`/api/first-reads?${new URLSearchParams({ paths: `${window},/api/accounts` }).toString()}`);
    expect(init?.headers).toEqual({ accept: 'application/json', authorization: 'Bearer t-one', 'Leftover-Budget': 'budget-7' });
    const api = createApiClient({
      getAccessToken: () => 't-one',
      onUnauthorized: vi.fn(),
      fetchImpl: answering(500, {}),
      budget: 'budget-7',
    });
    const first = firstWindowInHand(api, today);
    if (first === undefined || !('window' in first)) throw new Error('no window in hand');
    expect(ledgerVersion(first.window)).toBe('v9');
    const taken = await takeEarlyCall('t-one', '/api/accounts', 'budget-7');
    expect(taken?.status).toBe(200);
    expect(await taken?.json()).toEqual({ accounts: [] });
  });

  it('give a read that failed in its place its own failure, and the others their answers', async () => {
    const notFound = { error: { code: 'not_found', message: 'That account does not exist.' } };
    sendEarlyCalls(
      't-part',
      ['/api/deposits/retrieve-deposits', '/api/expenses/retrieve-expenses'],
      answeringReads({
        '/api/deposits/retrieve-deposits': { status: 200, body: DEPOSITS },
        '/api/expenses/retrieve-expenses': { status: 404, body: notFound },
      }),
    );
    const api = client('t-part', answering(500, {}));
    await expect(api.getExpenses()).rejects.toMatchObject({ status: 404, detail: 'That account does not exist.' });
    await expect(api.getDeposits()).resolves.toEqual(DEPOSITS);
  });

  it("give every read the one call's refusal, as each would have had it", async () => {
    const onUnauthorized = vi.fn();
    const refused = { error: { code: 'unauthorized', message: 'Sign in again.' } };
    sendEarlyCalls('t-refused', ['/api/deposits/retrieve-deposits', '/api/expenses/retrieve-expenses'], answering(401, refused));
    const api = createApiClient({ getAccessToken: () => 't-refused', onUnauthorized, fetchImpl: answering(500, {}) });
    await expect(api.getDeposits()).rejects.toMatchObject({ status: 401, detail: 'Sign in again.' });
    await expect(api.getExpenses()).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
  });

  it('say the server answered something unexpected when the one answer is of another shape', async () => {
    sendEarlyCalls(
      't-shape',
      ['/api/deposits/retrieve-deposits', '/api/expenses/retrieve-expenses'],
      answering(200, { answers: [{ status: 200 }] }),
    );
    const api = client('t-shape', answering(500, {}));
    await expect(api.getDeposits()).rejects.toMatchObject({ detail: 'The server answered something unexpected.' });
    await expect(api.getExpenses()).rejects.toMatchObject({ detail: 'The server answered something unexpected.' });
  });

  it('hand the load a copy of the answer with its status and headers', async () => {
    sendEarlyCalls('t-copy', ['/api/deposits/retrieve-deposits'], answering(200, DEPOSITS));
    await earlyCallsAnswered();
    const taken = await takeEarlyCall('t-copy', '/api/deposits/retrieve-deposits', undefined);
    expect(taken?.status).toBe(200);
    expect(taken?.headers.get('etag')).toBe('"v1"');
    await expect(taken?.json()).resolves.toEqual(DEPOSITS);
  });

  it("sent by the document's own script are the page's: taken once, and the page sends none of its own", async () => {
    // The HTML's script is a bundle of its own (first-reads-inline.ts): its module instance sends the
    // calls and leaves them on the window; the page's modules, evaluated after it, take them there.
    const early = answering(200, DEPOSITS);
    const documentsOwn = await import('./early-calls.js');
    documentsOwn.sendEarlyCalls('t-document', ['/api/deposits/retrieve-deposits'], early);
    documentsOwn.leaveEarlyCallsForThePage();
    try {
      vi.resetModules();
      const pages = await import('./early-calls.js');
      const { createApiClient: pagesClient } = await import('./api-client.js');
      expect(pages.firstReadsSentByTheDocument()).toBe(true);
      await pages.earlyCallsAnswered();
      const later = answering(200, EXPENSES);
      const api = pagesClient({ getAccessToken: () => 't-document', onUnauthorized: vi.fn(), fetchImpl: later });
      expect(api.depositsInHand()).toEqual(DEPOSITS);
      await expect(api.getDeposits()).resolves.toEqual(DEPOSITS);
      expect(early).toHaveBeenCalledTimes(1);
      expect(later).not.toHaveBeenCalled();
      // What the view did not take by its first paint is dropped, wherever it was sent from.
      documentsOwn.sendEarlyCalls('t-document', ['/api/expenses/retrieve-expenses'], answering(200, EXPENSES));
      pages.dropUntakenEarlyCalls();
      expect(pages.takeEarlyCall('t-document', '/api/expenses/retrieve-expenses', undefined)).toBeUndefined();
    } finally {
      delete (globalThis as { leftoverFirstReads?: unknown }).leftoverFirstReads;
    }
  });

  it("hand the Ledger view its first window with its version, read again as the view's first window is (decision 0109)", async () => {
    const { firstWindowInHand, rereadOf } = await import('./status-moves.js');
    const { firstWindowQuery } = await import('./early-calls.js');
    const { ledgerVersion } = await import('./ledger-version.js');
    const today = isoDate('2031-03-01');
    const path = `/api/ledger/retrieve-ledger?${firstWindowQuery(today)}`;
    const early = vi.fn<Fetch>(async () => new Response(JSON.stringify(WINDOW), { status: 200, headers: { etag: ledgerEtag('v7') } }));
    sendEarlyCalls('t-window', [path], early);
    const later = answering(200, WINDOW);
    const api = client('t-window', later);
    expect(firstWindowInHand(api, today)).toBeUndefined();
    await earlyCallsAnswered();

    const first = firstWindowInHand(api, today);
    if (first === undefined || !('window' in first)) throw new Error('no window in hand');
    expect(first.window).toMatchObject({ count: 3, from: 0, openingBalance: 250_00, today: '2031-03-01' });
    // Its first write is based on the version the answer's ETag named, as a loaded window's is.
    expect(ledgerVersion(first.window)).toBe('v7');
    // Another day's window is another call: not in hand.
    expect(firstWindowInHand(api, isoDate('2031-03-02'))).toBeUndefined();
    // Read again (after a write it cannot take in) through the same call, which the load has not taken.
    const reread = rereadOf(first.window);
    if (reread === undefined) throw new Error('the window cannot be read again');
    await expect(reread()).resolves.toMatchObject({ window: { count: 3 } });
    expect(early).toHaveBeenCalledTimes(1);
    expect(later).not.toHaveBeenCalled();
  });

  it("are the page's own when the document sent none", async () => {
    const pages = await import('./early-calls.js');
    expect(pages.firstReadsSentByTheDocument()).toBe(false);
  });
});
