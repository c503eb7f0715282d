/**
 * The domain's rules for ledger rows (transaction-rules.ts, the server's too), applied to what the
 * server answers: dollars, and dates as plain strings.
 */
import type { Ledger, LedgerTransaction } from '../../../contract/ledger.js';
import type { TransactionUpdate } from '../../../contract/ledger-requests.js';
import { isIsoDate } from '../../../domain/calendar-date.js';
import { dollarsToCents } from '../../../domain/money.js';
import type { DateRange } from '../../../domain/schedules.js';
import { InvalidInputError } from '../../../domain/errors.js';
import {
  checkDateWithinLedger,
  checkExtension,
  dateOutsideLedgerMessage,
  decideUpdate,
  refusalError,
} from '../../../domain/transaction-rules.js';
import type { FieldErrors } from '../../components/field-errors.js';

export type LedgerDates = Pick<Ledger, 'startDate' | 'endDate'>;

function rangeOf(ledger: LedgerDates): DateRange | null {
  return isIsoDate(ledger.startDate) && isIsoDate(ledger.endDate) ? { from: ledger.startDate, to: ledger.endDate } : null;
}

/**
 * The contract cannot know the ledger's dates, so this check runs beside it: the server would
 * refuse such a date anyway, and saying so here saves the user a round trip.
 */
export function ledgerDateErrors(date: string, ledger: LedgerDates): FieldErrors {
  const range = rangeOf(ledger);
  // A malformed date is the contract's to report, with its own message.
  if (range === null || !isIsoDate(date) || checkDateWithinLedger(date, range) === undefined) return {};
  return { date: dateOutsideLedgerMessage(range) };
}

/** An extension's End Date as the server would judge it (after the current end, within five years of the start), before it is sent. */
export function extensionErrors(endDate: string, ledger: LedgerDates): FieldErrors {
  const range = rangeOf(ledger);
  // A malformed date is the contract's to report, with its own message.
  if (range === null || !isIsoDate(endDate)) return {};
  const refusal = checkExtension({ startDate: range.from, endDate: range.to }, endDate);
  if (refusal === undefined) return {};
  const error = refusalError(refusal);
  return error instanceof InvalidInputError ? error.fields : {};
}

/**
 * False when the update leaves the row as the server last answered it, so there is nothing to
 * send. Only the domain's own decision counts; whatever it would refuse is sent for the server to
 * refuse with its message.
 */
export function changesRow(row: LedgerTransaction, update: TransactionUpdate, ledger: LedgerDates): boolean {
  const range = rangeOf(ledger);
  // A row or ledger the server sent malformed cannot be compared here; the server decides.
  if (range === null || !isIsoDate(row.date)) return true;
  const decision = decideUpdate(
    { date: row.date, name: row.name, type: row.type, amount: dollarsToCents(row.amount), status: row.status },
    { ...update, amount: dollarsToCents(update.amount) },
    range,
  );
  return decision.kind !== 'unchanged';
}
