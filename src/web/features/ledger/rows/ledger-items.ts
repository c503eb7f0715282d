/**
 * What the ledger lists, top to bottom: each pay period's summary line, then its rows (issue 13).
 * The lines are not transactions: they carry no actions and are not counted as rows.
 */
import type { LedgerTransactionView } from '../../../../contract/codecs.js';
import type { PayPeriod } from '../../../../domain/forecast.js';

export type LedgerItem =
  | { readonly kind: 'period'; readonly key: string; readonly period: PayPeriod }
  | { readonly kind: 'row'; readonly key: string; readonly transaction: LedgerTransactionView };

/**
 * `shown` are the rows that pass the filter and the search, in row order; `periods` cover the
 * ledger's dates in order. With every row shown, every period has its line, a period without rows
 * too; while rows are hidden, only the periods with a shown row keep theirs, so a search for
 * "Rent" reads as a list of rents under the periods they fall in.
 */
export function ledgerItems(shown: readonly LedgerTransactionView[], periods: readonly PayPeriod[], everyRowShown: boolean): LedgerItem[] {
  const items: LedgerItem[] = [];
  let next = 0;
  for (const period of periods) {
    const first = next;
    while (next < shown.length && (shown[next] as LedgerTransactionView).date <= period.endDate) next += 1;
    if (everyRowShown || next > first) items.push({ kind: 'period', key: `period-${period.startDate}`, period });
    for (let index = first; index < next; index += 1) {
      const transaction = shown[index] as LedgerTransactionView;
      items.push({ kind: 'row', key: transaction.id, transaction });
    }
  }
  // Rows after the last period cannot exist (every row lies within the ledger); should one, it still shows.
  for (let index = next; index < shown.length; index += 1) {
    const transaction = shown[index] as LedgerTransactionView;
    items.push({ kind: 'row', key: transaction.id, transaction });
  }
  return items;
}
