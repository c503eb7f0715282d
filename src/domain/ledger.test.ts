import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRows, computeBalances } from './balances.js';
import { addDays, fromDayNumber, isoDate, toDayNumber } from './calendar-date.js';
import {
  canClear,
  canEdit,
  canPay,
  generateLedgerDrafts,
  isAllowedStatusMove,
  type LedgerRow,
  paycheckName,
  signedAmount,
  TRANSACTION_STATUSES,
  type TransactionStatus,
} from './ledger.js';
import { latestLedgerEnd } from './ledger-span.js';
import { cents } from './money.js';

const row = (overrides: Partial<LedgerRow> & Pick<LedgerRow, 'sequence'>): LedgerRow => ({
  id: `row-${overrides.sequence}`,
  date: isoDate('2026-12-01'),
  name: 'Row',
  type: 'D',
  amount: cents(100),
  status: 'PENDING',
  ...overrides,
});

describe('ledger generation', () => {
  const deposits = [{ name: 'Acme', amount: cents(150_000), startDate: isoDate('2026-12-04'), frequency: 'BW' as const }];
  const expenses = [
    { name: 'Rent', amount: cents(120_000), day: 4, endDate: null },
    { name: 'Internet', amount: cents(6_000), day: 4, endDate: null },
    { name: 'Gym', amount: cents(3_000), day: 31, endDate: isoDate('2027-01-31') },
  ];

  it('projects paychecks and bills in row order: date, credits first, then name', () => {
    const drafts = generateLedgerDrafts(deposits, expenses, { from: isoDate('2026-12-01'), to: isoDate('2027-02-28') });
    expect(drafts.map((draft) => `${draft.date} ${draft.type} ${draft.name}`)).toEqual([
      '2026-12-04 C Acme Paycheck',
      '2026-12-04 D Internet',
      '2026-12-04 D Rent',
      '2026-12-18 C Acme Paycheck',
      '2026-12-31 D Gym',
      '2027-01-01 C Acme Paycheck',
      '2027-01-04 D Internet',
      '2027-01-04 D Rent',
      '2027-01-15 C Acme Paycheck',
      '2027-01-29 C Acme Paycheck',
      '2027-01-31 D Gym',
      '2027-02-04 D Internet',
      '2027-02-04 D Rent',
      '2027-02-12 C Acme Paycheck',
      '2027-02-26 C Acme Paycheck',
    ]);
  });

  it('adds the Paycheck suffix once', () => {
    expect(paycheckName('Acme')).toBe('Acme Paycheck');
    expect(paycheckName('Acme Paycheck')).toBe('Acme Paycheck');
  });

  it('includes both end dates', () => {
    const drafts = generateLedgerDrafts(deposits, [], { from: isoDate('2026-12-04'), to: isoDate('2026-12-18') });
    expect(drafts.map((draft) => draft.date)).toEqual(['2026-12-04', '2026-12-18']);
  });

  it('allows at most five years', () => {
    expect(latestLedgerEnd(isoDate('2026-11-21'))).toBe('2031-11-21');
    expect(latestLedgerEnd(isoDate('2028-02-29'))).toBe('2033-02-28');
  });

  it('never ends past 9999-12-31, the last date there is', () => {
    expect(latestLedgerEnd(isoDate('9994-12-31'))).toBe('9999-12-31');
    // A ledger stored before later starts were refused still gets a real latest end.
    expect(latestLedgerEnd(isoDate('9995-01-01'))).toBe('9999-12-31');
    expect(latestLedgerEnd(isoDate('9999-12-31'))).toBe('9999-12-31');
  });

  it('generates a ledger ending on 9999-12-31 without computing a date past it', () => {
    const weekly = [{ name: 'Weekly', amount: cents(100), startDate: isoDate('9999-12-03'), frequency: 'W' as const }];
    const drafts = generateLedgerDrafts(weekly, [], { from: isoDate('9999-12-01'), to: isoDate('9999-12-31') });
    expect(drafts.map((draft) => draft.date)).toEqual(['9999-12-03', '9999-12-10', '9999-12-17', '9999-12-24', '9999-12-31']);
  });
});

