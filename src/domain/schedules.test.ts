import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, fromDayNumber, isoDate, type IsoDate, toDayNumber, weekdayOf } from './calendar-date.js';
import { cents } from './money.js';
import {
  depositPaydays,
  endOfMonthPayday,
  expectedDepositDay,
  expenseDueDates,
  isExpenseActive,
  monthlyDepositAmount,
  totalMonthlyDeposits,
  totalMonthlyExpenses,
} from './schedules.js';

const range = (from: string, to: string) => ({ from: isoDate(from), to: isoDate(to) });
const dateArbitrary = fc.integer({ min: toDayNumber(isoDate('2000-01-01')), max: toDayNumber(isoDate('2040-12-31')) }).map(fromDayNumber);

describe('bi-weekly paydays', () => {
  it('are every 14 days from the start date', () => {
    const deposit = { amount: cents(100_000), startDate: isoDate('2026-11-06'), frequency: 'BW' as const };
    expect(depositPaydays(deposit, range('2026-11-01', '2026-12-31'))).toEqual(['2026-11-06', '2026-11-20', '2026-12-04', '2026-12-18']);
  });

  it('start on the start date even when the range starts earlier, and keep their rhythm when it starts later', () => {
    const deposit = { amount: cents(1), startDate: isoDate('2026-11-06'), frequency: 'BW' as const };
    expect(depositPaydays(deposit, range('2026-11-07', '2026-12-04'))).toEqual(['2026-11-20', '2026-12-04']);
    expect(depositPaydays(deposit, range('2026-01-01', '2026-11-05'))).toEqual([]);
  });

  it('all fall on the start weekday, 14 days apart, inside the range (property)', () => {
    fc.assert(
      fc.property(dateArbitrary, dateArbitrary, fc.integer({ min: 0, max: 800 }), (startDate, from, length) => {
        const to = addDays(from, length);
        const paydays = depositPaydays({ amount: cents(1), startDate, frequency: 'BW' }, { from, to });
        for (const payday of paydays) {
          expect(payday >= from && payday <= to && payday >= startDate).toBe(true);
          expect(weekdayOf(payday)).toBe(weekdayOf(startDate));
          expect(daysBetween(startDate, payday) % 14).toBe(0);
        }
        paydays.slice(1).forEach((payday, index) => expect(daysBetween(paydays[index] as IsoDate, payday)).toBe(14));
        // None is missed: the day before the first and after the last are more than 14 days off.
        const expected = Array.from({ length: length + 1 }, (_, offset) => addDays(from, offset)).filter(
          (day) => day >= startDate && daysBetween(startDate, day) % 14 === 0,
        );
        expect(paydays).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('end-of-month paydays', () => {
  it('fall on the last day of the month, or the Friday before a weekend', () => {
    expect(endOfMonthPayday(2026, 11)).toBe('2026-11-30'); // Monday
    expect(endOfMonthPayday(2026, 10)).toBe('2026-10-30'); // Oct 31 is a Saturday
    expect(endOfMonthPayday(2026, 5)).toBe('2026-05-29'); // May 31 is a Sunday
    expect(endOfMonthPayday(2028, 2)).toBe('2028-02-29'); // leap-year Tuesday
  });

  it('start from the start date month and stay inside the range', () => {
    const deposit = { amount: cents(1), startDate: isoDate('2026-10-15'), frequency: 'EOM' as const };
    expect(depositPaydays(deposit, range('2026-09-01', '2027-01-31'))).toEqual(['2026-10-30', '2026-11-30', '2026-12-31', '2027-01-29']);
    expect(depositPaydays(deposit, range('2026-11-01', '2026-11-29'))).toEqual([]);
  });

  it('never pay before the start date, even when Friday-before is earlier', () => {
    // Oct 2026 ends on Saturday: payday Friday Oct 30, before a Oct 31 start date.
    const deposit = { amount: cents(1), startDate: isoDate('2026-10-31'), frequency: 'EOM' as const };
    expect(depositPaydays(deposit, range('2026-10-01', '2026-11-30'))).toEqual(['2026-11-30']);
  });

  it('are one per month and never on a weekend (property)', () => {
    fc.assert(
      fc.property(dateArbitrary, fc.integer({ min: 0, max: 1000 }), (from, length) => {
        const to = addDays(from, length);
        const paydays = depositPaydays({ amount: cents(1), startDate: isoDate('1999-01-01'), frequency: 'EOM' }, { from, to });
        for (const payday of paydays) {
          expect(['Saturday', 'Sunday']).not.toContain(weekdayOf(payday));
          expect(payday >= from && payday <= to).toBe(true);
        }
        expect(new Set(paydays.map((payday) => payday.slice(0, 7))).size).toBe(paydays.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('expense due dates', () => {
  it('fall on the day each month, clamped to short months', () => {
    const rent = { amount: cents(1), day: 31, endDate: null };
    expect(expenseDueDates(rent, range('2027-01-01', '2027-04-30'))).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
    expect(expenseDueDates(rent, range('2028-02-01', '2028-02-29'))).toEqual(['2028-02-29']);
  });

  it('stop after the end date', () => {
    const loan = { amount: cents(1), day: 15, endDate: isoDate('2027-02-15') };
    expect(expenseDueDates(loan, range('2026-12-01', '2027-06-30'))).toEqual(['2026-12-15', '2027-01-15', '2027-02-15']);
    const ended = { amount: cents(1), day: 15, endDate: isoDate('2027-02-14') };
    expect(expenseDueDates(ended, range('2026-12-01', '2027-06-30'))).toEqual(['2026-12-15', '2027-01-15']);
    expect(expenseDueDates(ended, range('2027-03-01', '2027-06-30'))).toEqual([]);
  });

  it('are one per month on min(day, month length), within range and end (property)', () => {
    fc.assert(
      fc.property(
        dateArbitrary,
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 31 }),
        fc.option(dateArbitrary),
        (from, length, day, endDate) => {
          const to = addDays(from, length);
          const dueDates = expenseDueDates({ amount: cents(1), day, endDate }, { from, to });
          const expected = Array.from({ length: length + 1 }, (_, offset) => addDays(from, offset)).filter((date) => {
            const [year, month, dayOfMonth] = date.split('-').map(Number) as [number, number, number];
            const monthLength = new Date(Date.UTC(year, month, 0)).getUTCDate();
            return dayOfMonth === Math.min(day, monthLength) && (endDate === null || date <= endDate);
          });
          expect(dueDates).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('monthly totals', () => {
  it('count a bi-weekly deposit as 26 paydays over 12 months, rounded half-up', () => {
    expect(monthlyDepositAmount({ amount: cents(100_000), frequency: 'BW' })).toBe(216_667);
    expect(monthlyDepositAmount({ amount: cents(100_000), frequency: 'EOM' })).toBe(100_000);
    expect(
      totalMonthlyDeposits([
        { amount: cents(100_000), frequency: 'BW' },
        { amount: cents(50_000), frequency: 'EOM' },
      ]),
    ).toBe(266_667);
  });

  it('ignore expenses that ended before today; one ending today still counts', () => {
    const today = isoDate('2026-11-21');
    const expenses = [
      { amount: cents(10), endDate: null },
      { amount: cents(20), endDate: isoDate('2026-11-21') },
      { amount: cents(40), endDate: isoDate('2026-11-20') },
    ];
    expect(isExpenseActive(expenses[1] as (typeof expenses)[number], today)).toBe(true);
    expect(totalMonthlyExpenses(expenses, today)).toBe(30);
  });

  it('know the weekday a deposit must be entered with', () => {
    expect(expectedDepositDay('BW', isoDate('2026-11-20'))).toBe('Friday');
    expect(expectedDepositDay('EOM', isoDate('2026-11-20'))).toBe('N/A');
  });
});
