/**
 * A SimpleFIN v2 server for tests and for trying bank sync on one machine (issue 37, item 7;
 * decision 0079). It speaks the protocol as protocol-v2.md of simplefin.github.com writes it and as
 * the SimpleFIN Bridge behaves where that page is silent: a Setup Token claims once (a second POST
 * answers 403), `/accounts` checks Basic auth and honours `start-date` (inclusive), `end-date`
 * (exclusive), `pending=1`, repeated `account` and `balances-only=1`, caps a range over 90 days with
 * the Bridge's own `gen.api` warning, and counts requests per Access URL and day (a warning in
 * `errlist` past `warnAfter`, then 403 for good past `blockAfter`: stricter than the Bridge's 48 and
 * 96, so a client that keeps to 24 a day never sees either).
 *
 * Tests start it in-process (startSimplefinSimulator) and drive it through its methods; a test that
 * runs it as another process (npm run simplefin:simulator) drives it through the same things as
 * HTTP under /control/ (see CONTROL below). Its clock can be set; its data are named scenarios that
 * move a step at a time (a pending transaction, then posted under a new id), each dated from the
 * clock when it was loaded or stepped, or accounts given outright (useData: benchmark 14's). Every request is recorded (path, query, the clock's time, the
 * Access URL's user name: never a password) so tests can count requests and window lengths.
 *
 * Loopback only, and no secret of anyone's: the control API has no authentication.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { decimalCents } from '../../src/domain/bank-sync/bridge.js';

const DAY = 86_400;
/** The Bridge caps `end-date - start-date` at 90 days. */
const MAX_RANGE_SECONDS = 90 * DAY;
const ROOT = '/simplefin';

/** One transaction as the bridge sends it; `amount` verbatim, so a scenario can send "100.5" or "12,50". */
interface SimTransaction {
  readonly id: string;
  /** Unix seconds; 0 while pending. */
  readonly posted: number;
  readonly transactedAt?: number;
  readonly amount: string;
  readonly description: string;
  readonly pending?: boolean;
}

interface SimAccount {
  readonly id: string;
  readonly name: string;
  readonly connectionId: string;
  readonly currency: string;
  /** Cents before every transaction listed: the balance is this plus every posted amount. */
  readonly opening: number;
  /** The balance as sent, when a scenario wants a spelling of its own ("100.5"). */
  readonly balanceText?: string;
  readonly transactions: readonly SimTransaction[];
}

interface SimConnection {
  readonly id: string;
  readonly name: string;
  readonly orgName: string;
}

/** What the bridge holds: named scenarios make it, and useData sets it outright (benchmark 14). */
export interface SimData {
  readonly connections: readonly SimConnection[];
  readonly accounts: readonly SimAccount[];
}

