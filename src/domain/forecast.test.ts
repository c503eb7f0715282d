import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, fromDayNumber, isoDate, type IsoDate, toDayNumber } from './calendar-date.js';
import { firstBelowZero, lowestAhead, payPeriods } from './forecast.js';
import { computeBalances } from './balances.js';
import type { LedgerRow } from './ledger.js';
import { cents } from './money.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const start = isoDate('2026-12-01');
const day = (offset: number): IsoDate => fromDayNumber(toDayNumber(start) + offset);

let sequence = 0;
function row(date: string, name: string, type: 'C' | 'D', amount: number, paycheck = type === 'C'): LedgerRow {
  sequence += 1;
  return {
    id: `r${sequence}`,
    sequence,
    date: isoDate(date),
    name,
    type,
    amount: cents(amount),
    status: 'PENDING',
    source: paycheck ? { kind: 'deposit', id: 'acme', occurrence: isoDate(date), edited: false } : null,
  };
}

describe('pay periods', () => {
  const ledger = { startDate: start, endDate: isoDate('2026-12-31'), openingBalance: cents(10_000) };

  it('open on each paycheck, with an opening period before the first, and sum each period', () => {
    const rows = computeBalances(ledger.openingBalance, [
      row('2026-12-01', 'Rent', 'D', 120_000),
      row('2026-12-04', 'Acme Paycheck', 'C', 150_000),
      row('2026-12-04', 'Side Paycheck', 'C', 20_000),
      row('2026-12-10', 'Phone', 'D', 4_500),
      row('2026-12-12', 'Zelle', 'C', 1_000, false),
      row('2026-12-18', 'Acme Paycheck', 'C', 150_000),
    ]).rows;
    expect(payPeriods(ledger, rows)).toEqual([
      {
        startDate: '2026-12-01',
        endDate: '2026-12-03',
        income: 0,
        bills: 120_000,
        leftover: -120_000,
        lowest: -110_000,
        endBalance: -110_000,
      },
      // Two deposits on one day open one period; a credit added by hand does not open one.
      {
        startDate: '2026-12-04',
        endDate: '2026-12-17',
        income: 171_000,
        bills: 4_500,
        leftover: 166_500,
        lowest: 40_000,
        endBalance: 56_500,
      },
      {
        startDate: '2026-12-18',
        endDate: '2026-12-31',
        income: 150_000,
        bills: 0,
        leftover: 150_000,
        lowest: 206_500,
        endBalance: 206_500,
      },
    ]);
  });

  it('give a period without rows the balance it started with, and a ledger without paychecks one period', () => {
    expect(payPeriods(ledger, [])).toEqual([
      { startDate: '2026-12-01', endDate: '2026-12-31', income: 0, bills: 0, leftover: 0, lowest: 10_000, endBalance: 10_000 },
    ]);
    const rows = computeBalances(ledger.openingBalance, [row('2026-12-01', 'Acme Paycheck', 'C', 5_000)]).rows;
    // The first paycheck on the first day: no opening period.
    expect(payPeriods(ledger, rows).map((period) => period.startDate)).toEqual(['2026-12-01']);
  });

  const ledgerArbitrary = fc
    .tuple(
      fc.integer({ min: 0, max: 120 }),
      fc.integer({ min: -50_000, max: 50_000 }),
      fc.array(
        fc.record({
          offset: fc.integer({ min: 0, max: 120 }),
          type: fc.constantFrom('C' as const, 'D' as const),
          paycheck: fc.boolean(),
          amount: fc.integer({ min: 1, max: 300_000 }),
        }),
        { maxLength: 40 },
      ),
    )
    .map(([length, opening, specs]) => {
      const bounds = { startDate: start, endDate: day(length), openingBalance: cents(opening) };
      const rows = specs.map((spec) =>
        row(
          day(Math.min(spec.offset, length)),
          spec.paycheck ? 'Acme Paycheck' : 'Bill',
          spec.type,
          spec.amount,
          spec.type === 'C' && spec.paycheck,
        ),
      );
      return { bounds, rows: computeBalances(bounds.openingBalance, rows).rows };
    });

  it('partition the ledger’s dates, add up to its credits and debits, and chain their balances (property)', () => {
    fc.assert(
      fc.property(ledgerArbitrary, ({ bounds, rows }) => {
        const periods = payPeriods(bounds, rows);
        expect(periods[0]?.startDate).toBe(bounds.startDate);
        expect(periods.at(-1)?.endDate).toBe(bounds.endDate);
        periods.forEach((period, index) => {
          expect(period.startDate <= period.endDate).toBe(true);
          const next = periods[index + 1];
          if (next) expect(next.startDate).toBe(addDays(period.endDate, 1));
          expect(period.leftover).toBe(period.income - period.bills);
          // Each period ends where the next one starts from.
          const startedWith = index === 0 ? bounds.openingBalance : (periods[index - 1]?.endBalance as number);
          expect(period.endBalance).toBe(startedWith + period.leftover);
          const inside = rows.filter((each) => each.date >= period.startDate && each.date <= period.endDate);
          expect(period.lowest).toBe(inside.length === 0 ? startedWith : Math.min(...inside.map((each) => each.balance)));
        });
        const sum = (type: 'C' | 'D') => rows.filter((each) => each.type === type).reduce((total, each) => total + each.amount, 0);
        expect(periods.reduce((total, period) => total + period.income, 0)).toBe(sum('C'));
        expect(periods.reduce((total, period) => total + period.bills, 0)).toBe(sum('D'));
      }),
      { numRuns: RUNS },
    );
  });

  it('find the lowest balance ahead and the first one below zero, as a brute-force search does (property)', () => {
    fc.assert(
      fc.property(ledgerArbitrary, fc.integer({ min: -10, max: 130 }), ({ rows }, todayOffset) => {
        const today = day(todayOffset);
        const ahead = rows.filter((each) => each.date >= today);
        const minimum = ahead.length === 0 ? null : Math.min(...ahead.map((each) => each.balance));
        const lowest = lowestAhead(rows, today);
        expect(lowest?.balance ?? null).toBe(minimum);
        if (lowest) expect(lowest.date).toBe(ahead.find((each) => each.balance === minimum)?.date);
        const below = ahead.find((each) => each.balance < 0);
        expect(firstBelowZero(rows, today)).toEqual(below ? { date: below.date, name: below.name, balance: below.balance } : null);
      }),
      { numRuns: RUNS },
    );
  });
});
