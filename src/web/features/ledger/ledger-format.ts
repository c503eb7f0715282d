/** How the ledger shows amounts and types. */
import type { TransactionType } from '../../../domain/ledger.js';
import { cents, formatUsd } from '../../../domain/money.js';

/**
 * The API carries dollars. Rounding to the cent (rather than dollarsToCents, which throws on a
 * third decimal) keeps one odd number from the server from blanking the whole ledger.
 */
export function formatDollars(dollars: number): string {
  return formatUsd(cents(Math.round(dollars * 100)));
}

export const TYPE_LABELS: Readonly<Record<TransactionType, string>> = { D: 'Debit', C: 'Credit' };
