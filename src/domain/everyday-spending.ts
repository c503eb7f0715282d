/**
 * The everyday spending Leftover suggests (issue 36 item 2, decision 0075): what an account spent
 * on everything else, week by week. "Everything else" is a cleared debit no schedule, transfer or
 * card payment made (a row without a source or a transfer link): what the schedules already
 * forecast is not guessed twice. Weeks run Monday to Sunday; the last full week ends on the last
 * Sunday before today. Linear in rows.
 */
import { addDays, daysBetween, type IsoDate, weekdayOf } from './calendar-date.js';
import { isCounted, type LedgerRow } from './ledger.js';
import { type Cents, cents } from './money.js';

/** How many full weeks the suggestion looks back over. */
export const SUGGESTION_WEEKS = 13;
/** Fewer full weeks of history than this, and nothing is suggested. */
export const MIN_SUGGESTION_WEEKS = 4;

export interface WeekTotal {
  /** The week's Monday. */
  readonly startDate: IsoDate;
  readonly total: Cents;
}

export interface EverydayHistory {
  /** The full weeks of the last 13 that the ledger covers from their Monday on, oldest first. */
  readonly weeks: readonly WeekTotal[];
  /** The median of their totals (the mean of the middle two, half-up, for an even count); null with fewer than 4 weeks. */
  readonly suggestion: Cents | null;
}

/** The Monday of the last full week before today: a week ends on Sunday, and today's week is not over. */
export function lastFullWeekStart(today: IsoDate): IsoDate {
  const sinceMonday = (['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const).indexOf(weekdayOf(today));
  return addDays(today, -sinceMonday - 7);
}

/** A row counts as everyday spending when it is a cleared debit that nothing projected, and that counts at all (isCounted). */
export function isEverydaySpending(row: Pick<LedgerRow, 'type' | 'status' | 'source' | 'transfer' | 'bank'>): boolean {
  return row.type === 'D' && row.status === 'CLEARED' && !row.source && !row.transfer && isCounted(row);
}

export function everydayHistory(ledgerStart: IsoDate, rows: readonly LedgerRow[], today: IsoDate): EverydayHistory {
  const lastStart = lastFullWeekStart(today);
  const firstStart = addDays(lastStart, -7 * (SUGGESTION_WEEKS - 1));
  // Only weeks the ledger covers whole: a week that began before the ledger has no history to speak of.
  const starts: IsoDate[] = [];
  for (let start = firstStart; start <= lastStart; start = addDays(start, 7)) if (start >= ledgerStart) starts.push(start);
  const totals = starts.map(() => 0);
  const first = starts[0];
  if (first !== undefined) {
    const end = addDays(lastStart, 6);
    for (const row of rows) {
      if (row.date < first || row.date > end || !isEverydaySpending(row)) continue;
      const index = Math.floor(daysBetween(first, row.date) / 7);
      totals[index] = (totals[index] ?? 0) + row.amount;
    }
  }
  const weeks = starts.map((startDate, index) => ({ startDate, total: cents(totals[index] ?? 0) }));
  return { weeks, suggestion: weeks.length < MIN_SUGGESTION_WEEKS ? null : median(weeks.map((week) => week.total)) };
}

/** The middle value; for an even count the mean of the middle two, rounded half-up to the cent. At most 13 values. */
function median(values: readonly Cents[]): Cents {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as Cents;
  if (sorted.length % 2 === 1) return upper;
  const sum = (sorted[middle - 1] as Cents) + upper;
  return cents(Math.floor((sum + 1) / 2));
}
