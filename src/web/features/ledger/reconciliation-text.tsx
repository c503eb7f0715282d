/**
 * Does the ledger agree with the bank (issue 14 item 6)? The words the import's preview and the
 * ledger header use, from the statement's closing balance and the ledger's CLEARED rows.
 */
import type { Ledger } from '../../../contract/ledger.js';
import type { BankBalanceInfo, ReconciliationInfo } from '../../../contract/statements.js';
import { cents, centsToDollars, dollarsToCents, formatUsdDollars } from '../../../domain/money.js';

/** "Reconciled with the bank on 2027-01-16", or the three figures when they differ. */
export function reconciliationText({ bankBalance, date, leftover, difference }: ReconciliationInfo): string {
  if (difference === 0) return `Reconciled with the bank on ${date}`;
  return `Bank balance ${formatUsdDollars(bankBalance)} on ${date} · Leftover ${formatUsdDollars(leftover)} · Difference ${formatUsdDollars(difference)}`;
}

/**
 * The bank's balance against the ledger as it is now: the opening balance plus the CLEARED rows
 * dated on or before the bank's date, as the server reconciles. Worked out from the rows shown,
 * so a row cleared or edited after the import moves the figures.
 */
export function reconcileWithBank(ledger: Ledger, bank: BankBalanceInfo): ReconciliationInfo {
  let leftover: number = dollarsToCents(ledger.openingBalance);
  for (const row of ledger.transactions) {
    if (row.status !== 'CLEARED' || row.date > bank.date) continue;
    const amount = dollarsToCents(row.amount);
    leftover += row.type === 'C' ? amount : -amount;
  }
  return {
    bankBalance: bank.balance,
    date: bank.date,
    leftover: centsToDollars(cents(leftover)),
    difference: centsToDollars(cents(dollarsToCents(bank.balance) - leftover)),
  };
}

/** The header's words after an import, in a chunk of their own: only a ledger that imported a statement shows them. */
export function ReconciliationWords({ ledger, bank }: { readonly ledger: Ledger; readonly bank: BankBalanceInfo }) {
  return reconciliationText(reconcileWithBank(ledger, bank));
}
