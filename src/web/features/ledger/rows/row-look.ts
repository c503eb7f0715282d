/** What every layout of a ledger row shares: its style classes and when it may skip re-rendering. */
import type { LedgerTransactionView } from '../../../../contract/codecs.js';
import { isPaycheckName } from '../../../../domain/ledger.js';
import type { RowActionHandlers } from './row-actions.js';

/** A paycheck opens a pay period: it gets a divider above; paid and cleared rows get their own look. */
export function rowClassName(base: string, transaction: LedgerTransactionView): string {
  const classes = [base, `ledger-row--${transaction.status.toLowerCase()}`];
  if (isPaycheckName(transaction.name)) classes.push('ledger-row--paycheck');
  return classes.join(' ');
}

export interface LedgerRowProps {
  readonly transaction: LedgerTransactionView;
  readonly actions: RowActionHandlers;
}

/**
 * Every answer from the server carries fresh row objects, so rows compare by value: after paying
 * one row, only that row renders again, not the other 1,800.
 */
export function isSameRow(previous: LedgerRowProps, next: LedgerRowProps): boolean {
  const a = previous.transaction;
  const b = next.transaction;
  return (
    previous.actions === next.actions &&
    a.id === b.id &&
    a.date === b.date &&
    a.name === b.name &&
    a.type === b.type &&
    a.amount === b.amount &&
    a.balance === b.balance &&
    a.status === b.status &&
    a.bankBadge === b.bankBadge &&
    a.fromBank === b.fromBank &&
    isSameSource(a.source, b.source)
  );
}

/** The Edit dialog reads the row's source from the row that opened it, so a changed source must reach the row. */
function isSameSource(a: LedgerTransactionView['source'], b: LedgerTransactionView['source']): boolean {
  if (a === null || b === null) return a === b;
  return a.kind === b.kind && a.id === b.id && a.occurrence === b.occurrence && a.edited === b.edited;
}
