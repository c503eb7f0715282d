import { describe, expect, it } from 'vitest';
import { addDays, isoDate, type IsoDate } from './calendar-date.js';
import { everydayHistory, lastFullWeekStart } from './everyday-spending.js';
import type { LedgerRow } from './ledger.js';
import { cents } from './money.js';

// A Wednesday far ahead: the last full week is the one of Monday 2031-03-03.
const TODAY = isoDate('2031-03-12');

let sequence = 0;
const row = (date: IsoDate, amount: number, options: Partial<LedgerRow> = {}): LedgerRow => {
  sequence += 1;
  return { id: `r${sequence}`, sequence, date, name: 'Card', type: 'D', amount: cents(amount), status: 'CLEARED', ...options };
};

describe('the everyday spending suggestion', () => {
  it('ends on the last Sunday before today', () => {
    expect(lastFullWeekStart(TODAY)).toBe('2031-03-03');
    expect(lastFullWeekStart(isoDate('2031-03-10'))).toBe('2031-03-03');
    expect(lastFullWeekStart(isoDate('2031-03-09'))).toBe('2031-02-24');
  });

  it('is the median of 13 weeks of cleared debits nothing projected', () => {
    const totals = [10_000, 9_000, 11_000, 9_753, 10_500, 8_000, 12_000, 8_500, 11_500, 9_900, 9_200, 13_000, 7_000];
    const first = addDays(lastFullWeekStart(TODAY), -7 * 12);
    const rows = totals.flatMap((total, week) => {
      const monday = addDays(first, 7 * week);
      return [
        row(addDays(monday, 2), total - 100),
        row(addDays(monday, 6), 100),
        // Never counted: a schedule's row, a transfer's, a card payment, a pending debit, a credit.
        row(addDays(monday, 1), 5_000, { source: { kind: 'expense', id: 'phone', occurrence: addDays(monday, 1), edited: true } }),
        row(addDays(monday, 1), 5_000, { transfer: { id: 'x', accountId: 'savings' } }),
        row(addDays(monday, 3), 5_000, { source: { kind: 'card', id: 'visa', occurrence: monday, edited: false } }),
        row(addDays(monday, 3), 5_000, { status: 'PENDING' }),
        row(addDays(monday, 4), 5_000, { type: 'C' }),
      ];
    });
    // Outside the 13 weeks: before them, and this week.
    rows.push(row(addDays(first, -1), 99_999), row(TODAY, 99_999));
    const history = everydayHistory(addDays(first, -30), rows, TODAY);
    expect(history.weeks.map((week) => week.total)).toEqual(totals);
    expect(history.weeks[0]?.startDate).toBe(first);
    expect(history.suggestion).toBe(9_900);
  });

  it('suggests nothing with fewer than 4 full weeks, and the mean of the middle two with an even count', () => {
    const last = lastFullWeekStart(TODAY);
    const rows = [row(last, 1_000), row(addDays(last, -7), 2_001), row(addDays(last, -14), 3_000), row(addDays(last, -21), 500)];
    expect(everydayHistory(addDays(last, -14), rows, TODAY)).toEqual({
      weeks: [
        { startDate: addDays(last, -14), total: 3_000 },
        { startDate: addDays(last, -7), total: 2_001 },
        { startDate: last, total: 1_000 },
      ],
      suggestion: null,
    });
    expect(everydayHistory(addDays(last, -21), rows, TODAY).suggestion).toBe(1_501);
  });
});
