/**
 * Does the ledger agree with the bank (issue 14 item 6)? The words the import's preview and the
 * ledger header use, from the statement's closing balance and the ledger's CLEARED rows.
 */
import type { Ledger } from '../../../contract/ledger.js';
import type { BankBalanceInfo, ReconciliationInfo } from '../../../contract/statements.js';
import type { IsoDate } from '../../../domain/calendar-date.js';
import { centsToDollars, dollarsToCents, formatUsdDollars } from '../../../domain/money.js';
import { reconcile } from '../../../domain/statements/reconciliation.js';

/** "Reconciled with the bank on 2027-01-16", or the three figures when they differ. */
export function reconciliationText({ bankBalance, date, leftover, difference }: ReconciliationInfo): string {
  if (difference === 0) return `Reconciled with the bank on ${date}`;
  return `Bank balance ${formatUsdDollars(bankBalance)} on ${date} · Leftover ${formatUsdDollars(leftover)} · Difference ${formatUsdDollars(difference)}`;
}

/**
 * The bank's balance against the ledger as it is now, by the domain's own reconciliation (as the
 * server reconciles): worked out from the rows shown, so a row cleared or edited after the import
 * moves the figures.
 */
export function reconcileWithBank(ledger: Ledger, bank: BankBalanceInfo): ReconciliationInfo {
  const rows = ledger.transactions.map((row) => ({ ...row, date: row.date as IsoDate, amount: dollarsToCents(row.amount) }));
  const bankBalance = { balance: dollarsToCents(bank.balance), date: bank.date as IsoDate };
  const figures = reconcile(dollarsToCents(ledger.openingBalance), rows, bankBalance);
  return {
    bankBalance: bank.balance,
    date: bank.date,
    leftover: centsToDollars(figures.leftover),
    difference: centsToDollars(figures.difference),
  };
}

/** The header's words after an import, in a chunk of their own: only a ledger that imported a statement shows them. */
export function ReconciliationWords({ ledger, bank }: { readonly ledger: Ledger; readonly bank: BankBalanceInfo }) {
  return reconciliationText(reconcileWithBank(ledger, bank));
}
