/** The expense form's state as typed, and how it becomes what the contract schema checks. */
import type { Expense } from '../../../contract/expenses.js';
import { EXPENSE_FREQUENCIES, type ExpenseFrequency } from '../../../domain/schedules.js';
import { numberFromInput } from '../../components/field-errors.js';

/** The text of each field; an empty Start Date means none, an empty End Date "no end". */
export interface ExpenseFormValues {
  readonly name: string;
  readonly type: string;
  readonly frequency: string;
  /** A monthly bill's own day; kept while another frequency is picked, but not sent then. */
  readonly day: string;
  readonly startDate: string;
  readonly amount: string;
  readonly endDate: string;
  /** The account it is paid from; '' while there is no choice, and then none is sent. */
  readonly accountId: string;
  /** The account it pays into, making it a recurring transfer; '' for a bill. Sent only with an account. */
  readonly toAccountId: string;
}

export const EMPTY_EXPENSE_FORM: ExpenseFormValues = {
  name: '',
  type: '',
  frequency: 'M',
  day: '',
  startDate: '',
  amount: '',
  endDate: '',
  accountId: '',
  toAccountId: '',
};

export function expenseFormValuesOf(expense: Expense): ExpenseFormValues {
  return {
    name: expense.name,
    type: expense.type,
    frequency: expense.frequency,
    day: String(expense.day),
    startDate: expense.startDate ?? '',
    amount: expense.amount.toFixed(2),
    endDate: expense.endDate ?? '',
    accountId: expense.accountId ?? '',
    toAccountId: expense.toAccountId ?? '',
  };
}

export function isExpenseFrequency(text: string): text is ExpenseFrequency {
  return (EXPENSE_FREQUENCIES as readonly string[]).includes(text);
}

/** Only a monthly bill has a day of its own; the others fall due from their start date (decision 0018). */
export function hasOwnDay(frequency: string): boolean {
  return frequency === 'M';
}

/**
 * The form as the contract schema checks it: day and amount as numbers, no day the start date
 * decides, and the accounts when there is a choice (To as null for a bill, so an edit can make a
 * transfer a bill again).
 */
export function expenseCandidate(values: ExpenseFormValues) {
  return {
    name: values.name,
    type: values.type,
    frequency: values.frequency,
    day: hasOwnDay(values.frequency) ? numberFromInput(values.day) : undefined,
    startDate: values.startDate,
    amount: numberFromInput(values.amount),
    endDate: values.endDate,
    ...(values.accountId === '' ? {} : { accountId: values.accountId, toAccountId: values.toAccountId === '' ? null : values.toAccountId }),
  };
}

/** What the schema cannot see: a recurring transfer pays into another account (the server's own words). */
export function expenseErrors(values: ExpenseFormValues): Record<string, string> {
  return values.toAccountId !== '' && values.toAccountId === values.accountId
    ? { toAccountId: 'To must be another account than the one the expense is paid from.' }
    : {};
}
