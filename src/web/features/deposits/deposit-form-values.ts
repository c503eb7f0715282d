/** The deposit form's state as typed, and how it becomes what the contract schema checks. */
import type { Deposit } from '../../../contract/deposits.js';
import { isIsoDate } from '../../../domain/calendar-date.js';
import { type DepositDay, expectedDepositDay, FREQUENCIES, type Frequency } from '../../../domain/schedules.js';
import { numberFromInput } from '../../components/field-errors.js';

/** The text of each field; an empty select is ''. */
export interface DepositFormValues {
  readonly name: string;
  readonly type: string;
  /** The day picked by hand; only used while no frequency decides it. */
  readonly day: string;
  readonly amount: string;
  readonly startDate: string;
  readonly frequency: string;
  /** The account it lands in; '' while there is no choice, and then none is sent. */
  readonly accountId: string;
}

export const EMPTY_DEPOSIT_FORM: DepositFormValues = {
  name: '',
  type: '',
  day: '',
  amount: '',
  startDate: '',
  frequency: '',
  accountId: '',
};

export function depositFormValuesOf(deposit: Deposit): DepositFormValues {
  return {
    name: deposit.name,
    type: deposit.type,
    day: deposit.day,
    amount: deposit.amount.toFixed(2),
    startDate: deposit.startDate,
    frequency: deposit.frequency,
    accountId: deposit.accountId ?? '',
  };
}

export function isFrequency(text: string): text is Frequency {
  return (FREQUENCIES as readonly string[]).includes(text);
}

/** A weekly or bi-weekly deposit is paid on a weekday; the others on dates of the month. */
function isPaidOnWeekday(frequency: Frequency): frequency is 'W' | 'BW' {
  return frequency === 'W' || frequency === 'BW';
}

/**
 * The day the frequency decides: a weekly or bi-weekly deposit is paid on its start date's weekday
 * ('' until a date is picked), the others have none (N/A). Undefined while no frequency is picked.
 */
export function decidedDepositDay(values: Pick<DepositFormValues, 'frequency' | 'startDate'>): DepositDay | '' | undefined {
  if (!isFrequency(values.frequency)) return undefined;
  if (isIsoDate(values.startDate)) return expectedDepositDay(values.frequency, values.startDate);
  // A deposit paid on dates of the month needs no start date to know it has no weekday.
  return isPaidOnWeekday(values.frequency) ? '' : 'N/A';
}

/** The day the form shows and sends. */
export function shownDepositDay(values: DepositFormValues): string {
  return decidedDepositDay(values) ?? values.day;
}

/** The form as the contract schema checks it: the shown day, the amount as a number, the account when there is a choice. */
export function depositCandidate(values: DepositFormValues) {
  return {
    name: values.name,
    type: values.type,
    day: shownDepositDay(values),
    amount: numberFromInput(values.amount),
    startDate: values.startDate,
    frequency: values.frequency,
    ...(values.accountId === '' ? {} : { accountId: values.accountId }),
  };
}
