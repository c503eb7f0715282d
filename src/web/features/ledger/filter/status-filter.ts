/**
 * Which rows the ledger shows. The filter is keyed pending, paid and cleared (SPEC.md section 4);
 * the "Not Cleared" box drives `pending` (PRODUCT.md section 5 fixes the observed key mismatch).
 */
import type { TransactionStatus } from '../../../../domain/ledger.js';

type StatusFilterKey = 'pending' | 'paid' | 'cleared';
export type StatusFilter = Readonly<Record<StatusFilterKey, boolean>>;

export const SHOW_ALL_STATUSES: StatusFilter = { pending: true, paid: true, cleared: true };

/** The filter dialog's boxes, in order, with the labels people see. */
export const STATUS_FILTER_OPTIONS: readonly { readonly key: StatusFilterKey; readonly label: string }[] = [
  { key: 'pending', label: 'Not Cleared' },
  { key: 'paid', label: 'Paid' },
  { key: 'cleared', label: 'Cleared' },
];

const KEY_OF_STATUS: Readonly<Record<TransactionStatus, StatusFilterKey>> = {
  PENDING: 'pending',
  PAID: 'paid',
  CLEARED: 'cleared',
};

export function filterKeyOf(status: TransactionStatus): StatusFilterKey {
  return KEY_OF_STATUS[status];
}

function isStatusShown(status: TransactionStatus, filter: StatusFilter): boolean {
  return filter[filterKeyOf(status)];
}

export function showsEveryStatus(filter: StatusFilter): boolean {
  return filter.pending && filter.paid && filter.cleared;
}

/**
 * The rows the filter lets through, in their order. With every box on it answers the same array,
 * so a memoized list below sees nothing new.
 */
export function filterByStatus<Row extends { readonly status: TransactionStatus }>(
  rows: readonly Row[],
  filter: StatusFilter,
): readonly Row[] {
  if (showsEveryStatus(filter)) return rows;
  return rows.filter((row) => isStatusShown(row.status, filter));
}

export function withStatusShown(filter: StatusFilter, key: StatusFilterKey, shown: boolean): StatusFilter {
  return { ...filter, [key]: shown };
}