export const SCENARIOS = [
  /** A checking, a savings, a card and a euro account with 180 days of history and one pending purchase. */
  'default',
  /** Step 0: a pending $4.50 coffee; step 1: it is gone, posted under a new id the day of the step. */
  'pending-posted-new-id',
  /** Step 0: a pending $40.00 dinner; step 1: posted under a new id as $47.00 with the tip. */
  'pending-posted-tip',
  /** Step 0: a pending $150.00 hotel hold; step 1: gone, never posted. */
  'pending-dropped',
  /** Two identical $3.75 fares, the same day, with different ids. */
  'twin-purchases',
  /** Step 0: Checking; step 1: the bank relinked at the bridge: a new account id, its transactions under new ids. */
  'account-relinked',
  /** Checking's balance is "100.5", after a deposit of "100.5": $100.50 both. */
  'balance-100.5',
  /** Three transactions, one with the amount "12,50", which no SimpleFIN client should read. */
  'bad-amount',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

const BANK: SimConnection = { id: 'CON-simulated-bank', name: 'Simulated Bank', orgName: 'Simulated Bank' };

function checking(transactions: SimTransaction[], opening = 150_000, extra: Partial<SimAccount> = {}): SimAccount {
  return { id: 'ACT-checking', name: 'Checking', connectionId: BANK.id, currency: 'USD', opening, transactions, ...extra };
}

/** A posted transaction `daysAgo` days before `at`. */
function posted(id: string, at: number, daysAgo: number, amount: string, description: string): SimTransaction {
  const when = at - daysAgo * DAY;
  return { id, posted: when, transactedAt: when, amount, description };
}

function pending(id: string, at: number, daysAgo: number, amount: string, description: string): SimTransaction {
  return { id, posted: 0, transactedAt: at - daysAgo * DAY, amount, description, pending: true };
}

/**
 * A purchase made the day before `at`: pending until the scenario's first step, then posted at that
 * step under a new id, for the amount it finally took (`amounts`: pending, then posted).
 */
function pendingThenPosted(
  at: number,
  stepAt: number | undefined,
  ids: { readonly pending: string; readonly posted: string },
  [pendingAmount, postedAmount]: readonly [string, string],
  description: string,
): SimTransaction {
  if (stepAt === undefined) return pending(ids.pending, at, 1, pendingAmount, description);
  return { id: ids.posted, posted: stepAt, transactedAt: at - DAY, amount: postedAmount, description };
}

/** A little history before a scenario's own transactions, so a first sync has something to match. */
function history(at: number): SimTransaction[] {
  return [posted('TRN-paycheck', at, 10, '1500.00', 'ACME PAYROLL'), posted('TRN-groceries', at, 6, '-82.17', 'FRESH MARKET')];
}

function defaultData(at: number): SimData {
  const checkingHistory: SimTransaction[] = [];
  for (let day = 180; day >= 1; day -= 1) {
    if (day % 14 === 3) checkingHistory.push(posted(`TRN-pay-${day}`, at, day, '2150.00', 'ACME PAYROLL'));
    if (day % 30 === 5) checkingHistory.push(posted(`TRN-rent-${day}`, at, day, '-1200.00', 'OAK STREET APARTMENTS'));
    if (day % 7 === 2) checkingHistory.push(posted(`TRN-food-${day}`, at, day, '-85.20', 'FRESH MARKET'));
  }
  checkingHistory.push(pending('TRN-pending-coffee', at, 1, '-4.50', 'CORNER COFFEE'));
  const card: SimTransaction[] = [];
  for (let day = 170; day >= 1; day -= 11) card.push(posted(`TRN-card-${day}`, at, day, '-42.99', 'STREAMING SERVICE'));
  return {
    connections: [BANK, { id: 'CON-simulated-credit-union', name: 'Simulated Credit Union', orgName: 'Simulated Credit Union' }],
    accounts: [
      checking(checkingHistory),
      {
        id: 'ACT-savings',
        name: 'Savings',
        connectionId: BANK.id,
        currency: 'USD',
        opening: 500_000,
        transactions: [posted('TRN-interest-1', at, 60, '1.25', 'INTEREST'), posted('TRN-interest-2', at, 30, '1.31', 'INTEREST')],
      },
      {
        id: 'ACT-card',
        name: 'Visa Card',
        connectionId: 'CON-simulated-credit-union',
        currency: 'USD',
        opening: -10_000,
        transactions: card,
      },
      { id: 'ACT-euro', name: 'Euro Account', connectionId: BANK.id, currency: 'EUR', opening: 10_000, transactions: [] },
    ],
  };
}

/** A scenario's data: `at` is the clock when it was loaded, `steps` the clock at each step taken since. */
function scenarioData(name: ScenarioName, at: number, steps: readonly number[]): SimData {
  const stepAt = steps[0];
  const one = (account: SimAccount): SimData => ({ connections: [BANK], accounts: [account] });
  switch (name) {
    case 'default':
      return defaultData(at);
    case 'pending-posted-new-id':
      return one(
        checking([
          ...history(at),
          pendingThenPosted(
            at,
            stepAt,
            { pending: 'TRN-pending-coffee', posted: 'TRN-posted-coffee' },
            ['-4.50', '-4.50'],
            'CORNER COFFEE',
          ),
        ]),
      );
    case 'pending-posted-tip':
      return one(
        checking([
          ...history(at),
          pendingThenPosted(at, stepAt, { pending: 'TRN-pending-dinner', posted: 'TRN-posted-dinner' }, ['-40.00', '-47.00'], 'BISTRO 21'),
        ]),
      );
    case 'pending-dropped':
      return one(
        checking([...history(at), ...(stepAt === undefined ? [pending('TRN-pending-hotel', at, 1, '-150.00', 'HOTEL HOLD')] : [])]),
      );
    case 'twin-purchases':
      return one(
        checking([
          ...history(at),
          posted('TRN-fare-1', at, 2, '-3.75', 'CITY TRANSIT FARE'),
          posted('TRN-fare-2', at, 2, '-3.75', 'CITY TRANSIT FARE'),
        ]),
      );
    case 'account-relinked': {
      const transactions = history(at);
      if (stepAt === undefined) return one(checking(transactions));
      return one(
        checking(
          transactions.map((transaction) => ({ ...transaction, id: `${transaction.id}-relinked` })),
          150_000,
          { id: 'ACT-checking-relinked' },
        ),
      );
    }
    case 'balance-100.5':
      return one(checking([posted('TRN-deposit', at, 3, '100.5', 'CASH DEPOSIT')], 0, { balanceText: '100.5' }));
    case 'bad-amount':
      return one(
        checking([
          posted('TRN-good-1', at, 5, '-20.00', 'HARDWARE STORE'),
          posted('TRN-bad', at, 4, '12,50', 'REFUND WITH A COMMA'),
          posted('TRN-good-2', at, 3, '-7.25', 'BAKERY'),
        ]),
      );
  }
}

/** One entry of `errlist` as the protocol writes it. */
export interface ErrEntry {
  readonly code: string;
  readonly msg: string;
  readonly conn_id?: string;
  readonly account_id?: string;
}

/** What the simulator answers instead of the truth, until cleared (or for `times` requests). */
export type Fault =
  | { readonly kind: 'status'; readonly status: number }
  /** `act.failed` leaves its account out, `act.missingdata` halves its transactions, `con.auth` leaves its connection's accounts out. */
  | { readonly kind: 'errlist'; readonly errors: readonly ErrEntry[] }
  | { readonly kind: 'html-502' }
  | { readonly kind: 'redirect'; readonly location?: string }
  | { readonly kind: 'invalid-json' }
  /** A valid answer of about this many bytes, sent in chunks without a length. */
  | { readonly kind: 'oversized'; readonly bytes: number }
  /** The headers at once, the body after this long. */
  | { readonly kind: 'slow'; readonly delayMs: number };

export interface FaultSetting {
  readonly fault: Fault;
  /** `accounts` (the default), `claim` or both. */
  readonly on?: 'accounts' | 'claim' | 'both';
  /** How many requests it answers before the truth comes back; every one until cleared when absent. */
  readonly times?: number;
  /** How many requests get the truth first (a range's second window fails, say). */
  readonly after?: number;
}

export interface RecordedRequest {
  readonly method: string;
  /** The path alone, as the server saw it: /simplefin/accounts, /simplefin/claim/<token>. */
  readonly path: string;
  readonly query: Readonly<Record<string, readonly string[]>>;
  /** The simulator's clock when it came, as an ISO instant. */
  readonly at: string;
  /** The Access URL's user name when Basic auth named a known one; never its password. */
  readonly user: string | null;
  readonly status: number;
  /** `end-date - start-date` in days as asked (before any cap), when both were given. */
  readonly windowDays: number | null;
}

export interface Quota {
  /** Requests in a day (per Access URL, the clock's UTC day) before each answer carries a warning. */
  readonly warnAfter: number;
  /** Requests in a day after which the Access URL is disabled: 403 from then on, until reset. */
  readonly blockAfter: number;
}

const DEFAULT_QUOTA: Quota = { warnAfter: 24, blockAfter: 48 };

export interface SimplefinSimulator {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** A new Setup Token: base64 of a claim URL that claims once. */
  setupToken(): string;
  /** An Access URL claimed here and now, for tests that do not test the claim. */
  accessUrl(): string;
  /** Every Access URL password handed out so far: what a test greps logs, answers and exports for. */
  issuedPasswords(): string[];
  readonly requests: readonly RecordedRequest[];
  /** Requests to /accounts, the ones the quota counts. */
  accountRequests(): RecordedRequest[];
  clearRequests(): void;
  scenario(name: ScenarioName): void;
  /** The scenario's next step (posting a pending, relinking), dated by the clock now. */
  step(): void;
  /** These connections and accounts, dated as given, instead of a scenario's, until the next scenario or reset. */
  useData(data: SimData): void;
  now(): Date;
  setClock(now: Date): void;
  advance(seconds: number): void;
  fail(setting: FaultSetting): void;
  clearFault(): void;
  setQuota(quota: Quota): void;
  /** Back to the default scenario, no fault, the default quota, no request counted, nothing disabled, no request recorded. */
  reset(): void;
  close(): Promise<void>;
}

export interface SimulatorOptions {
  readonly port?: number;
  /** The clock's start; it follows real time until set. */
  readonly now?: Date;
}

function cents(text: string): number {
  return decimalCents(text) ?? 0;
}

function money(value: number): string {
  const sign = value < 0 ? '-' : '';
  const absolute = Math.abs(value);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** A whole number from the query, or undefined. */
function integerParameter(query: URLSearchParams, name: string): number | undefined | 'bad' {
  const text = query.get(name);
  if (text === null) return undefined;
  return /^\d{1,12}$/.test(text) ? Number(text) : 'bad';
}

function basicUser(header: string | undefined): { user: string; password: string } | null {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match?.[1]) return null;
  const text = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? null : { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

const faultSchema: z.ZodType<Fault> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('status'), status: z.number().int().min(200).max(599) }),
  z.object({
    kind: z.literal('errlist'),
    errors: z.array(z.object({ code: z.string(), msg: z.string(), conn_id: z.string().optional(), account_id: z.string().optional() })),
  }),
  z.object({ kind: z.literal('html-502') }),
  z.object({ kind: z.literal('redirect'), location: z.string().optional() }),
  z.object({ kind: z.literal('invalid-json') }),
  z.object({ kind: z.literal('oversized'), bytes: z.number().int().min(1).max(200_000_000) }),
  z.object({ kind: z.literal('slow'), delayMs: z.number().int().min(0).max(600_000) }),
]);

