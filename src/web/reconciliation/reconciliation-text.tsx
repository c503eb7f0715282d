/**
 * Does the ledger agree with the bank (issue 14 item 6)? The words the import's preview and the
 * ledger header use, from the statement's closing balance and the ledger's CLEARED rows.
 */
import type { LedgerView } from '../../contract/codecs.js';
import type { BankBalanceView, ReconciliationView } from '../../contract/statement-codecs.js';
import { formatDate } from '../../domain/calendar-date.js';
import { formatUsd } from '../../domain/money.js';
import { reconcile } from '../../domain/statements/reconciliation.js';

/** After an import: "Reconciled with the bank on Sat, Jan 16, 2027", or the three figures when they differ. */
export function reconciliationText({ bankBalance, date, leftover, difference }: ReconciliationView): string {
  if (difference === 0) return `Reconciled with the bank on ${formatDate(date)}`;
  return `Bank balance ${formatUsd(bankBalance)} on ${formatDate(date)} · Leftover ${formatUsd(leftover)} · Difference ${formatUsd(difference)}`;
}

/**
 * Before the import (issue 24 item 5): what the ledger would say if it took the file in, in the
 * future tense, so nothing claims a reconciliation that has not happened.
 */
export function previewReconciliationText({ bankBalance, leftover, difference }: ReconciliationView): string {
  return `After import: Bank balance ${formatUsd(bankBalance)} · Leftover ${formatUsd(leftover)} · Difference ${formatUsd(difference)}`;
}

/**
 * The bank's balance against the ledger as it is now, by the domain's own reconciliation (as the
 * server reconciles): worked out from the rows shown, so a row cleared or edited after the import
 * moves the figures.
 */
export function reconcileWithBank(ledger: LedgerView, bank: BankBalanceView): ReconciliationView {
  return reconcile(ledger.openingBalance, ledger.transactions, bank);
}

/** The header's words after an import, in a chunk of their own: only a ledger that imported a statement shows them. */
export function ReconciliationWords({ ledger, bank }: { readonly ledger: LedgerView; readonly bank: BankBalanceView }) {
  return reconciliationText(reconcileWithBank(ledger, bank));
}
