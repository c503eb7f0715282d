import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBalances } from './balances.js';
import { addDays, daysBetween, isoDate, type IsoDate } from './calendar-date.js';
import { firstBelowZero, lowestAhead, payPeriods } from './forecast.js';
import type { LedgerRow } from './ledger.js';
import { type Cents, cents } from './money.js';
import {
  EVERYDAY_POINT_NAME,
  everydayPayPeriods,
  everydayThrough,
  forecastOutlook,
  type OutlookInput,
  pointsAhead,
  safeToSpend,
  withEveryday,
} from './safe-to-spend.js';
import { whatIf } from './what-if.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
// Far in the future, so the tests hold for years.
const TODAY = isoDate('2031-03-10');
const T = (days: number): IsoDate => addDays(TODAY, days);

let sequence = 0;
function row(date: IsoDate, name: string, type: 'C' | 'D', amount: number, options: Partial<LedgerRow> = {}): LedgerRow {
  sequence += 1;
  return {
    id: `r${sequence}`,
    sequence,
    date,
    name,
    type,
    amount: cents(amount),
    status: 'PENDING',
    source: null,
    ...options,
  };
}

const paycheck = (date: IsoDate, amount: number) =>
  row(date, 'Acme Paycheck', 'C', amount, { source: { kind: 'deposit', id: 'acme', occurrence: date, edited: false } });

/** The issue's case: $1,000.00 with a Paid $40.00 row, Rent $800.00 on T+5, the Visa payment of $300.00 on T+7, a $1,200.00 paycheck on T+9. */
function issueCase(): OutlookInput & { readonly stored: LedgerRow[] } {
  const ledger = { startDate: T(-3), endDate: T(60), openingBalance: cents(100_000) };
  const stored = [
    row(T(-1), 'Groceries', 'D', 4_000, { status: 'PAID' }),
    row(T(5), 'Rent', 'D', 80_000),
    row(T(7), 'Visa payment', 'D', 30_000, { source: { kind: 'card', id: 'visa', occurrence: T(4), edited: false } }),
    paycheck(T(9), 120_000),
  ];
  return { ledger, stored, rows: computeBalances(ledger.openingBalance, stored).rows, today: TODAY, buffer: cents(5_000) };
}

describe('safe to spend', () => {
  it('is the lowest balance before the next paycheck minus the buffer, and what the issue says', () => {
    const input = issueCase();
    expect(safeToSpend(input)).toEqual({
      amount: -19_000,
      perDay: null,
      until: T(9),
      untilReason: 'PAYDAY',
      lowestDate: T(7),
      lowestName: 'Visa payment',
      buffer: 5_000,
    });
    const asked = whatIf({ ...input, rows: input.stored, purchases: [{ date: T(1), amount: cents(10_000), name: 'Shoes' }] });
    expect(asked.after.lowest).toMatchObject({ date: T(7), balance: -24_000 });
    expect(asked.affordable).toBe(false);
    expect(asked.before.safeToSpend).toEqual(safeToSpend(input));
  });

  it('spreads a positive amount over the days to the day before payday, both counted, rounded to the cent', () => {
    const ledger = { startDate: TODAY, endDate: T(30), openingBalance: cents(40_000) };
    const rows = computeBalances(ledger.openingBalance, [row(T(2), 'Phone', 'D', 8_760), paycheck(T(6), 100_000)]).rows;
    // $312.40 over T..T+5, six days: $52.0666... is $52.07.
    expect(safeToSpend({ ledger, rows, today: TODAY, buffer: cents(0) })).toMatchObject({ amount: 31_240, perDay: 5_207, until: T(6) });
  });

  it('without a paycheck ahead runs to the ledger end and says so; today as it stands has no name', () => {
    const ledger = { startDate: TODAY, endDate: T(3), openingBalance: cents(10_000) };
    expect(safeToSpend({ ledger, rows: [], today: TODAY, buffer: cents(1_000) })).toEqual({
      amount: 9_000,
      perDay: 2_250,
      until: T(3),
      untilReason: 'LEDGER_END',
      lowestDate: TODAY,
      lowestName: null,
      buffer: 1_000,
    });
    expect(safeToSpend({ ledger, rows: [], today: T(4), buffer: cents(0) })).toBeNull();
  });

  it('a paycheck today is in today’s balance: the window runs to the next one', () => {
    const ledger = { startDate: TODAY, endDate: T(30), openingBalance: cents(0) };
    const rows = computeBalances(ledger.openingBalance, [
      paycheck(TODAY, 50_000),
      row(T(1), 'Rent', 'D', 45_000),
      paycheck(T(14), 50_000),
    ]).rows;
    expect(safeToSpend({ ledger, rows, today: TODAY, buffer: cents(0) })).toMatchObject({ amount: 5_000, until: T(14), lowestDate: T(1) });
  });
});

