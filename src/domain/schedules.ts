/**
 * When recurring money moves: paydays of deposits and due dates of expenses, and what they are
 * worth per month. Pure functions over plain data; the ledger builds on the occurrence functions.
 */
import { addDays, daysBetween, daysInMonth, fromParts, type IsoDate, maxDate, weekdayOf, yearMonthOf } from './calendar-date.js';
import { type Cents, multiplyRatioHalfUp, sumCents } from './money.js';

/** Names of deposits and expenses. */
export const MAX_SCHEDULE_NAME_LENGTH = 100;

export const DEPOSIT_TYPES = ['Direct Deposit', 'Check'] as const;
export type DepositType = (typeof DEPOSIT_TYPES)[number];

export const DEPOSIT_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'N/A'] as const;
export type DepositDay = (typeof DEPOSIT_DAYS)[number];

export const FREQUENCIES = ['BW', 'EOM'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const FREQUENCY_LABELS: Record<Frequency, string> = {
  BW: 'Bi-weekly (every 14 days)',
  EOM: 'End of month',
};

export interface DepositSchedule {
  readonly amount: Cents;
  readonly startDate: IsoDate;
  readonly frequency: Frequency;
}

export interface ExpenseSchedule {
  readonly amount: Cents;
  /** Day of the month, 1 to 31; clamped to the last day of shorter months. */
  readonly day: number;
  /** Last date the expense can fall due, or null for no end. */
  readonly endDate: IsoDate | null;
}

export interface DateRange {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

const BIWEEKLY_DAYS = 14;

/**
 * The weekday a deposit is paid on: a bi-weekly deposit is paid on the weekday of its start date;
 * an end-of-month deposit has no fixed weekday.
 */
export function expectedDepositDay(frequency: Frequency, startDate: IsoDate): DepositDay {
  return frequency === 'BW' ? weekdayOf(startDate) : 'N/A';
}

/**
 * The last day of the month, moved back to Friday when it falls on a weekend: payroll pays
 * early, never late.
 */
export function endOfMonthPayday(year: number, month: number): IsoDate {
  const lastDay = fromParts(year, month, daysInMonth(year, month));
  const weekday = weekdayOf(lastDay);
  if (weekday === 'Saturday') return addDays(lastDay, -1);
  if (weekday === 'Sunday') return addDays(lastDay, -2);
  return lastDay;
}

/** Every payday of a deposit within the range, inclusive, in date order. */
export function depositPaydays(deposit: DepositSchedule, range: DateRange): IsoDate[] {
  if (range.to < range.from) return [];
  const paydays: IsoDate[] = [];
  if (deposit.frequency === 'BW') {
    const first = maxDate(deposit.startDate, range.from);
    // Skip whole 14-day periods up to the range start, then step through it.
    const offset = daysBetween(deposit.startDate, first);
    const periodsToSkip = Math.ceil(offset / BIWEEKLY_DAYS);
    for (let day = addDays(deposit.startDate, periodsToSkip * BIWEEKLY_DAYS); day <= range.to; day = addDays(day, BIWEEKLY_DAYS)) {
      paydays.push(day);
    }
    return paydays;
  }
  const start = yearMonthOf(maxDate(deposit.startDate, range.from));
  const end = yearMonthOf(range.to);
  for (let { year, month } = start; year < end.year || (year === end.year && month <= end.month);) {
    const payday = endOfMonthPayday(year, month);
    // The Friday before a weekend month end can fall before a start date late in the month.
    if (payday >= deposit.startDate && payday >= range.from && payday <= range.to) paydays.push(payday);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return paydays;
}

/** The date an expense falls due in a month: its day, or the month's last day when shorter. */
function expenseDueDate(day: number, year: number, month: number): IsoDate {
  return fromParts(year, month, Math.min(day, daysInMonth(year, month)));
}

/** Every due date of an expense within the range, inclusive, stopping after its end date. */
export function expenseDueDates(expense: ExpenseSchedule, range: DateRange): IsoDate[] {
  const last = expense.endDate !== null && expense.endDate < range.to ? expense.endDate : range.to;
  if (last < range.from) return [];
  const dueDates: IsoDate[] = [];
  const start = yearMonthOf(range.from);
  const end = yearMonthOf(last);
  for (let { year, month } = start; year < end.year || (year === end.year && month <= end.month);) {
    const due = expenseDueDate(expense.day, year, month);
    if (due >= range.from && due <= last) dueDates.push(due);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return dueDates;
}

/** What a deposit brings in per month: bi-weekly is 26 paydays a year over 12 months. */
export function monthlyDepositAmount(deposit: Pick<DepositSchedule, 'amount' | 'frequency'>): Cents {
  return deposit.frequency === 'BW' ? multiplyRatioHalfUp(deposit.amount, 26, 12) : deposit.amount;
}

export function totalMonthlyDeposits(deposits: readonly Pick<DepositSchedule, 'amount' | 'frequency'>[]): Cents {
  return sumCents(deposits.map(monthlyDepositAmount));
}

/** An expense counts until its end date has passed: an end date of today still counts. */
export function isExpenseActive(expense: Pick<ExpenseSchedule, 'endDate'>, today: IsoDate): boolean {
  return expense.endDate === null || expense.endDate >= today;
}

export function totalMonthlyExpenses(expenses: readonly Pick<ExpenseSchedule, 'amount' | 'endDate'>[], today: IsoDate): Cents {
  return sumCents(expenses.filter((expense) => isExpenseActive(expense, today)).map((expense) => expense.amount));
}
