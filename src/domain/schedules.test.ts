import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysBetween, fromDayNumber, isoDate, type IsoDate, toDayNumber, weekdayOf } from './calendar-date.js';
import { cents } from './money.js';
import {
  depositPaydays,
  endOfMonthPayday,
  expectedDepositDay,
  expenseDueDates,
  isExpenseActive,
  mostOccurrences,
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

const weekend = (date: IsoDate) => ['Saturday', 'Sunday'].includes(weekdayOf(date));
const lengthOfMonth = (date: IsoDate) => new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).getUTCDate();
const everyDay = (from: IsoDate, length: number) => Array.from({ length: length + 1 }, (_, offset) => addDays(from, offset));

describe('weekly paydays', () => {
  it('are every 7 days from the start date, on its weekday', () => {
    const deposit = { amount: cents(50_000), startDate: isoDate('2026-11-06'), frequency: 'W' as const };
    expect(depositPaydays(deposit, range('2026-11-01', '2026-11-30'))).toEqual(['2026-11-06', '2026-11-13', '2026-11-20', '2026-11-27']);
    expect(expectedDepositDay('W', isoDate('2026-11-06'))).toBe('Friday');
  });

  it('are exactly the days a multiple of 7 after the start, inside the range (property)', () => {
    fc.assert(
      fc.property(dateArbitrary, dateArbitrary, fc.integer({ min: 0, max: 400 }), (startDate, from, length) => {
        const paydays = depositPaydays({ amount: cents(1), startDate, frequency: 'W' }, { from, to: addDays(from, length) });
        expect(paydays).toEqual(everyDay(from, length).filter((day) => day >= startDate && daysBetween(startDate, day) % 7 === 0));
      }),
      { numRuns: 200 },
    );
  });
});

describe('twice-a-month paydays', () => {
  it('fall on the 15th and the last day, the Friday before when on a weekend, from the start date on', () => {
    const deposit = { amount: cents(1), startDate: isoDate('2026-08-10'), frequency: 'SM' as const };
    // Aug 15 2026 is a Saturday, Aug 31 a Monday; Oct 31 a Saturday; Nov 15 a Sunday.
    expect(depositPaydays(deposit, range('2026-08-01', '2026-11-30'))).toEqual([
      '2026-08-14',
      '2026-08-31',
      '2026-09-15',
      '2026-09-30',
      '2026-10-15',
      '2026-10-30',
      '2026-11-13',
      '2026-11-30',
    ]);
    expect(depositPaydays({ ...deposit, startDate: isoDate('2026-08-20') }, range('2026-08-01', '2026-08-31'))).toEqual(['2026-08-31']);
  });

  it('are two a month, never on a weekend, never before the start, each within two days of the 15th or the last day (property)', () => {
    fc.assert(
      fc.property(dateArbitrary, dateArbitrary, fc.integer({ min: 0, max: 800 }), (startDate, from, length) => {
        const to = addDays(from, length);
        const paydays = depositPaydays({ amount: cents(1), startDate, frequency: 'SM' }, { from, to });
        for (const payday of paydays) {
          expect(payday >= from && payday <= to && payday >= startDate && !weekend(payday)).toBe(true);
          const day = Number(payday.slice(8, 10));
          expect((day >= 13 && day <= 15) || day >= lengthOfMonth(payday) - 2).toBe(true);
        }
        const perMonth = new Map<string, number>();
        for (const payday of paydays) perMonth.set(payday.slice(0, 7), (perMonth.get(payday.slice(0, 7)) ?? 0) + 1);
        for (const count of perMonth.values()) expect(count).toBeLessThanOrEqual(2);
        paydays.slice(1).forEach((payday, index) => expect(payday > (paydays[index] as IsoDate)).toBe(true));
      }),
      { numRuns: 200 },
    );
  });
});