const dataSchema: z.ZodType<SimData> = z.object({
  connections: z.array(z.object({ id: z.string(), name: z.string(), orgName: z.string() })),
  accounts: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      connectionId: z.string(),
      currency: z.string(),
      opening: z.number().int(),
      balanceText: z.string().optional(),
      transactions: z.array(
        z.object({
          id: z.string(),
          posted: z.number().int().min(0),
          transactedAt: z.number().int().min(0).optional(),
          amount: z.string(),
          description: z.string(),
          pending: z.boolean().optional(),
        }),
      ),
    }),
  ),
});

/**
 * The control API, for a simulator in another process. Every answer is JSON.
 *   GET  /control/state       { scenario ("data" after useData), step, now, quota, fault }
 *   GET  /control/requests    { requests: RecordedRequest[] }
 *   POST /control/reset       everything back to the start (issued Access URLs stay valid)
 *   POST /control/scenario    { name }            POST /control/step
 *   POST /control/data        SimData: these accounts instead of a scenario's (benchmark 14)
 *   POST /control/clock       { now: ISO instant } or { advanceSeconds }
 *   POST /control/fault       FaultSetting        DELETE /control/fault
 *   POST /control/quota       { warnAfter, blockAfter }
 *   POST /control/setup-token { setupToken }
 */
