/**
 * Status moves painted over the held ledger (issue 24 item 3): what a Pay or a Clear shows before
 * the server answers is what the server will answer when it accepts the move, and a move the
 * domain does not allow from the held status is not painted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LedgerInfoView, LedgerTransactionView } from '../../contract/codecs.js';
import { computeBalances } from '../../domain/balances.js';
import { isoDate } from '../../domain/calendar-date.js';
import { isAllowedStatusMove, type LedgerRow, TRANSACTION_STATUSES, type TransactionStatus } from '../../domain/ledger.js';
import { cents, type Cents } from '../../domain/money.js';
import { paintStatusMoves } from './status-moves.js';

/** A ledger as the server answers it: rows in row order with the balances computeBalances gives them. */
function ledgerOf(openingBalance: Cents, rows: readonly Omit<LedgerRow, 'sequence'>[]): LedgerInfoView {
  const balances = computeBalances(
    openingBalance,
    rows.map((row, sequence) => ({ ...row, sequence })),
  );
  const transactions: LedgerTransactionView[] = balances.rows.map((row) => ({
    id: row.id,
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    balance: row.balance,
    status: row.status,
    source: null,
  }));
  return {
    ledger: {
      startDate: isoDate('2031-01-01'),
      endDate: isoDate('2031-12-31'),
      openingBalance,
      currentBalance: balances.currentBalance,
      pendingBalance: balances.pendingBalance,
      transactions,
    },
  };
}

const rowsArbitrary = fc.array(
  fc.record({
    day: fc.integer({ min: 1, max: 28 }),
    name: fc.constantFrom('Rent', 'Acme Paycheck', 'Phone', 'Aldi'),
    type: fc.constantFrom('D' as const, 'C' as const),
    amount: fc.integer({ min: 1, max: 9_999_999 }),
    status: fc.constantFrom(...TRANSACTION_STATUSES),
  }),
  { maxLength: 40 },
);

function rowsFrom(specs: readonly { day: number; name: string; type: 'D' | 'C'; amount: number; status: TransactionStatus }[]) {
  return specs.map((spec, index) => ({
    id: `r${index}`,
    date: isoDate(`2031-01-${String(spec.day).padStart(2, '0')}`),
    name: spec.name,
    type: spec.type,
    amount: cents(spec.amount),
    status: spec.status,
  }));
}

describe('paintStatusMoves', () => {
  it('paints what the server answers for the moves it allows, keeps every other row object, and leaves the held ledger alone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -9_999_999, max: 9_999_999 }),
        rowsArbitrary,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...TRANSACTION_STATUSES)), { maxLength: 10 }),
        (opening, specs, picks) => {
          const rows = rowsFrom(specs);
          const held = ledgerOf(cents(opening), rows);
          const before = JSON.stringify(held);
          const moves = new Map<string, TransactionStatus>();
          for (const [pick, status] of picks) if (rows.length > 0) moves.set(`r${pick % rows.length}`, status);

          const painted = paintStatusMoves(held, moves);

          // The server, accepting every move the domain allows from the held status, answers this ledger.
          const expected = ledgerOf(
            cents(opening),
            rows.map((row) => {
              const status = moves.get(row.id);
              return status !== undefined && isAllowedStatusMove(row.status, status) ? { ...row, status } : row;
            }),
          );
          expect(painted).toEqual(expected);
          expect(JSON.stringify(held)).toBe(before);
          const heldRows = held.ledger?.transactions ?? [];
          for (const [index, row] of (painted.ledger?.transactions ?? []).entries()) {
            if (row.status === heldRows[index]?.status) expect(row).toBe(heldRows[index]);
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
    );
  });

  it('answers the very ledger held when there is nothing to paint', () => {
    const held = ledgerOf(cents(10_000), rowsFrom([{ day: 3, name: 'Rent', type: 'D', amount: 5_000, status: 'CLEARED' }]));
    expect(paintStatusMoves(held, new Map())).toBe(held);
    // Back to PAID, or to the status it has: the domain allows neither as a move, so nothing is painted.
    expect(paintStatusMoves(held, new Map([['r0', 'PAID']]))).toBe(held);
    expect(paintStatusMoves(held, new Map([['r0', 'CLEARED']]))).toBe(held);
    expect(paintStatusMoves(held, new Map([['gone', 'PAID']]))).toBe(held);
    expect(paintStatusMoves({ ledger: null }, new Map([['r0', 'PAID']]))).toEqual({ ledger: null });
  });

  it('moves the pending balance on a Pay and both on a Clear, never a running balance', () => {
    const held = ledgerOf(
      cents(100_000),
      rowsFrom([
        { day: 2, name: 'Acme Paycheck', type: 'C', amount: 150_000, status: 'PENDING' },
        { day: 3, name: 'Rent', type: 'D', amount: 120_000, status: 'PENDING' },
      ]),
    );
    const paid = paintStatusMoves(held, new Map([['r1', 'PAID']]));
    expect(paid.ledger).toMatchObject({ currentBalance: 100_000, pendingBalance: -20_000 });
    const cleared = paintStatusMoves(
      held,
      new Map<string, TransactionStatus>([
        ['r0', 'CLEARED'],
        ['r1', 'CLEARED'],
      ]),
    );
    expect(cleared.ledger).toMatchObject({ currentBalance: 130_000, pendingBalance: 130_000 });
    expect(cleared.ledger?.transactions.map((row) => row.balance)).toEqual(held.ledger?.transactions.map((row) => row.balance));
  });
});
