/**
 * What a change to one ledger row may do (PRODUCT.md section 5), decided in one place for the
 * server and the page alike: each decision is either what to write or a typed refusal, and a
 * refusal becomes the error (with its message) that both show.
 */
import type { IsoDate } from './calendar-date.js';
import { ConflictError, type DomainError, InvalidInputError } from './errors.js';
import {
  canEdit,
  isAllowedStatusMove,
  isWithinLedger,
  type LedgerRow,
  MAX_LEDGER_YEARS,
  type TransactionStatus,
  type TransactionType,
} from './ledger.js';
import { latestLedgerEnd } from './ledger-span.js';
import type { Cents } from './money.js';
import type { DateRange } from './schedules.js';

export type TransactionRefusal =
  | { readonly kind: 'typeFixed'; readonly type: TransactionType }
  | { readonly kind: 'statusMove'; readonly from: TransactionStatus; readonly to: TransactionStatus }
  | { readonly kind: 'notEditable'; readonly status: TransactionStatus }
  | { readonly kind: 'editAndMove' }
  | { readonly kind: 'dateOutsideLedger'; readonly range: DateRange }
  | { readonly kind: 'notDeletable'; readonly status: TransactionStatus }
  | { readonly kind: 'extensionNotLater'; readonly currentEnd: IsoDate }
  | { readonly kind: 'ledgerTooLong'; readonly latestEnd: IsoDate };

/** The row as a caller wants it; the type is there only so a different one can be refused. */
export interface RequestedRow {
  readonly date: IsoDate;
  readonly name: string;
  readonly type: TransactionType;
  readonly amount: Cents;
  readonly status: TransactionStatus;
}

/** What an accepted update writes: the editable fields and the status. */
export type RowChanges = Pick<LedgerRow, 'date' | 'name' | 'amount' | 'status'>;

export type UpdateDecision =
  | { readonly kind: 'unchanged' }
  /** `edits`: the date, name or amount changes (not only the status), which marks a generated row edited. */
  | { readonly kind: 'change'; readonly changes: RowChanges; readonly edits: boolean }
  | { readonly kind: 'refused'; readonly refusal: TransactionRefusal };

/** A date must fall within the ledger's dates, first and last day included. */
export function checkDateWithinLedger(date: IsoDate, range: DateRange): TransactionRefusal | undefined {
  return isWithinLedger(date, range) ? undefined : { kind: 'dateOutsideLedger', range };
}

/**
 * Decides an update of a row. The checks run in this order, so a request that breaks several rules
 * hears about the first: the type is fixed; a request that changes nothing is no change (and no
 * error); the status only moves forward; date, name and amount change only while PENDING; an edit
 * and a status move never travel together (a pay carrying other values is most likely a stale copy
 * of the row, and applying it would silently undo an edit made meanwhile); a new date stays within
 * the ledger.
 */
export function decideUpdate(
  row: Pick<LedgerRow, 'date' | 'name' | 'type' | 'amount' | 'status'>,
  requested: RequestedRow,
  range: DateRange,
): UpdateDecision {
  if (requested.type !== row.type) return refused({ kind: 'typeFixed', type: row.type });
  const changes: RowChanges = { date: requested.date, name: requested.name, amount: requested.amount, status: requested.status };
  const edited = changes.date !== row.date || changes.name !== row.name || changes.amount !== row.amount;
  const moved = changes.status !== row.status;
  if (!edited && !moved) return { kind: 'unchanged' };
  if (!isAllowedStatusMove(row.status, changes.status)) return refused({ kind: 'statusMove', from: row.status, to: changes.status });
  if (edited && !canEdit(row.status)) return refused({ kind: 'notEditable', status: row.status });
  if (edited && moved) return refused({ kind: 'editAndMove' });
  if (changes.date !== row.date) {
    const outside = checkDateWithinLedger(changes.date, range);
    if (outside) return refused(outside);
  }
  return { kind: 'change', changes, edits: edited };
}

/**
 * Only an unpaid row can go: a PAID or CLEARED one is part of the account's history. A row the bank
 * wrote or matched can go whatever its status (issue 37, decision 0084): what the bank says is the
 * history, and its key closes so the bank never brings the row back.
 */
export function checkDeletion(row: Pick<LedgerRow, 'status' | 'bank'>): TransactionRefusal | undefined {
  return canEdit(row.status) || row.bank ? undefined : { kind: 'notDeletable', status: row.status };
}

/** A ledger only grows: the new end comes after the current one, and the ledger still spans at most five years. */
export function checkExtension(
  ledger: { readonly startDate: IsoDate; readonly endDate: IsoDate },
  endDate: IsoDate,
): TransactionRefusal | undefined {
  if (endDate <= ledger.endDate) return { kind: 'extensionNotLater', currentEnd: ledger.endDate };
  const latestEnd = latestLedgerEnd(ledger.startDate);
  return endDate > latestEnd ? { kind: 'ledgerTooLong', latestEnd } : undefined;
}

function refused(refusal: TransactionRefusal): UpdateDecision {
  return { kind: 'refused', refusal };
}

/** The field message of a date outside the ledger: the page shows it before sending, the server after. */
export function dateOutsideLedgerMessage(range: DateRange): string {
  return `Date must be between ${range.from} and ${range.to}.`;
}

/** The error a refusal is reported as, with the words the user reads. */
export function refusalError(refusal: TransactionRefusal): DomainError {
  switch (refusal.kind) {
    case 'typeFixed':
      return new InvalidInputError('The type of a transaction cannot change.', {
        type: `Type cannot change (it is ${refusal.type}): delete the transaction and add it again with the other type.`,
      });
    case 'statusMove': {
      const why =
        refusal.to === 'PENDING'
          ? 'nothing returns to PENDING'
          : 'statuses only move forward: PENDING to PAID to CLEARED, or PENDING to CLEARED';
      return new ConflictError(`A ${refusal.from} transaction cannot become ${refusal.to}: ${why}.`);
    }
    case 'notEditable':
      return new ConflictError(
        `A ${refusal.status} transaction cannot be changed: date, name and amount can change only while it is PENDING.`,
      );
    case 'editAndMove':
      return new ConflictError(
        'Change the date, name or amount and the status in separate steps: save the changes first, then pay or clear.',
      );
    case 'dateOutsideLedger':
      return new InvalidInputError('The date is outside the ledger.', { date: dateOutsideLedgerMessage(refusal.range) });
    case 'notDeletable':
      return new ConflictError(`A ${refusal.status} transaction cannot be deleted: only PENDING transactions can.`);
    case 'extensionNotLater':
      return new InvalidInputError('The ledger can only be extended.', {
        endDate: `End Date must be after the ledger's current end date, ${refusal.currentEnd}.`,
      });
    case 'ledgerTooLong':
      return new InvalidInputError('A ledger spans at most five years.', {
        endDate: `A ledger spans at most ${MAX_LEDGER_YEARS} years: End Date must be on or before ${refusal.latestEnd}.`,
      });
  }
}
