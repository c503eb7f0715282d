/**
 * Issue 27 through the API, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL:
 *  - a row write's `?answer=changes` is worked out from the ledger's month totals and the written
 *    row's month (LedgerStore.place), not from every row: after any sequence of Pay, Clear, Edit
 *    (across months too), Add and Delete, with or without If-Match, each answer is byte for byte
 *    the one a full read after the write gives (the rows as the whole ledger lists them, at their
 *    index, with its count and balances);
 *  - `GET retrieve-ledger?from=&limit=&today=` answers a window (decision 0053) that is exactly
 *    the whole ledger's rows from `from`, its balances and count, its pay periods up to the window's
 *    last row, and its first row below zero from `today`, under the same ETag;
 *  - bad window parameters are a 400 naming each, and change nothing.
 * Every property run is a new user; one app per database. FUZZ_RUNS scales the runs: 8 ledgers of
 * up to 10 steps per database by default, FUZZ_RUNS / 20 of up to 24 steps when set (`npm run fuzz`
 * sets 2000). The test app also checks every ledger's month totals against its rows when it closes.
 */
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withId } from '../../src/contract/common.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { ledgerCodec } from '../../src/contract/codecs.js';
import { type Ledger, ledgerEtag, LEDGER_PATHS, type LedgerTransaction, versionOfEtag } from '../../src/contract/ledger.js';
import { type LedgerWindow, ledgerWindowSchema } from '../../src/contract/ledger-window.js';
import { accountsInfoSchema } from '../../src/contract/accounts.js';
import { addDays, isoDate } from '../../src/domain/calendar-date.js';
import { firstBelowZero, payPeriods } from '../../src/domain/forecast.js';
import { centsToDollars } from '../../src/domain/money.js';
import { expectBadRequest, inAccount, newSubject } from '../support/api-expectations.js';
import { type DepositBody, depositInput, type ExpenseBody, expenseInput, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

function propertyScale(): { runs: number; maxSteps: number } {
  const raw = process.env.FUZZ_RUNS;
  if (raw === undefined) return { runs: 8, maxSteps: 10 };
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a whole number above 0, not ${raw}`);
  // Each run is a new user and a few dozen calls against a real database.
  return { runs: Math.max(1, Math.round(runs / 20)), maxSteps: 24 };
}
const SCALE = propertyScale();

/** Five months, so rows move between months and the month totals meet. */
const START = '2026-11-01';
const END = '2027-03-31';
const LEDGER_DAYS = 151;
/** The server's today in these tests (TEST_NOW, Saturday 2026-11-21 at noon). */
const SERVER_TODAY = '2026-11-21';

const ACME: DepositBody = { name: 'Acme', amount: 900, startDate: '2026-11-06', frequency: 'BW' };
const BILLS: readonly ExpenseBody[] = [
  { name: 'Rent', amount: 1200, day: 1 },
  { name: 'rent', amount: 15, day: 1 },
  { name: 'Phone', amount: 45.55, day: 15 },
  { name: 'Gym', amount: 30, day: 31 },
];
const NAMES = ['Coffee', 'coffee', 'Rent', 'Acme Paycheck', 'Zoo', 'Épicerie'];

function versionOf(response: LightMyRequestResponse): string {
  const version = versionOfEtag((response.headers.etag as string | undefined) ?? null);
  if (version === null) throw new Error(`no ledger ETag: ${response.body.slice(0, 200)}`);
  return version;
}

/** The whole ledger as the wire carries it (keys in the server's order), and its version. */
interface Whole {
  readonly ledger: Ledger;
  readonly version: string;
}

async function readWhole(user: UserClient): Promise<Whole> {
  const response = await user.get(LEDGER_PATHS.retrieve);
  const body = okJson(response) as { ledger: Ledger };
  return { ledger: body.ledger, version: versionOf(response) };
}

/**
 * The changes answer a full read after the write gives, as text: what the server answered before
 * issue 27, from every row (decision 0030's shape, in its key order).
 */
function changesFromWholeRead(basedOn: string, after: Whole, changedIds: ReadonlySet<string>, removed: readonly string[]): string {
  const { ledger } = after;
  const rows = ledger.transactions.flatMap((row, position) => (changedIds.has(row.id) ? [{ ...row, position }] : []));
  return JSON.stringify({
    changes: {
      basedOn,
      version: after.version,
      startDate: ledger.startDate,
      endDate: ledger.endDate,
      openingBalance: ledger.openingBalance,
      currentBalance: ledger.currentBalance,
      pendingBalance: ledger.pendingBalance,
      count: ledger.transactions.length,
      rows,
      removed,
    },
  });
}

// ---- the steps ---------------------------------------------------------------------------------

type Step =
  | { readonly kind: 'pay' | 'clear' | 'delete' | 'unchanged'; readonly pick: number; readonly ifMatch: boolean }
  | {
      readonly kind: 'edit';
      readonly pick: number;
      readonly day: number | null;
      readonly name: number | null;
      readonly amount: number | null;
      readonly ifMatch: boolean;
    }
  | {
      readonly kind: 'add';
      readonly day: number;
      readonly name: number;
      readonly type: 'C' | 'D';
      readonly amount: number;
      readonly ifMatch: boolean;
    };

const amountCents = fc.oneof(fc.integer({ min: 1, max: 300_000 }), fc.constantFrom(1, 45_55, 120_000));
const dayIndex = fc.nat({ max: LEDGER_DAYS - 1 });
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), pick: fc.nat(), ifMatch: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('clear' as const), pick: fc.nat(), ifMatch: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(), ifMatch: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unchanged' as const), pick: fc.nat(), ifMatch: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      pick: fc.nat(),
      day: fc.option(dayIndex),
      name: fc.option(fc.nat()),
      amount: fc.option(amountCents),
      ifMatch: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      day: dayIndex,
      name: fc.nat(),
      type: fc.constantFrom('C' as const, 'D' as const),
      amount: amountCents,
      ifMatch: fc.boolean(),
    }),
  },
);

function pickOf<T>(items: readonly T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}

function dateOf(day: number): string {
  return addDays(isoDate(START), day);
}

/** The row as the page sends it back, with some fields changed. */
function updateBody(row: LedgerTransaction, changes: Partial<LedgerTransaction>) {
  const { id, date, name, type, amount, status, balance } = row;
  return { id, date, name, type, amount, status, balance, ...changes };
}

interface Write {
  readonly method: 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  /** The row it changes, or removes; an add's row is found after it. */
  readonly changed?: string;
  readonly removed?: string;
  readonly label: string;
}

/** The write a step makes of the ledger as it is; a step with no row it may take adds one instead. */
function writeOf(step: Step, ledger: Ledger): Write {
  const rows = ledger.transactions;
  const pending = rows.filter((row) => row.status === 'PENDING');
  const add = (day: number, name: number, type: 'C' | 'D', amount: number): Write => {
    const body = { date: dateOf(day), name: NAMES[name % NAMES.length] as string, type, amount: amount / 100 };
    return { method: 'POST', path: LEDGER_PATHS.addTransaction, body, label: `add ${JSON.stringify(body)}` };
  };
  if (step.kind === 'add') return add(step.day, step.name, step.type, step.amount);
  if (step.kind === 'pay' || step.kind === 'clear' || step.kind === 'unchanged') {
    const candidates = step.kind === 'pay' ? pending : step.kind === 'clear' ? rows.filter((row) => row.status !== 'CLEARED') : rows;
    const row = pickOf(candidates, step.pick);
    if (!row) return add(0, 0, 'D', 100);
    const status = step.kind === 'pay' ? 'PAID' : step.kind === 'clear' ? 'CLEARED' : row.status;
    return {
      method: 'PATCH',
      path: LEDGER_PATHS.updateTransaction,
      body: updateBody(row, { status }),
      changed: step.kind === 'unchanged' ? undefined : row.id,
      label: `${step.kind} ${row.date} ${row.name}`,
    };
  }
  const row = pickOf(pending, step.pick);
  if (!row) return add(0, 0, 'D', 100);
  if (step.kind !== 'edit') {
    return { method: 'DELETE', path: withId(LEDGER_PATHS.transaction, row.id), removed: row.id, label: `delete ${row.date} ${row.name}` };
  }
  const date = step.day === null ? row.date : dateOf(step.day);
  const name = step.name === null ? row.name : (NAMES[step.name % NAMES.length] as string);
  const amount = step.amount === null ? row.amount : step.amount / 100;
  const changes = date !== row.date || name !== row.name || amount !== row.amount;
  return {
    method: 'PATCH',
    path: LEDGER_PATHS.updateTransaction,
    body: updateBody(row, { date, name, amount }),
    changed: changes ? row.id : undefined,
    label: `edit ${row.date} ${row.name} ${row.amount} to ${date} ${name} ${amount}`,
  };
}

// ---- windows -----------------------------------------------------------------------------------

interface WindowQuery {
  readonly from: number | null;
  readonly limit: number | null;
  readonly today: number | null;
}

const windowQueryArbitrary: fc.Arbitrary<WindowQuery> = fc.record({
  from: fc.option(fc.nat({ max: 70 })),
  limit: fc.option(fc.integer({ min: 1, max: 60 })),
  // From a month before the ledger to a month after it.
  today: fc.option(fc.integer({ min: -30, max: LEDGER_DAYS + 30 })),
});

function windowUrl(path: string, query: WindowQuery): string {
  const parameters = new URLSearchParams();
  if (query.from !== null) parameters.set('from', String(query.from));
  if (query.limit !== null) parameters.set('limit', String(query.limit));
  if (query.today !== null) parameters.set('today', dateOf(query.today));
  // Always a window: with nothing else given, the default limit.
  if (parameters.size === 0) parameters.set('limit', '100');
  return `${path}?${parameters.toString()}`;
}

/** The window a full read gives: its rows sliced, and its pay periods and first row below zero worked out by the page's own functions. */
function windowFromWholeRead({ ledger }: Whole, query: WindowQuery): LedgerWindow {
  const from = query.from ?? 0;
  const limit = query.limit ?? 100;
  const today = query.today === null ? isoDate(SERVER_TODAY) : isoDate(dateOf(query.today));
  const decoded = ledgerCodec.parse(ledger);
  const periods = payPeriods(decoded, decoded.transactions);
  const shown = ledger.transactions.slice(from, from + limit);
  const first = shown[0];
  const last = shown.at(-1);
  const reachesEnd = from + limit >= ledger.transactions.length;
  const below = firstBelowZero(decoded.transactions, today);
  return {
    startDate: ledger.startDate,
    endDate: ledger.endDate,
    openingBalance: ledger.openingBalance,
    currentBalance: ledger.currentBalance,
    pendingBalance: ledger.pendingBalance,
    count: ledger.transactions.length,
    from,
    transactions: shown,
    payPeriods: periods
      .filter(
        (period) =>
          (reachesEnd || (last !== undefined && period.startDate <= last.date)) &&
          (from === 0 || (first !== undefined && period.endDate >= first.date)),
      )
      .map((period) => ({
        startDate: period.startDate,
        endDate: period.endDate,
        income: centsToDollars(period.income),
        bills: centsToDollars(period.bills),
        leftover: centsToDollars(period.leftover),
        lowest: centsToDollars(period.lowest),
        endBalance: centsToDollars(period.endBalance),
      })),
    payPeriodCount: periods.length,
    today,
    firstBelowZero: below && { date: below.date, name: below.name, balance: centsToDollars(below.balance) },
  };
}

describe.each(databaseKinds())('issue 27 on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  async function userWithLedger(label: string, openingBalance = 300): Promise<UserClient> {
    const user = test.as(newSubject(label));
    okJson(await user.post(DEPOSITS_PATHS.add, depositInput(ACME)));
    for (const bill of BILLS) okJson(await user.post(EXPENSES_PATHS.add, expenseInput(bill)));
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: START, endDate: END, currentBalance: openingBalance } }));
    return user;
  }

  it('answers every row write with the changes a full read after it gives, byte for byte, and every window as the whole ledger has it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 1, maxLength: SCALE.maxSteps }),
        fc.array(windowQueryArbitrary, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: -3_000_00, max: 3_000_00 }),
        async (steps, windows, opening) => {
          const user = await userWithLedger('scale', opening / 100);
          let whole = await readWhole(user);
          for (const step of steps) {
            const write = writeOf(step, whole.ledger);
            const response = await user.request(write.method, `${write.path}?answer=changes`, write.body, {
              ...(step.ifMatch && { 'if-match': ledgerEtag(whole.version) }),
            });
            expect(response.statusCode, `${write.label}: ${response.body}`).toBe(200);
            const after = await readWhole(user);
            expect(versionOf(response), write.label).toBe(after.version);
            const known = new Set(whole.ledger.transactions.map((row) => row.id));
            const added = after.ledger.transactions.filter((row) => !known.has(row.id)).map((row) => row.id);
            const changed = new Set([...(write.changed === undefined ? [] : [write.changed]), ...added]);
            const removed = write.removed === undefined ? [] : [write.removed];
            expect(response.body, write.label).toBe(changesFromWholeRead(whole.version, after, changed, removed));
            whole = after;
          }
          // The accounts list sums the month totals: the same balances as the ledger's own.
          const { accounts } = accountsInfoSchema.parse(okJson(await user.get('/api/accounts')));
          expect(accounts.find((account) => account.primary)).toMatchObject({
            currentBalance: whole.ledger.currentBalance,
            pendingBalance: whole.ledger.pendingBalance,
          });
          for (const query of windows) {
            const response = await user.get(windowUrl(LEDGER_PATHS.retrieve, query));
            const body = okJson(response) as Record<string, unknown>;
            expect(Object.keys(body)).toEqual(['window']);
            expect(ledgerWindowSchema.parse(body).window).toEqual(windowFromWholeRead(whole, query));
            expect(body.window).toEqual(windowFromWholeRead(whole, query));
            expect(versionOf(response)).toBe(whole.version);
          }
        },
      ),
      { numRuns: SCALE.runs },
    );
  });

  it('answers a window of another account’s ledger at its /api/accounts twin, and the whole ledger without window parameters', async () => {
    const user = await userWithLedger('scale-account');
    const { accounts } = accountsInfoSchema.parse(okJson(await user.get('/api/accounts')));
    const primary = accounts.find((account) => account.primary);
    if (!primary) throw new Error('no primary account');
    const whole = await readWhole(user);
    const twin = await user.get(`${inAccount(LEDGER_PATHS.retrieve, primary.id)}?from=3&limit=5&today=2027-01-10`);
    expect(okJson(twin)).toEqual({
      window: windowFromWholeRead(whole, { from: 3, limit: 5, today: 70 }),
    });
    // No window asked for: the whole ledger, as SPEC.md has it, at both paths.
    const plain = await user.get(inAccount(LEDGER_PATHS.retrieve, primary.id));
    expect(plain.body).toBe((await user.get(LEDGER_PATHS.retrieve)).body);
    expect(Object.keys(okJson(plain) as object)).toEqual(['ledger']);
  });

  it('answers { ledger: null } to a window of a ledger that does not exist', async () => {
    const user = test.as(newSubject('scale-none'));
    const response = await user.get(`${LEDGER_PATHS.retrieve}?limit=10`);
    expect(okJson(response)).toEqual({ ledger: null });
    expect(response.headers.etag).toBeUndefined();
  });

  // Decision 0056: rows decoded once are used again only while the database answers exactly the same
  // rows, so a change by any path, even one that raises no version, shows in the next read.
  it('shows a change to a row made outside every write path in the next read, whole or windowed', async () => {
    const user = await userWithLedger('scale-outside');
    const before = await readWhole(user);
    const first = before.ledger.transactions[0];
    if (!first) throw new Error('no rows');
    expect((await readWhole(user)).ledger).toEqual(before.ledger);
    // By SQL alone: no version raised (a name moves no month total, which the test app checks on close).
    await withLedgerTables(test.app.database.db)
      .updateTable('ledger_transactions')
      .set({ name: 'Changed outside' })
      .where('id', '=', first.id)
      .execute();
    const after = await readWhole(user);
    expect(after.version).toBe(before.version);
    expect(after.ledger.transactions[0]).toEqual({ ...first, name: 'Changed outside' });
    expect(after.ledger.transactions.map((row) => row.id)).toEqual(before.ledger.transactions.map((row) => row.id));
    const windowed = okJson(await user.get(`${LEDGER_PATHS.retrieve}?from=0&limit=3`)) as { window: { transactions: LedgerTransaction[] } };
    expect(windowed.window.transactions).toEqual(after.ledger.transactions.slice(0, 3));
  });

  it('refuses bad window parameters with a 400 naming each, and changes nothing', async () => {
    const user = await userWithLedger('scale-bad');
    const snapshot = await test.snapshot();
    const cases: [string, Record<string, string>][] = [
      ['limit=0', { limit: 'limit must be a whole number from 1 to 500.' }],
      ['limit=501', { limit: 'limit must be a whole number from 1 to 500.' }],
      ['limit=1.5', { limit: 'limit must be a whole number from 1 to 500.' }],
      ['limit=ten', { limit: 'limit must be a whole number from 1 to 500.' }],
      ['from=-1', { from: 'from must be a whole number from 0 to 99999.' }],
      ['from=100000', { from: 'from must be a whole number from 0 to 99999.' }],
      ['today=2027-02-30', { today: 'today must be a real date (YYYY-MM-DD).' }],
      [
        'from=x&limit=&today=soon',
        {
          from: 'from must be a whole number from 0 to 99999.',
          limit: 'limit must be a whole number from 1 to 500.',
          today: 'today must be a real date (YYYY-MM-DD).',
        },
      ],
    ];
    for (const [query, fields] of cases) expectBadRequest(await user.get(`${LEDGER_PATHS.retrieve}?${query}`), fields);
    expect(await test.snapshot()).toBe(snapshot);
  });

  it('places a written row by its month on a ledger of many months and rows, as a full read does', async () => {
    const user = await userWithLedger('scale-months', -50);
    // Rows on the first and last day of every month, paid and cleared here and there.
    for (let day = 0; day < LEDGER_DAYS; day += 15) {
      okJson(await user.post(LEDGER_PATHS.addTransaction, { date: dateOf(day), name: 'Coffee', type: 'D', amount: 3.5 }));
    }
    let whole = await readWhole(user);
    for (const [index, row] of whole.ledger.transactions.entries()) {
      if (index % 3 !== 0 || row.status !== 'PENDING') continue;
      const response = await user.patch(
        `${LEDGER_PATHS.updateTransaction}?answer=changes`,
        updateBody(row, { status: index % 2 ? 'CLEARED' : 'PAID' }),
      );
      const after = await readWhole(user);
      expect(response.body).toBe(changesFromWholeRead(whole.version, after, new Set([row.id]), []));
      whole = after;
    }
  });
});
