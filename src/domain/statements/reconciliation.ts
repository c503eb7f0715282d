/**
 * Does the ledger agree with the bank? The bank's closing balance against what the ledger says
 * had cleared by that date. (Wording is the page's job.)
 */
import { type IsoDate } from '../calendar-date.js';
import { countedAmount, type CountedRow, type LedgerRow } from '../ledger.js';
import { type Cents, cents } from '../money.js';
import { type BankBalance } from './statement-row.js';

export interface Reconciliation {
  readonly bankBalance: Cents;
  readonly date: IsoDate;
  /** The opening balance plus every CLEARED row dated on or before `date` that counts (isCounted). */
  readonly leftover: Cents;
  /** bankBalance - leftover: zero when the ledger agrees with the bank. */
  readonly difference: Cents;
}

export function reconcile(
  openingBalance: Cents,
  rows: readonly (Pick<LedgerRow, 'date' | 'status'> & CountedRow)[],
  bank: BankBalance,
): Reconciliation {
  let leftover: number = openingBalance;
  for (const row of rows) {
    if (row.status === 'CLEARED' && row.date <= bank.date) leftover += countedAmount(row);
  }
  return { bankBalance: bank.balance, date: bank.date, leftover: cents(leftover), difference: cents(bank.balance - leftover) };
}