describe('monthly paydays', () => {
  it("fall on the start date's day each month, the last day in shorter months, the Friday before a weekend", () => {
    const deposit = { amount: cents(1), startDate: isoDate('2027-01-31'), frequency: 'M' as const };
    // Feb 28 2027 is a Sunday, Apr 30 a Friday, Jan 31 a Sunday.
    expect(depositPaydays(deposit, range('2027-01-01', '2027-04-30'))).toEqual(['2027-02-26', '2027-03-31', '2027-04-30']);
    expect(depositPaydays(deposit, range('2028-02-01', '2028-02-29'))).toEqual(['2028-02-29']);
  });

  it('are one a month, never on a weekend, never before the start, at most two days early (property)', () => {
    fc.assert(
      fc.property(dateArbitrary, dateArbitrary, fc.integer({ min: 0, max: 800 }), (startDate, from, length) => {
        const to = addDays(from, length);
        const paydays = depositPaydays({ amount: cents(1), startDate, frequency: 'M' }, { from, to });
        const startDay = Number(startDate.slice(8, 10));
        const intendedMonths = paydays.map((payday) => {
          expect(payday >= from && payday <= to && payday >= startDate && !weekend(payday)).toBe(true);
          // The date it stands for is this day or up to two weekend days later (day 1 may move into the month before).
          const intended = [0, 1, 2]
            .map((offset) => addDays(payday, offset))
            .find((date) => Number(date.slice(8, 10)) === Math.min(startDay, lengthOfMonth(date)));
          expect(intended).toBeDefined();
          for (let offset = 1; offset <= daysBetween(payday, intended as IsoDate); offset += 1)
            expect(weekend(addDays(payday, offset))).toBe(true);
          return (intended as IsoDate).slice(0, 7);
        });
        expect(new Set(intendedMonths).size).toBe(paydays.length);
        // None is missed: every month's date, moved off a weekend, that lands in the range after the start.
        const expected = new Set<string>();
        for (let offset = -1; offset <= Math.ceil(length / 28) + 2; offset += 1) {
          const month = addMonths(isoDate(`${from.slice(0, 7)}-01`), offset);
          let payday = isoDate(`${month.slice(0, 7)}-${String(Math.min(startDay, lengthOfMonth(month))).padStart(2, '0')}`);
          while (weekend(payday)) payday = addDays(payday, -1);
          if (payday >= from && payday <= to && payday >= startDate) expected.add(payday);
        }
        expect(paydays).toEqual([...expected].sort());
      }),
      { numRuns: 200 },
    );
  });
});

