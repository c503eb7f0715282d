/**
 * When recurring money moves: paydays of deposits and due dates of expenses, and what they are
 * worth per month. Pure functions over plain data; the ledger builds on the occurrence functions.
 */
import {
  addDays,
  daysBetween,
  daysInMonth,
  fromDayNumber,
  fromParts,
  type IsoDate,
  maxDate,
  toDayNumber,
  weekdayOf,
  yearMonthOf,
} from './calendar-date.js';
import { type Cents, multiplyRatioHalfUp, sumCents } from './money.js';

/** Names of deposits and expenses. */
export const MAX_SCHEDULE_NAME_LENGTH = 100;

export const DEPOSIT_TYPES = ['Direct Deposit', 'Check'] as const;

export const DEPOSIT_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'N/A'] as const;
export type DepositDay = (typeof DEPOSIT_DAYS)[number];

/** How often a deposit pays, in the order the form lists them. */
export const FREQUENCIES = ['W', 'BW', 'SM', 'M', 'EOM'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const FREQUENCY_LABELS: Record<Frequency, string> = {
  W: 'Weekly',
  BW: 'Bi-weekly (every 14 days)',
  SM: 'Twice a month (15th and last day)',
  M: 'Monthly',
  EOM: 'End of month',
};

/** How often an expense falls due, in the order the form lists them; M is the default. */
export const EXPENSE_FREQUENCIES = ['M', 'W', 'BW', 'Q', 'Y'] as const;
export type ExpenseFrequency = (typeof EXPENSE_FREQUENCIES)[number];

export const EXPENSE_FREQUENCY_LABELS: Record<ExpenseFrequency, string> = {
  M: 'Monthly',
  W: 'Weekly',
  BW: 'Every 2 weeks',
  Q: 'Every 3 months',
  Y: 'Yearly',
};

export interface DepositSchedule {
  readonly amount: Cents;
  readonly startDate: IsoDate;
  readonly frequency: Frequency;
}

export interface ExpenseSchedule {
  readonly amount: Cents;
  /** Day of the month, 1 to 31, of a monthly expense; clamped to the last day of shorter months. */
  readonly day: number;
  /** Last date the expense can fall due, or null for no end. */
  readonly endDate: IsoDate | null;
  /** Monthly when absent: how every expense behaved before it had a frequency. */
  readonly frequency?: ExpenseFrequency;
  /** The first due date: required for every frequency but monthly, where it names the first month. */
  readonly startDate?: IsoDate | null;
}

export interface DateRange {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

/** Days between two paydays or due dates of the fixed-interval frequencies. */
const INTERVAL_DAYS = { W: 7, BW: 14 } as const;

/** A deposit paid every 7 or 14 days keeps the weekday of its start date. */
function hasWeekday(frequency: Frequency): frequency is 'W' | 'BW' {
  return frequency === 'W' || frequency === 'BW';
}

/**
 * The weekday a deposit is paid on: a weekly or bi-weekly deposit is paid on the weekday of its
 * start date; the others fall on dates of the month, whatever the weekday.
 */
export function expectedDepositDay(frequency: Frequency, startDate: IsoDate): DepositDay {
  return hasWeekday(frequency) ? weekdayOf(startDate) : 'N/A';
}

/** A payday on a Saturday or Sunday is paid on the Friday before: payroll pays early, never late. */
function paidBeforeWeekend(date: IsoDate): IsoDate {
  const weekday = weekdayOf(date);
  if (weekday === 'Saturday') return addDays(date, -1);
  if (weekday === 'Sunday') return addDays(date, -2);
  return date;
}

/** The last day of the month, moved back to Friday when it falls on a weekend. */
export function endOfMonthPayday(year: number, month: number): IsoDate {
  return paidBeforeWeekend(fromParts(year, month, daysInMonth(year, month)));
}

/** The day of a month, or the month's last day when it is shorter. */
function clampedDate(year: number, month: number, day: number): IsoDate {
  return fromParts(year, month, Math.min(day, daysInMonth(year, month)));
}

/** Every date `interval` days apart from `start` that lies within the range, in order. */
function everyNDays(start: IsoDate, interval: number, range: DateRange): IsoDate[] {
  const dates: IsoDate[] = [];
  const first = maxDate(start, range.from);
  // Skip whole intervals up to the range start, then step through it.
  const skipped = Math.ceil(daysBetween(start, first) / interval);
  // Counted in day numbers: a date string past 9999-12-31 does not exist (and would compare wrongly).
  const last = toDayNumber(range.to);
  for (let day = toDayNumber(start) + skipped * interval; day <= last; day += interval) dates.push(fromDayNumber(day));
  return dates;
}

function nextMonth(year: number, month: number): { year: number; month: number } {
  return month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
}

/** Each month from the one holding `from` to the month `end`, stepping `every` months from the first. */
function* months(from: IsoDate, end: { year: number; month: number }, every = 1): Generator<{ year: number; month: number }> {
  let { year, month } = yearMonthOf(from);
  while (year < end.year || (year === end.year && month <= end.month)) {
    yield { year, month };
    month += every;
    while (month > 12) {
      month -= 12;
      year += 1;
    }
  }
}

/**
 * The dates of month-based schedules that fall within the range and on or after the start date.
 * The month after the range is looked at too: a payday on the 1st that falls on a weekend is paid
 * on the Friday before, in the range's last month.
 */
function monthlyDates(start: IsoDate, range: DateRange, datesOf: (year: number, month: number) => readonly IsoDate[]): IsoDate[] {
  const dates: IsoDate[] = [];
  // The month after the range, except after December 9999: no date follows 9999-12-31 (LAST_DATE).
  const { year: endYear, month: endMonth } = yearMonthOf(range.to);
  const after = range.to.slice(0, 7) === '9999-12' ? { year: endYear, month: endMonth } : nextMonth(endYear, endMonth);
  for (const { year, month } of months(maxDate(start, range.from), after)) {
    for (const date of datesOf(year, month)) {
      // The Friday before a weekend can fall before a start date late in the month.
      if (date >= start && date >= range.from && date <= range.to) dates.push(date);
    }
  }
  return dates;
}

/** Every payday of a deposit within the range, inclusive, in date order; none before its start date. */
export function depositPaydays(deposit: DepositSchedule, range: DateRange): IsoDate[] {
  if (range.to < range.from) return [];
  const { startDate, frequency } = deposit;
  if (hasWeekday(frequency)) return everyNDays(startDate, INTERVAL_DAYS[frequency], range);
  const dayOfMonth = Number(startDate.slice(8, 10));
  return monthlyDates(startDate, range, (year, month) => {
    if (frequency === 'EOM') return [endOfMonthPayday(year, month)];
    if (frequency === 'M') return [paidBeforeWeekend(clampedDate(year, month, dayOfMonth))];
    return [paidBeforeWeekend(fromParts(year, month, 15)), endOfMonthPayday(year, month)];
  });
}

/**
 * Every due date of an expense within the range, inclusive, in date order, stopping after its end
 * date. Bills are not moved off weekends: a bill falls due on its date.
 */
export function expenseDueDates(expense: ExpenseSchedule, range: DateRange): IsoDate[] {
  const last = expense.endDate !== null && expense.endDate < range.to ? expense.endDate : range.to;
  if (last < range.from) return [];
  const within = { from: range.from, to: last };
  const frequency = expense.frequency ?? 'M';
  const start = expense.startDate ?? null;
  if (frequency === 'M') {
    // A monthly bill falls due from its start date's month on, when it has one.
    const firstMonth =
      start === null ? range.from : maxDate(fromParts(Number(start.slice(0, 4)), Number(start.slice(5, 7)), 1), range.from);
    return monthlyDates(firstMonth, within, (year, month) => [clampedDate(year, month, expense.day)]);
  }
  // The contract requires a start date for every other frequency; without one nothing falls due.
  if (start === null) return [];
  if (frequency === 'W' || frequency === 'BW') return everyNDays(start, INTERVAL_DAYS[frequency], within);
  const { year: startYear, month: startMonth } = yearMonthOf(start);
  const startDay = Number(start.slice(8, 10));
  const step = frequency === 'Q' ? 3 : 12;
  return monthlyDates(start, within, (year, month) =>
    ((year - startYear) * 12 + (month - startMonth)) % step === 0 ? [clampedDate(year, month, startDay)] : [],
  );
}

/**
 * At most how many paydays or due dates a schedule of this frequency has within the range, counted
 * without listing them: what a big write's cost is judged by before any row is projected. Weekly
 * and bi-weekly dates are 7 and 14 days apart (exact); the others are counted by the months the
 * range touches, one more for the month after it, whose weekend paydays move back into it.
 */
export function mostOccurrences(frequency: Frequency | ExpenseFrequency, range: DateRange): number {
  if (range.to < range.from) return 0;
  if (frequency === 'W' || frequency === 'BW') return Math.floor(daysBetween(range.from, range.to) / INTERVAL_DAYS[frequency]) + 1;
  const from = yearMonthOf(range.from);
  const to = yearMonthOf(range.to);
  const months = (to.year - from.year) * 12 + (to.month - from.month) + 1;
  if (frequency === 'SM') return 2 * (months + 1);
  if (frequency === 'Q') return Math.floor(months / 3) + 2;
  if (frequency === 'Y') return Math.floor(months / 12) + 2;
  return months + 1;
}

/** Paydays or due dates a year of each fixed-interval frequency, over 12 months. */
const PER_YEAR = { W: 52, BW: 26 } as const;

/** What a deposit brings in per month: weekly is 52 paydays a year over 12 months, bi-weekly 26, twice a month 2. */
export function monthlyDepositAmount(deposit: Pick<DepositSchedule, 'amount' | 'frequency'>): Cents {
  const { amount, frequency } = deposit;
  if (hasWeekday(frequency)) return multiplyRatioHalfUp(amount, PER_YEAR[frequency], 12);
  return frequency === 'SM' ? multiplyRatioHalfUp(amount, 2, 1) : amount;
}

export function totalMonthlyDeposits(deposits: readonly Pick<DepositSchedule, 'amount' | 'frequency'>[]): Cents {
  return sumCents(deposits.map(monthlyDepositAmount));
}

/** What an expense costs per month: weekly x 52 / 12, every 2 weeks x 26 / 12, quarterly / 3, yearly / 12. */
export function monthlyExpenseAmount(expense: Pick<ExpenseSchedule, 'amount' | 'frequency'>): Cents {
  const { amount } = expense;
  switch (expense.frequency ?? 'M') {
    case 'M':
      return amount;
    case 'W':
      return multiplyRatioHalfUp(amount, 52, 12);
    case 'BW':
      return multiplyRatioHalfUp(amount, 26, 12);
    case 'Q':
      return multiplyRatioHalfUp(amount, 1, 3);
    case 'Y':
      return multiplyRatioHalfUp(amount, 1, 12);
  }
}

/** An expense counts until its end date has passed: an end date of today still counts. */
export function isExpenseActive(expense: Pick<ExpenseSchedule, 'endDate'>, today: IsoDate): boolean {
  return expense.endDate === null || expense.endDate >= today;
}

/** The monthly equivalents of the expenses that have not ended, each rounded half-up to the cent. */
export function totalMonthlyExpenses(
  expenses: readonly Pick<ExpenseSchedule, 'amount' | 'endDate' | 'frequency'>[],
  today: IsoDate,
): Cents {
  return sumCents(expenses.filter((expense) => isExpenseActive(expense, today)).map(monthlyExpenseAmount));
}

/**
 * The day of the month stored with an expense: a monthly one's own day; for the others, the day of
 * their start date (docs/decisions/0018), so every stored expense has a day from 1 to 31.
 */
export function expenseDay(frequency: ExpenseFrequency, day: number | undefined, startDate: IsoDate | null): number | undefined {
  if (frequency === 'M') return day;
  return startDate === null ? undefined : Number(startDate.slice(8, 10));
}
