import { describe, expect, it } from 'vitest';
import { newTransactionSchema } from '../../../contract/ledger.js';
import { checkWithinLedger, dateOutsideLedger, withDateRangeError } from './ledger-range.js';

const ledger = { startDate: '2026-03-01', endDate: '2026-12-31' };

describe('ledger date range', () => {
  it('accepts the first and last days and everything between', () => {
    expect(dateOutsideLedger('2026-03-01', ledger)).toBeUndefined();
    expect(dateOutsideLedger('2026-07-15', ledger)).toBeUndefined();
    expect(dateOutsideLedger('2026-12-31', ledger)).toBeUndefined();
  });

  it('refuses a day before or after the ledger, naming its dates', () => {
    expect(dateOutsideLedger('2026-02-28', ledger)).toBe('Date must be between 2026-03-01 and 2026-12-31.');
    expect(dateOutsideLedger('2027-01-01', ledger)).toBe('Date must be between 2026-03-01 and 2026-12-31.');
  });

  it('leaves empty or malformed dates to the contract', () => {
    expect(dateOutsideLedger('', ledger)).toBeUndefined();
    expect(dateOutsideLedger('2026-13-01', ledger)).toBeUndefined();
  });

  it("never replaces the contract's own message for the date", () => {
    expect(withDateRangeError({ date: 'Date must be a real date (YYYY-MM-DD).' }, '2027-01-01', ledger)).toEqual({
      date: 'Date must be a real date (YYYY-MM-DD).',
    });
    expect(withDateRangeError({ name: 'Name is required.' }, '2027-01-01', ledger)).toEqual({
      name: 'Name is required.',
      date: 'Date must be between 2026-03-01 and 2026-12-31.',
    });
    expect(withDateRangeError({}, '2026-04-01', ledger)).toEqual({});
  });

  it('refuses a payload the contract accepts when its date is outside the ledger', () => {
    const row = { date: '2026-04-01', name: 'Coffee', type: 'D', amount: 4.5 };
    expect(checkWithinLedger(newTransactionSchema, row, row.date, ledger)).toEqual({ ok: true, value: row });
    expect(checkWithinLedger(newTransactionSchema, { ...row, date: '2027-01-01' }, '2027-01-01', ledger)).toEqual({
      ok: false,
      fields: { date: 'Date must be between 2026-03-01 and 2026-12-31.' },
    });
  });
});