describe('everyday spending', () => {
  it('adds up to one seventh of the week a day from tomorrow, exactly, to the ledger end', () => {
    expect(everydayThrough(cents(7_000), TODAY, T(10), TODAY)).toBe(0);
    expect(everydayThrough(cents(7_000), TODAY, T(10), T(1))).toBe(1_000);
    expect(everydayThrough(cents(10_000), TODAY, T(10), T(3))).toBe(4_286);
    expect(everydayThrough(cents(10_000), TODAY, T(10), T(7))).toBe(10_000);
    expect(everydayThrough(cents(10_000), TODAY, T(10), T(40))).toBe(everydayThrough(cents(10_000), TODAY, T(10), T(10)));
  });

  it('lowers the forecast from tomorrow, days without a row included, and off gives back the plain forecast', () => {
    const ledger = { startDate: T(-2), endDate: T(20), openingBalance: cents(50_000) };
    const rows = computeBalances(ledger.openingBalance, [row(T(1), 'Rent', 'D', 20_000), paycheck(T(10), 30_000)]).rows;
    const off = forecastOutlook({ ledger, rows, today: TODAY, buffer: cents(0) });
    expect(off.lowest).toEqual({ ...lowestAhead(rows, TODAY), amount: 20_000 });
    expect(off.firstBelowZero).toBeNull();
    const on = forecastOutlook({ ledger, rows, today: TODAY, buffer: cents(0), everydayWeekly: cents(70_000) });
    // $100.00 a day: $300.00 after Rent is $200.00 on T+1, $0 on T+3, below $0 from T+4.
    expect(on.firstBelowZero).toEqual({ date: T(4), name: EVERYDAY_POINT_NAME, balance: -10_000, amount: null });
    expect(on.safeToSpend).toMatchObject({ amount: -60_000, lowestDate: T(9), lowestName: EVERYDAY_POINT_NAME });
    const periods = everydayPayPeriods({ ledger, rows, today: TODAY, buffer: cents(0), everydayWeekly: cents(70_000) });
    const plain = payPeriods(ledger, rows);
    expect(periods.map((period) => period.everyday)).toEqual([90_000, 110_000]);
    expect(periods[0]).toMatchObject({ ...plain[0], lowest: -60_000, endBalance: -60_000 });
    expect(periods[1]).toMatchObject({ income: 30_000, lowest: -140_000, endBalance: -140_000 });
  });

  it('gives the same pay periods and outlook from pieces its caller worked out already (the forecast answer hands them over)', () => {
    const ledger = { startDate: T(-2), endDate: T(20), openingBalance: cents(50_000) };
    // The period's lowest falls on a row's day (the car payment on the day before payday).
    const bills = [row(T(1), 'Rent', 'D', 20_000), row(T(9), 'Car', 'D', 40_000), paycheck(T(10), 30_000)];
    const rows = computeBalances(ledger.openingBalance, bills).rows;
    const input = { ledger, rows, today: TODAY, buffer: cents(0), everydayWeekly: cents(70_000) };
    const counted = withEveryday(rows, TODAY, ledger.endDate, cents(70_000));
    const points = pointsAhead(input);
    expect(everydayPayPeriods(input, { counted, points })).toEqual(everydayPayPeriods(input));
    expect(forecastOutlook(input, points)).toEqual(forecastOutlook(input));
    // The rows as stored, handed over by mistake, would give other periods: the pieces are used, not worked out again.
    expect(everydayPayPeriods(input, { counted: rows, points })).not.toEqual(everydayPayPeriods(input));
  });
});

