/** A transaction's date must fall within its ledger's dates (PRODUCT.md section 5). */
import type * as z from 'zod/mini';
import { isIsoDate } from '../../../domain/calendar-date.js';
import { checkForm, type FieldErrors, type FormCheck } from '../../components/field-errors.js';

export interface LedgerDates {
  readonly startDate: string;
  readonly endDate: string;
}

/**
 * The contract cannot know the ledger's dates, so this check runs beside it: the server would
 * refuse such a date anyway, and saying so here saves the user a round trip.
 */
export function dateOutsideLedger(date: string, ledger: LedgerDates): string | undefined {
  // A malformed date is the contract's to report, with its own message.
  if (!isIsoDate(date) || (date >= ledger.startDate && date <= ledger.endDate)) return undefined;
  return `Date must be between ${ledger.startDate} and ${ledger.endDate}.`;
}

/** The contract's field errors plus the ledger's date range, one message per field. */
export function withDateRangeError(fields: FieldErrors, date: string, ledger: LedgerDates): FieldErrors {
  const rangeError = dateOutsideLedger(date, ledger);
  return rangeError === undefined || fields.date !== undefined ? fields : { ...fields, date: rangeError };
}

/** A transaction form checked by the contract and, beside it, against the ledger's dates. */
export function checkWithinLedger<Schema extends z.ZodMiniType>(
  schema: Schema,
  values: unknown,
  date: string,
  ledger: LedgerDates,
): FormCheck<z.output<Schema>> {
  const checked = checkForm(schema, values);
  const fields = withDateRangeError(checked.ok ? {} : checked.fields, date, ledger);
  return checked.ok && Object.keys(fields).length === 0 ? checked : { ok: false, fields };
}
