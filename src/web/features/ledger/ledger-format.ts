/** How the ledger writes its words and amounts: in the dialogs, the header and every row. */
import type { TransactionType } from '../../../domain/ledger.js';
import { type Cents, formatUsd } from '../../../domain/money.js';

/** The words for a transaction's type code, in the dialogs' Type field and for screen readers in the compact rows. */
export const TYPE_LABELS: Readonly<Record<TransactionType, string>> = { D: 'Debit', C: 'Credit' };

/**
 * The header's balances and every row's amount and balance. One function for exactly these, so the
 * render tests count the rows drawn by its calls (the pay period lines format their own figures).
 */
export function formatLedgerMoney(amount: Cents): string {
  return formatUsd(amount);
}