/** Random ledgers: rows on days around today, some paychecks, random statuses; a buffer and maybe everyday spending. */
const ledgers = fc
  .record({
    startOffset: fc.integer({ min: -20, max: 3 }),
    length: fc.integer({ min: 0, max: 60 }),
    opening: fc.integer({ min: -50_000, max: 200_000 }),
    buffer: fc.integer({ min: 0, max: 20_000 }),
    weekly: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 90_000 })),
    rows: fc.array(
      fc.record({
        day: fc.integer({ min: 0, max: 60 }),
        type: fc.constantFrom('C', 'D'),
        paycheck: fc.boolean(),
        amount: fc.integer({ min: 1, max: 100_000 }),
        status: fc.constantFrom('PENDING', 'PAID', 'CLEARED'),
        name: fc.constantFrom('A', 'B', 'Rent', 'Visa payment'),
      }),
      { maxLength: 40 },
    ),
  })
  .map((drawn) => {
    const startDate = T(drawn.startOffset);
    const endDate = addDays(startDate, drawn.length);
    const stored = drawn.rows
      .filter((candidate) => candidate.day <= drawn.length)
      .map((candidate) => {
        const date = addDays(startDate, candidate.day);
        return candidate.type === 'C' && candidate.paycheck
          ? paycheck(date, candidate.amount)
          : row(date, candidate.name, candidate.type, candidate.amount, { status: candidate.status });
      });
    const ledger = { startDate, endDate, openingBalance: cents(drawn.opening) };
    return {
      ledger,
      stored,
      rows: computeBalances(ledger.openingBalance, stored).rows,
      today: TODAY,
      buffer: cents(drawn.buffer),
      everydayWeekly: cents(drawn.weekly),
    };
  });

/** The end-of-day balance of `date`, by brute force: the opening plus every row dated on or before it, less everyday spending. */
function bruteBalance(input: OutlookInput & { readonly stored: readonly LedgerRow[] }, date: IsoDate): number {
  let balance: number = input.ledger.openingBalance;
  for (const stored of input.stored) if (stored.date <= date) balance += stored.type === 'C' ? stored.amount : -stored.amount;
  const weekly = input.everydayWeekly ?? 0;
  const last = date < input.ledger.endDate ? date : input.ledger.endDate;
  const days = Math.max(0, daysBetween(TODAY, last));
  return balance - Math.floor((2 * weekly * days + 7) / 14);
}

describe('safe to spend, by brute force', () => {
  it('equals the lowest end-of-day balance over the window, day by day, minus the buffer', () => {
    fc.assert(
      fc.property(ledgers, (input) => {
        const found = safeToSpend(input);
        if (input.ledger.endDate < TODAY) {
          expect(found).toBeNull();
          return;
        }
        const payday = input.stored
          .filter((candidate) => candidate.source?.kind === 'deposit' && candidate.date > TODAY)
          .map((candidate) => candidate.date)
          .sort()[0];
        const last = payday === undefined ? input.ledger.endDate : addDays(payday, -1);
        let lowest = Number.POSITIVE_INFINITY;
        let lowestDate = TODAY;
        for (let date = TODAY; date <= last; date = addDays(date, 1)) {
          const balance = bruteBalance(input, date);
          if (balance < lowest) [lowest, lowestDate] = [balance, date];
        }
        expect(found).toMatchObject({
          amount: lowest - input.buffer,
          until: payday ?? input.ledger.endDate,
          untilReason: payday === undefined ? 'LEDGER_END' : 'PAYDAY',
          lowestDate,
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('with everyday spending off, the lowest and the first below $0 are the forecast’s own', () => {
    fc.assert(
      fc.property(ledgers, (input) => {
        const outlook = forecastOutlook({ ...input, everydayWeekly: cents(0) });
        const strip = (point: { amount: Cents | null } | null) => point && { ...point, amount: undefined };
        expect(strip(outlook.lowest)).toEqual(strip(lowestAhead(input.rows, TODAY) && { ...lowestAhead(input.rows, TODAY), amount: null }));
        expect(outlook.firstBelowZero?.date ?? null).toBe(firstBelowZero(input.rows, TODAY)?.date ?? null);
        expect(outlook.firstBelowZero?.balance ?? null).toBe(firstBelowZero(input.rows, TODAY)?.balance ?? null);
      }),
      { numRuns: RUNS },
    );
  });

  it('a what-if of exactly the amount today leaves the buffer, and one cent more is not affordable', () => {
    fc.assert(
      fc.property(ledgers, (input) => {
        const found = safeToSpend(input);
        if (found === null || found.amount <= 0) return;
        const ask = (amount: number) =>
          whatIf({ ...input, rows: input.stored, purchases: [{ date: TODAY, amount: cents(amount), name: 'Shoes' }] });
        const exact = ask(found.amount);
        expect(exact.after.safeToSpend?.amount).toBe(0);
        expect(exact.lowestBeforePayday.balance).toBe(input.buffer);
        expect(exact.affordable).toBe(true);
        expect(ask(found.amount + 1).affordable).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});