describe('balances', () => {
  it('runs the balance in row order and counts cleared and paid rows', () => {
    const rows = [
      row({ sequence: 3, date: isoDate('2026-12-02'), name: 'Rent', amount: cents(120_000) }),
      row({ sequence: 1, date: isoDate('2026-12-01'), name: 'Pay', type: 'C', amount: cents(150_000), status: 'CLEARED' }),
      row({ sequence: 2, date: isoDate('2026-12-01'), name: 'Coffee', amount: cents(450), status: 'PAID' }),
    ];
    const result = computeBalances(cents(10_000), rows);
    expect(result.rows.map((each) => [each.name, each.balance])).toEqual([
      ['Pay', 160_000],
      ['Coffee', 159_550],
      ['Rent', 39_550],
    ]);
    expect(result.currentBalance).toBe(160_000);
    expect(result.pendingBalance).toBe(159_550);
  });

  it('adds 0.10 and 0.20 exactly', () => {
    const result = computeBalances(cents(0), [
      row({ sequence: 1, type: 'C', amount: cents(10) }),
      row({ sequence: 2, type: 'C', amount: cents(20) }),
    ]);
    expect(result.rows.at(-1)?.balance).toBe(30);
  });

  it('orders equal rows by creation', () => {
    const rows = [row({ sequence: 2, name: 'Same' }), row({ sequence: 1, name: 'Same' })];
    expect([...rows].sort(compareRows).map((each) => each.sequence)).toEqual([1, 2]);
  });

  const rowsArbitrary = fc.array(
    fc.record({
      day: fc.integer({ min: 0, max: 60 }),
      name: fc.constantFrom('Rent', 'rent', 'Acme Paycheck', 'Zelle', 'Aldi'),
      type: fc.constantFrom('D' as const, 'C' as const),
      amount: fc.integer({ min: 1, max: 9_999_999_999 }),
      status: fc.constantFrom(...TRANSACTION_STATUSES),
    }),
    { maxLength: 60 },
  );

  it('equals the opening balance plus the signed sum of the rows up to each one (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -9_999_999_999, max: 9_999_999_999 }), rowsArbitrary, (opening, specs) => {
        const start = toDayNumber(isoDate('2026-12-01'));
        const rows = specs.map((spec, index) =>
          row({
            sequence: index,
            date: fromDayNumber(start + spec.day),
            name: spec.name,
            type: spec.type,
            amount: cents(spec.amount),
            status: spec.status,
          }),
        );
        const result = computeBalances(cents(opening), rows);
        let running = opening;
        result.rows.forEach((each, index) => {
          running += signedAmount(each);
          expect(each.balance).toBe(running);
          const previous = result.rows[index - 1];
          if (previous) expect(compareRows(previous, each)).toBeLessThan(0);
        });
        const sumWhere = (statuses: TransactionStatus[]) =>
          rows.filter((each) => statuses.includes(each.status)).reduce((total, each) => total + signedAmount(each), opening);
        expect(result.currentBalance).toBe(sumWhere(['CLEARED']));
        expect(result.pendingBalance).toBe(sumWhere(['PAID', 'CLEARED']));
        expect(result.rows).toHaveLength(rows.length);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every balance consistent through any allowed status moves (property)', () => {
    fc.assert(
      fc.property(
        rowsArbitrary,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...TRANSACTION_STATUSES)), { maxLength: 80 }),
        (specs, moves) => {
          let rows = specs.map((spec, index) =>
            row({
              sequence: index,
              date: addDays(isoDate('2026-12-01'), spec.day),
              name: spec.name,
              type: spec.type,
              amount: cents(spec.amount),
            }),
          );
          for (const [pick, target] of moves) {
            if (rows.length === 0) break;
            const index = pick % rows.length;
            const current = rows[index] as LedgerRow;
            if (!isAllowedStatusMove(current.status, target)) continue;
            rows = rows.map((each, position) => (position === index ? { ...each, status: target } : each));
          }
          const result = computeBalances(cents(0), rows);
          // Cleared money is always also counted as paid: pending - current = the PAID rows.
          const paidOnly = rows.filter((each) => each.status === 'PAID').reduce((total, each) => total + signedAmount(each), 0);
          expect(result.pendingBalance - result.currentBalance).toBe(paidOnly);
          expect(result.rows.at(-1)?.balance ?? 0).toBe(rows.reduce((total, each) => total + signedAmount(each), 0));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('status moves', () => {
  it('only move forward', () => {
    expect(isAllowedStatusMove('PENDING', 'PAID')).toBe(true);
    expect(isAllowedStatusMove('PENDING', 'CLEARED')).toBe(true);
    expect(isAllowedStatusMove('PAID', 'CLEARED')).toBe(true);
    expect(isAllowedStatusMove('PAID', 'PENDING')).toBe(false);
    expect(isAllowedStatusMove('CLEARED', 'PENDING')).toBe(false);
    expect(isAllowedStatusMove('CLEARED', 'PAID')).toBe(false);
    for (const status of TRANSACTION_STATUSES) expect(isAllowedStatusMove(status, status)).toBe(true);
  });

  it('enable pay, clear and edit as the spec says', () => {
    expect([canPay('PENDING'), canPay('PAID'), canPay('CLEARED')]).toEqual([true, false, false]);
    expect([canClear('PENDING'), canClear('PAID'), canClear('CLEARED')]).toEqual([true, true, false]);
    expect([canEdit('PENDING'), canEdit('PAID'), canEdit('CLEARED')]).toEqual([true, false, false]);
  });
});
