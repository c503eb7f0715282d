/**
 * Does the ledger agree with the bridge (issue 37 item 4)? The bridge's balance on its balance date
 * against the ledger, as a statement's closing balance is (reconciliation.ts), in the words.
 */
import { formatDate } from '../calendar-date.js';
import { type Cents, cents, formatUsd } from '../money.js';
import { type Reconciliation, reconcile } from '../statements/reconciliation.js';
import { type BankLedgerRow, countsInBalances } from './bank-rows.js';
import type { BridgeAccount } from './bridge.js';

/**
 * The opening balance plus every CLEARED row dated on or before the balance date, against the
 * bridge's balance. SimpleFIN's `balance` is the posted balance (pending holds are in its
 * `available-balance`), so PAID rows, pending at the bank, rightly stay out; a row no longer at the
 * bank stays out even if the user cleared it, as it stays out of every balance.
 */
export function reconcileWithBridge(
  openingBalance: Cents,
  rows: readonly Pick<BankLedgerRow, 'date' | 'type' | 'amount' | 'status' | 'bank'>[],
  account: Pick<BridgeAccount, 'balance' | 'balanceDate'>,
): Reconciliation {
  return reconcile(openingBalance, rows.filter(countsInBalances), { balance: account.balance, date: account.balanceDate });
}

/**
 * "Matches the bank's balance of $1,234.56 on Fri, Jan 8, 2027", or by how much Leftover is off:
 * "Leftover has $1,222.56, $12.00 less than the bank's balance of $1,234.56 on Fri, Jan 8, 2027".
 */
export function bridgeBalanceText({ bankBalance, date, leftover, difference }: Reconciliation): string {
  const bank = `the bank's balance of ${formatUsd(bankBalance)} on ${formatDate(date)}`;
  if (difference === 0) return `Matches ${bank}`;
  const off = formatUsd(cents(Math.abs(difference)));
  return `Leftover has ${formatUsd(leftover)}, ${off} ${difference > 0 ? 'less' : 'more'} than ${bank}`;
}