describe('expense due dates by frequency', () => {
  const expense = (frequency: 'M' | 'W' | 'BW' | 'Q' | 'Y', startDate: string | null, day = 1) => ({
    amount: cents(1),
    day,
    endDate: null,
    frequency,
    startDate: startDate === null ? null : isoDate(startDate),
  });

  it('monthly: on the day, from the start date month on when there is one; weekends stay', () => {
    expect(expenseDueDates(expense('M', '2026-12-20', 5), range('2026-11-01', '2027-01-31'))).toEqual(['2026-12-05', '2027-01-05']);
    expect(expenseDueDates(expense('M', null, 31), range('2026-10-01', '2026-10-31'))).toEqual(['2026-10-31']); // a Saturday
  });

  it('weekly and every 2 weeks: 7 and 14 days apart from the start date', () => {
    expect(expenseDueDates(expense('W', '2026-11-02'), range('2026-11-01', '2026-11-30'))).toEqual([
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
      '2026-11-30',
    ]);
    expect(expenseDueDates(expense('BW', '2026-11-02'), range('2026-11-10', '2026-12-31'))).toEqual([
      '2026-11-16',
      '2026-11-30',
      '2026-12-14',
      '2026-12-28',
    ]);
  });

  it('every 3 months on the start day, the last day in shorter months', () => {
    expect(expenseDueDates(expense('Q', '2026-11-30'), range('2026-01-01', '2027-12-31'))).toEqual([
      '2026-11-30',
      '2027-02-28',
      '2027-05-30',
      '2027-08-30',
      '2027-11-30',
    ]);
  });

  it('yearly on the start month and day, Feb 28 in years without a Feb 29', () => {
    expect(expenseDueDates(expense('Y', '2028-02-29'), range('2028-01-01', '2032-12-31'))).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
  });

  it('stop after the end date and never fall before the start date, for every frequency (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('M' as const, 'W' as const, 'BW' as const, 'Q' as const, 'Y' as const),
        dateArbitrary,
        dateArbitrary,
        fc.integer({ min: 0, max: 1500 }),
        fc.option(dateArbitrary, { nil: null }),
        (frequency, startDate, from, length, endDate) => {
          const to = addDays(from, length);
          const schedule = { ...expense(frequency, startDate, Number(startDate.slice(8, 10))), endDate };
          const dates = expenseDueDates(schedule, { from, to });
          for (const date of dates) {
            expect(date >= from && date <= to && (endDate === null || date <= endDate)).toBe(true);
            if (frequency !== 'M') expect(date >= startDate).toBe(true);
          }
          const gaps = dates.slice(1).map((date, index) => daysBetween(dates[index] as IsoDate, date));
          const [shortest, longest] = { M: [28, 31], W: [7, 7], BW: [14, 14], Q: [89, 92], Y: [365, 366] }[frequency] as [number, number];
          for (const gap of gaps) expect(gap >= shortest && gap <= longest).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('monthly equivalents of every frequency', () => {
  it('deposits: weekly x 52 / 12, bi-weekly x 26 / 12, twice a month x 2, monthly and end of month x 1, half-up', () => {
    const amount = cents(100_001);
    expect(monthlyDepositAmount({ amount, frequency: 'W' })).toBe(433_338); // 433,337.67
    expect(monthlyDepositAmount({ amount, frequency: 'BW' })).toBe(216_669); // 216,668.83
    expect(monthlyDepositAmount({ amount, frequency: 'SM' })).toBe(200_002);
    expect(monthlyDepositAmount({ amount, frequency: 'M' })).toBe(100_001);
    expect(monthlyDepositAmount({ amount, frequency: 'EOM' })).toBe(100_001);
  });

  it('expenses: weekly x 52 / 12, every 2 weeks x 26 / 12, quarterly / 3, yearly / 12, each rounded half-up, summed in cents', () => {
    const today = isoDate('2026-11-21');
    const bill = (amount: number, frequency: 'M' | 'W' | 'BW' | 'Q' | 'Y') => ({ amount: cents(amount), endDate: null, frequency });
    expect(totalMonthlyExpenses([bill(1_000, 'W')], today)).toBe(4_333);
    expect(totalMonthlyExpenses([bill(1_000, 'BW')], today)).toBe(2_167);
    expect(totalMonthlyExpenses([bill(1_000, 'Q')], today)).toBe(333);
    expect(totalMonthlyExpenses([bill(1_000, 'Y')], today)).toBe(83);
    expect(totalMonthlyExpenses([bill(1_000, 'M'), bill(1_000, 'Q'), bill(1_000, 'Y')], today)).toBe(1_416);
    expect(totalMonthlyExpenses([{ amount: cents(1_000), endDate: null }], today)).toBe(1_000);
  });
});

describe('schedules at the end of the calendar (9999-12-31)', () => {
  const lastMonth = range('9999-12-01', '9999-12-31');

  it('step weekly and bi-weekly up to the last date and stop there', () => {
    expect(depositPaydays({ amount: cents(1), startDate: isoDate('9999-12-03'), frequency: 'W' }, lastMonth)).toEqual([
      '9999-12-03',
      '9999-12-10',
      '9999-12-17',
      '9999-12-24',
      '9999-12-31',
    ]);
    expect(
      expenseDueDates({ amount: cents(1), day: 3, endDate: null, frequency: 'BW', startDate: isoDate('9999-12-03') }, lastMonth),
    ).toEqual(['9999-12-03', '9999-12-17', '9999-12-31']);
  });

  it('still fall due in December 9999 by month, quarter and year', () => {
    // 9999-12-31 is a Friday: the end-of-month payday stays on it.
    expect(depositPaydays({ amount: cents(1), startDate: isoDate('9999-01-31'), frequency: 'EOM' }, lastMonth)).toEqual(['9999-12-31']);
    expect(depositPaydays({ amount: cents(1), startDate: isoDate('9999-01-15'), frequency: 'SM' }, lastMonth)).toEqual([
      '9999-12-15',
      '9999-12-31',
    ]);
    expect(expenseDueDates({ amount: cents(1), day: 5, endDate: null, frequency: 'M', startDate: null }, lastMonth)).toEqual([
      '9999-12-05',
    ]);
    expect(
      expenseDueDates({ amount: cents(1), day: 5, endDate: null, frequency: 'Q', startDate: isoDate('9999-03-05') }, lastMonth),
    ).toEqual(['9999-12-05']);
    expect(
      expenseDueDates({ amount: cents(1), day: 5, endDate: null, frequency: 'Y', startDate: isoDate('9995-12-05') }, lastMonth),
    ).toEqual(['9999-12-05']);
  });
});

describe('the most dates a schedule can have within a range', () => {
  it('bounds every frequency’s dates, and is exact for weekly and bi-weekly ones (property)', () => {
    const depositFrequency = fc.constantFrom('W', 'BW', 'SM', 'M', 'EOM') as fc.Arbitrary<'W' | 'BW' | 'SM' | 'M' | 'EOM'>;
    const expenseFrequency = fc.constantFrom('M', 'W', 'BW', 'Q', 'Y') as fc.Arbitrary<'M' | 'W' | 'BW' | 'Q' | 'Y'>;
    fc.assert(
      fc.property(
        dateArbitrary,
        dateArbitrary,
        fc.integer({ min: -3, max: 1900 }),
        depositFrequency,
        expenseFrequency,
        fc.integer({ min: 1, max: 31 }),
        (startDate, from, length, depositEvery, expenseEvery, day) => {
          const within = { from, to: addDays(from, length) };
          const paydays = depositPaydays({ amount: cents(1), startDate: from, frequency: depositEvery }, within);
          const dues = expenseDueDates({ amount: cents(1), day, endDate: null, frequency: expenseEvery, startDate: from }, within);
          expect(mostOccurrences(depositEvery, within)).toBeGreaterThanOrEqual(paydays.length);
          expect(mostOccurrences(expenseEvery, within)).toBeGreaterThanOrEqual(dues.length);
          const later = depositPaydays({ amount: cents(1), startDate, frequency: depositEvery }, within);
          expect(mostOccurrences(depositEvery, within)).toBeGreaterThanOrEqual(later.length);
          const laterDues = expenseDueDates({ amount: cents(1), day, endDate: null, frequency: expenseEvery, startDate }, within);
          expect(mostOccurrences(expenseEvery, within)).toBeGreaterThanOrEqual(laterDues.length);
          if (depositEvery === 'W' || depositEvery === 'BW') expect(mostOccurrences(depositEvery, within)).toBe(paydays.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is none for a range that ends before it starts', () => {
    expect(mostOccurrences('W', range('2026-12-02', '2026-12-01'))).toBe(0);
  });
});
