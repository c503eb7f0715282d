/**
 * What the domain says a ledger's balances must be, for tests that compare an API answer (in
 * dollars) against a recomputation: from the answer's own rows, or from requests sent one by one.
 */
import { expect } from 'vitest';
import type { Ledger } from '../../src/contract/ledger.js';
import { isoDate } from '../../src/domain/calendar-date.js';
import { computeBalances } from '../../src/domain/balances.js';
import type { TransactionStatus, TransactionType } from '../../src/domain/ledger.js';
import { centsToDollars, dollarsToCents } from '../../src/domain/money.js';

export interface RowInDollars {
  readonly id?: string;
  readonly date: string;
  readonly name: string;
  readonly type: TransactionType;
  readonly amount: number;
  readonly status?: TransactionStatus;
}

/** The domain's balances for rows in the given order (that order is their creation order). */
export function recomputeInDollars(openingBalance: number, rows: readonly RowInDollars[]) {
  const balances = computeBalances(
    dollarsToCents(openingBalance),
    rows.map((row, index) => ({
      id: row.id ?? String(index),
      date: isoDate(row.date),
      name: row.name,
      type: row.type,
      amount: dollarsToCents(row.amount),
      status: row.status ?? 'PENDING',
      sequence: index,
    })),
  );
  return {
    currentBalance: centsToDollars(balances.currentBalance),
    pendingBalance: centsToDollars(balances.pendingBalance),
    rows: balances.rows.map((row) => ({
      date: row.date,
      name: row.name,
      type: row.type,
      amount: centsToDollars(row.amount),
      balance: centsToDollars(row.balance),
      status: row.status,
    })),
  };
}

/** Every balance of an answered ledger equals the domain's recomputation from its own rows. */
export function expectConsistent(ledger: Ledger): void {
  const expected = recomputeInDollars(ledger.openingBalance, ledger.transactions);
  expect(ledger.currentBalance).toBe(expected.currentBalance);
  expect(ledger.pendingBalance).toBe(expected.pendingBalance);
  expect(ledger.transactions.map((row) => row.balance)).toEqual(expected.rows.map((row) => row.balance));
}
