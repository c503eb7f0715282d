/** What the expenses table's Day column says: when a bill falls due, in words read at a glance. */
import type { Expense } from '../../../contract/expenses.js';
import { daysInMonth, isIsoDate, weekdayOf, yearMonthOf } from '../../../domain/calendar-date.js';

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

// Months are named with their longest length: a bill on Feb 29 says so, and falls due on Feb 28
// in other years, as the domain's schedule does.
const LEAP_YEAR = 2000;

/** "Mar 15"; a day past the month's end reads as its last day ("Apr 30" for a bill on the 31st). */
function monthAndDay(month: number, day: number): string {
  return `${MONTH_NAMES[month - 1]} ${Math.min(day, daysInMonth(LEAP_YEAR, month))}`;
}

/**
 * "15" for a monthly bill, "Mondays" weekly, "Every other Monday" every 2 weeks, "Mar 15, Jun 15,
 * Sep 15, Dec 15" every 3 months (in calendar order), "Mar 15" yearly. A bill that is not monthly
 * always has a start date (the contract requires one); without it only its day can be told.
 */
export function expenseDayText(expense: Pick<Expense, 'frequency' | 'day' | 'startDate'>): string {
  const { frequency, day, startDate } = expense;
  if (frequency === 'M' || startDate === null || !isIsoDate(startDate)) return String(day);
  const { month } = yearMonthOf(startDate);
  switch (frequency) {
    case 'W':
      return `${weekdayOf(startDate)}s`;
    case 'BW':
      return `Every other ${weekdayOf(startDate)}`;
    case 'Q':
      return [0, 3, 6, 9]
        .map((offset) => ((month - 1 + offset) % 12) + 1)
        .sort((a, b) => a - b)
        .map((dueMonth) => monthAndDay(dueMonth, day))
        .join(', ');
    case 'Y':
      return monthAndDay(month, day);
  }
}