const controlSchemas = {
  scenario: z.object({ name: z.enum(SCENARIOS) }),
  data: dataSchema,
  clock: z.union([z.object({ now: z.iso.datetime({ offset: true }) }), z.object({ advanceSeconds: z.number().int() })]),
  fault: z.object({
    fault: faultSchema,
    on: z.enum(['accounts', 'claim', 'both']).optional(),
    times: z.number().int().min(1).optional(),
    after: z.number().int().min(0).optional(),
  }),
  quota: z.object({ warnAfter: z.number().int().min(0), blockAfter: z.number().int().min(0) }),
};

export async function startSimplefinSimulator(options: SimulatorOptions = {}): Promise<SimplefinSimulator> {
  let fixedClock: number | null = options.now ? options.now.getTime() : null;
  const nowMs = () => fixedClock ?? Date.now();
  const nowSeconds = () => Math.floor(nowMs() / 1000);

  let scenarioName: ScenarioName = 'default';
  let scenarioAt = nowSeconds();
  let steps: number[] = [];
  /** Set by useData: played instead of the scenario until the next scenario or reset. */
  let given: SimData | null = null;
  let faultSetting: (FaultSetting & { remaining: number | null; spared: number }) | null = null;
  let quota = DEFAULT_QUOTA;
  /** Setup tokens made, and whether each was claimed. */
  const claims = new Map<string, boolean>();
  /** Access URL user name -> password. */
  const credentials = new Map<string, string>();
  const disabled = new Set<string>();
  /** `${user} ${UTC day}` -> requests that day. */
  const counts = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  let origin = '';

  const data = () => given ?? scenarioData(scenarioName, scenarioAt, steps);

  function newSetupToken(): string {
    const token = crypto.randomBytes(18).toString('base64url');
    claims.set(token, false);
    return Buffer.from(`${origin}${ROOT}/claim/${token}`, 'utf8').toString('base64');
  }

  function newAccessUrl(): string {
    const user = `user${credentials.size + 1}${crypto.randomBytes(3).toString('hex')}`;
    const password = crypto.randomBytes(24).toString('hex');
    credentials.set(user, password);
    return origin.replace('http://', `http://${user}:${password}@`) + ROOT;
  }

  /** The fault for this request, counted down; null for the truth. */
  function takeFault(during: 'accounts' | 'claim'): Fault | null {
    if (!faultSetting) return null;
    const on = faultSetting.on ?? 'accounts';
    if (on !== 'both' && on !== during) return null;
    const { fault } = faultSetting;
    if (faultSetting.spared > 0) {
      faultSetting.spared -= 1;
      return null;
    }
    if (faultSetting.remaining !== null) {
      faultSetting.remaining -= 1;
      if (faultSetting.remaining <= 0) faultSetting = null;
    }
    return fault;
  }

  function accountSet(query: URLSearchParams, extraErrors: ErrEntry[], fault: Fault | null): object {
    const errlist: ErrEntry[] = [...extraErrors];
    // The Bridge still says its quota warnings in the deprecated `errors` too.
    const legacy: string[] = extraErrors.map((entry) => entry.msg);
    const apiMessages: string[] = [];
    const now = nowSeconds();
    let start = integerParameter(query, 'start-date');
    let end = integerParameter(query, 'end-date');
    if (start === 'bad' || end === 'bad') {
      errlist.push({ code: 'gen.api', msg: 'start-date and end-date must be Unix timestamps.' });
      start = undefined;
      end = undefined;
    }
    if (start === undefined) {
      // The Bridge's default without a start-date: yesterday on.
      start = now - (now % DAY) - DAY;
      apiMessages.push("Provide a 'start-date' parameter to receive transactions prior to yesterday");
    }
    if (end === undefined || end - start > MAX_RANGE_SECONDS) {
      if (end !== undefined) errlist.push({ code: 'gen.api', msg: 'Requested date range exceeds limit of 90 days and was capped.' });
      end = start + MAX_RANGE_SECONDS;
    }
    // Consts for the filter below (a closure does not keep the narrowing of a let).
    const windowStart = start;
    const windowEnd = end;
    const wanted = query.getAll('account');
    const withPending = query.get('pending') === '1';
    const balancesOnly = query.get('balances-only') === '1';
    const faultErrors = fault?.kind === 'errlist' ? fault.errors : [];
    errlist.push(...faultErrors);
    const failed = new Set(faultErrors.filter((entry) => entry.code === 'act.failed').map((entry) => entry.account_id));
    const missing = new Set(faultErrors.filter((entry) => entry.code === 'act.missingdata').map((entry) => entry.account_id));
    const loggedOut = new Set(faultErrors.filter((entry) => entry.code.startsWith('con.')).map((entry) => entry.conn_id));

    const { connections, accounts } = data();
    const listed = accounts.filter(
      (account) => (wanted.length === 0 || wanted.includes(account.id)) && !failed.has(account.id) && !loggedOut.has(account.connectionId),
    );
    return {
      errlist,
      ...(legacy.length > 0 ? { errors: legacy } : {}),
      ...(apiMessages.length > 0 ? { 'x-api-message': apiMessages } : {}),
      connections: connections
        .filter((connection) => listed.some((account) => account.connectionId === connection.id))
        .map((connection) => ({
          conn_id: connection.id,
          name: connection.name,
          org_id: `ORG-${connection.id}`,
          org_name: connection.orgName,
          org_url: 'https://bank.example',
          sfin_url: `${origin}${ROOT}`,
        })),
      accounts: listed.map((account) => {
        const postedTotal = account.transactions
          .filter((transaction) => !transaction.pending)
          .reduce((sum, transaction) => sum + cents(transaction.amount), 0);
        const pendingTotal = account.transactions
          .filter((transaction) => transaction.pending)
          .reduce((sum, transaction) => sum + cents(transaction.amount), 0);
        let transactions = account.transactions.filter((transaction) => {
          if (transaction.pending && !withPending) return false;
          const when = transaction.posted || transaction.transactedAt || 0;
          return when >= windowStart && when < windowEnd;
        });
        if (missing.has(account.id)) transactions = transactions.slice(0, Math.floor(transactions.length / 2));
        const connection = connections.find((each) => each.id === account.connectionId);
        return {
          id: account.id,
          name: account.name,
          conn_id: account.connectionId,
          conn_name: connection?.name ?? '',
          currency: account.currency,
          balance: account.balanceText ?? money(account.opening + postedTotal),
          'available-balance': money(account.opening + postedTotal + pendingTotal),
          'balance-date': now,
          ...(balancesOnly
            ? {}
            : {
                transactions: [...transactions]
                  .sort((a, b) => (a.posted || a.transactedAt || 0) - (b.posted || b.transactedAt || 0))
                  .map((transaction) => ({
                    id: transaction.id,
                    posted: transaction.posted,
                    ...(transaction.transactedAt === undefined ? {} : { transacted_at: transaction.transactedAt }),
                    amount: transaction.amount,
                    description: transaction.description,
                    ...(transaction.pending ? { pending: true } : {}),
                  })),
              }),
        };
      }),
    };
  }

  /** Answers a fault that replaces the whole answer; false when the fault leaves the answer to the truth. */
  async function answerFault(fault: Fault, response: http.ServerResponse): Promise<boolean> {
    switch (fault.kind) {
      case 'status':
        response.writeHead(fault.status, { 'content-type': 'text/plain' }).end(`${fault.status}\n`);
        return true;
      case 'html-502':
        response
          .writeHead(502, { 'content-type': 'text/html; charset=utf-8' })
          .end('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>');
        return true;
      case 'redirect':
        response.writeHead(302, { location: fault.location ?? 'https://bridge.example/elsewhere' }).end();
        return true;
      case 'invalid-json':
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"errlist": [], "accounts": [{"id": "ACT-checking", ');
        return true;
      case 'oversized': {
        response.writeHead(200, { 'content-type': 'application/json' });
        const filler = JSON.stringify({ id: 'TRN-filler', posted: nowSeconds(), amount: '-1.00', description: 'x'.repeat(900) });
        let sent = 0;
        const write = (text: string) =>
          new Promise<void>((resolve) => {
            sent += Buffer.byteLength(text);
            if (response.write(text)) resolve();
            else response.once('drain', resolve);
          });
        await write(
          '{"errlist":[],"connections":[],"accounts":[{"id":"ACT-big","name":"Big","currency":"USD","balance":"0","balance-date":0,"transactions":[',
        );
        let first = true;
        while (sent < fault.bytes && !response.destroyed) {
          await write(`${first ? '' : ','}${filler}`);
          first = false;
        }
        if (!response.destroyed) response.end(']}]}');
        return true;
      }
      case 'slow':
      case 'errlist':
        return false;
    }
  }

  function record(request: http.IncomingMessage, url: URL, user: string | null, status: number): void {
    const query: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) (query[name] ??= []).push(value);
    const start = Number(url.searchParams.get('start-date'));
    const end = Number(url.searchParams.get('end-date'));
    const both = url.searchParams.has('start-date') && url.searchParams.has('end-date') && Number.isFinite(start) && Number.isFinite(end);
    requests.push({
      method: request.method ?? '',
      path: url.pathname,
      query,
      at: new Date(nowMs()).toISOString(),
      user,
      status,
      windowDays: both ? (end - start) / DAY : null,
    });
  }

  async function handleAccounts(request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void> {
    const given = basicUser(request.headers.authorization);
    const known = given !== null && credentials.get(given.user) === given.password;
    const user = known ? given.user : null;
    if (!known || disabled.has(given.user)) {
      record(request, url, user, 403);
      response.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden\n');
      return;
    }
    const dayKey = `${given.user} ${new Date(nowMs()).toISOString().slice(0, 10)}`;
    const count = (counts.get(dayKey) ?? 0) + 1;
    counts.set(dayKey, count);
    if (count > quota.blockAfter) {
      disabled.add(given.user);
      record(request, url, user, 403);
      response.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden: too many requests; this access is disabled.\n');
      return;
    }
    const quotaErrors: ErrEntry[] =
      count > quota.warnAfter
        ? [
            {
              code: 'gen.',
              msg: `You have made ${count} requests today. Keep to ${quota.warnAfter} a day, or this access will be disabled.`,
            },
          ]
        : [];
    const fault = takeFault('accounts');
    const status = fault?.kind === 'status' ? fault.status : fault?.kind === 'html-502' ? 502 : fault?.kind === 'redirect' ? 302 : 200;
    record(request, url, user, status);
    if (fault && (await answerFault(fault, response))) return;
    const body = JSON.stringify(accountSet(url.searchParams, quotaErrors, fault));
    if (fault?.kind === 'slow') {
      response.writeHead(200, { 'content-type': 'application/json' });
      // Headers now, the body later: the client's time limit is for the whole exchange.
      response.write(' ');
      const timer = setTimeout(() => {
        if (!response.destroyed) response.end(body);
      }, fault.delayMs);
      response.on('close', () => clearTimeout(timer));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  }

  async function handleClaim(request: http.IncomingMessage, response: http.ServerResponse, url: URL, token: string): Promise<void> {
    const fault = takeFault('claim');
    if (fault && fault.kind !== 'slow' && fault.kind !== 'errlist') {
      record(
        request,
        url,
        null,
        fault.kind === 'status' ? fault.status : fault.kind === 'html-502' ? 502 : fault.kind === 'redirect' ? 302 : 200,
      );
      await answerFault(fault, response);
      return;
    }
    if (request.method !== 'POST' || claims.get(token) !== false) {
      record(request, url, null, 403);
      response.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden\n');
      return;
    }
    claims.set(token, true);
    record(request, url, null, 200);
    const body = newAccessUrl();
    if (fault?.kind === 'slow') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setTimeout(() => response.end(body), fault.delayMs);
      response.on('close', () => clearTimeout(timer));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  }

  function reset(): void {
    scenarioName = 'default';
    scenarioAt = nowSeconds();
    steps = [];
    given = null;
    faultSetting = null;
    quota = DEFAULT_QUOTA;
    counts.clear();
    disabled.clear();
    requests.length = 0;
  }

  const simulator: Omit<SimplefinSimulator, 'origin' | 'close'> = {
    setupToken: newSetupToken,
    accessUrl: newAccessUrl,
    issuedPasswords: () => [...credentials.values()],
    requests,
    accountRequests: () => requests.filter((each) => each.path === `${ROOT}/accounts`),
    clearRequests: () => {
      requests.length = 0;
    },
    scenario(name) {
      scenarioName = name;
      scenarioAt = nowSeconds();
      steps = [];
      given = null;
    },
    step() {
      steps.push(nowSeconds());
    },
    useData(next) {
      given = next;
    },
    now: () => new Date(nowMs()),
    setClock(now) {
      fixedClock = now.getTime();
    },
    advance(seconds) {
      fixedClock = nowMs() + seconds * 1000;
    },
    fail(setting) {
      faultSetting = { ...setting, remaining: setting.times ?? null, spared: setting.after ?? 0 };
    },
    clearFault() {
      faultSetting = null;
    },
    setQuota(next) {
      quota = next;
    },
    reset,
  };

  async function readJsonBody(request: http.IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text === '' ? {} : JSON.parse(text);
  }

  async function handleControl(request: http.IncomingMessage, response: http.ServerResponse, url: URL): Promise<void> {
    const answer = (status: number, body: object) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const route = `${request.method} ${url.pathname.slice('/control'.length)}`;
    const body = await readJsonBody(request);
    const state = () => ({
      scenario: given ? 'data' : scenarioName,
      step: steps.length,
      now: new Date(nowMs()).toISOString(),
      quota,
      fault: faultSetting,
    });
    switch (route) {
      case 'GET /state':
        return void answer(200, state());
      case 'GET /requests':
        return void answer(200, { requests });
      case 'POST /reset':
        reset();
        return void answer(200, state());
      case 'POST /scenario':
        simulator.scenario(controlSchemas.scenario.parse(body).name);
        return void answer(200, state());
      case 'POST /step':
        simulator.step();
        return void answer(200, state());
      case 'POST /data':
        simulator.useData(controlSchemas.data.parse(body));
        return void answer(200, state());
      case 'POST /clock': {
        const clock = controlSchemas.clock.parse(body);
        if ('now' in clock) simulator.setClock(new Date(clock.now));
        else simulator.advance(clock.advanceSeconds);
        return void answer(200, state());
      }
      case 'POST /fault':
        simulator.fail(controlSchemas.fault.parse(body));
        return void answer(200, state());
      case 'DELETE /fault':
        simulator.clearFault();
        return void answer(200, state());
      case 'POST /quota':
        simulator.setQuota(controlSchemas.quota.parse(body));
        return void answer(200, state());
      case 'POST /setup-token':
        return void answer(200, { setupToken: newSetupToken() });
      default:
        return void answer(404, { error: `no control ${route}` });
    }
  }

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://simulator.invalid');
    const handle = async () => {
      if (url.pathname.startsWith('/control/')) return handleControl(request, response, url);
      if (url.pathname === `${ROOT}/accounts` && request.method === 'GET') return handleAccounts(request, response, url);
      const claim = new RegExp(`^${ROOT}/claim/([A-Za-z0-9_-]+)$`).exec(url.pathname);
      if (claim?.[1]) return handleClaim(request, response, url, claim[1]);
      if (url.pathname === `${ROOT}/info`) {
        record(request, url, null, 200);
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ versions: ['1.0', '2.0'] }));
      }
      record(request, url, null, 404);
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    };
    handle().catch((error: unknown) => {
      if (!response.headersSent) {
        const message = error instanceof Error ? error.message : String(error);
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: message }));
      } else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    ...simulator,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
