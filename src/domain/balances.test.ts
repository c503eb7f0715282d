import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRows, computeBalances, placeInBlock } from './balances.js';
import { fromDayNumber, isoDate, toDayNumber } from './calendar-date.js';
import { BANK_STATES, type BankState, isCounted, type LedgerRow, signedAmount, TRANSACTION_STATUSES } from './ledger.js';
import { cents } from './money.js';

/** Property runs: modest in CI, more under `npm run fuzz`. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const BASE = toDayNumber(isoDate('2026-11-20'));

/** Rows over about four months, many on the same dates and with names equal but for case: ties everywhere. */
const rowsArbitrary: fc.Arbitrary<LedgerRow[]> = fc
  .array(
    fc.record({
      day: fc.integer({ min: 0, max: 120 }),
      name: fc.constantFrom('Rent', 'rent', 'Coffee', 'Acme Paycheck', 'Zoo', 'Épicerie'),
      type: fc.constantFrom('C' as const, 'D' as const),
      amount: fc.integer({ min: 1, max: 300_000 }),
      status: fc.constantFrom(...TRANSACTION_STATUSES),
    }),
    { maxLength: 80 },
  )
  .map((drafts) =>
    // Creation order is not row order: shuffled by the draft order, numbered as stored.
    drafts.map((draft, index) => ({
      id: `row-${index}`,
      sequence: index + 1,
      date: fromDayNumber(BASE + draft.day),
      name: draft.name,
      type: draft.type,
      amount: cents(draft.amount),
      status: draft.status,
    })),
  );

describe('placeInBlock', () => {
  it('places any rows of an unbroken stretch of row order where computeBalances puts them, from that stretch and what lies before it alone', () => {
    fc.assert(
      fc.property(
        rowsArbitrary,
        fc.integer({ min: -500_000, max: 500_000 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.array(fc.nat()),
        (rows, opening, pick, fromPick, lengthPick, more) => {
          fc.pre(rows.length > 0);
          // A block: any stretch of the rows in row order that holds the target, handed over in creation order.
          const ordered = [...rows].sort(compareRows);
          const at = pick % ordered.length;
          const from = fromPick % (at + 1);
          const to = at + 1 + (lengthPick % (ordered.length - at));
          const stretch = ordered.slice(from, to);
          const blockRows = rows.filter((row) => stretch.includes(row));
          const earlier = ordered.slice(0, from);
          const before = { rows: earlier.length, signed: earlier.reduce((sum, row) => sum + signedAmount(row), 0) };
          const whole = computeBalances(cents(opening), rows).rows;
          const target = ordered[at] as LedgerRow;
          const ids = new Set([target.id, ...more.map((index) => (stretch[index % stretch.length] as LedgerRow).id)]);
          const expected = new Map(
            [...ids].map((id) => {
              const position = whole.findIndex((row) => row.id === id);
              return [id, { position, balance: whole[position]?.balance }];
            }),
          );
          expect(placeInBlock(cents(opening), blockRows, ids, before)).toEqual(expected);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('has no place for a row that is not among the block’s rows', () => {
    const row: LedgerRow = {
      id: 'a',
      sequence: 1,
      date: isoDate('2026-12-01'),
      name: 'Rent',
      type: 'D',
      amount: cents(100),
      status: 'PENDING',
    };
    expect(placeInBlock(cents(0), [row], new Set(['b']), { rows: 0, signed: 0 })).toEqual(new Map());
  });
});

describe('rows no longer at the bank (issue 37, decision 0084)', () => {
  it('count in no balance: the others balance as if they were not there, and each one’s running balance is the row’s before it', () => {
    fc.assert(
      fc.property(
        rowsArbitrary,
        fc.array(fc.constantFrom(null, ...BANK_STATES)),
        fc.integer({ min: -500_000, max: 500_000 }),
        (drafts, states, opening) => {
          const stateOf = (index: number): BankState | null => (states.length === 0 ? null : (states[index % states.length] ?? null));
          const rows: LedgerRow[] = drafts.map((row, index) => {
            const state = stateOf(index);
            return { ...row, bank: state === null ? null : { state } };
          });
          const all = computeBalances(cents(opening), rows);
          const counted = computeBalances(cents(opening), rows.filter(isCounted));
          expect([all.currentBalance, all.pendingBalance]).toEqual([counted.currentBalance, counted.pendingBalance]);
          const balanceOf = new Map(counted.rows.map((row) => [row.id, row.balance]));
          all.rows.forEach((row, index) => {
            const before = index === 0 ? opening : all.rows[index - 1]?.balance;
            expect(row.balance).toBe(isCounted(row) ? balanceOf.get(row.id) : before);
          });
        },
      ),
      { numRuns: RUNS },
    );
  });
});
