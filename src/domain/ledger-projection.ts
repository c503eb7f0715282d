/**
 * The living ledger's projection (issue 11): where each generated row came from, what extending a
 * ledger appends, and how one schedule's future rows follow a change of that schedule. Built on the
 * same occurrence functions as creation, so extending or re-projecting yields exactly the rows a
 * new ledger over the same dates would have.
 */
import { addDays, daysInMonth, isIsoDate, type IsoDate } from './calendar-date.js';
import {
  compareDrafts,
  type LedgerRow,
  type NamedDeposit,
  type NamedExpense,
  type Occurrence,
  paycheckName,
  type RowSource,
  type ScheduleRef,
  type TransactionDraft,
} from './ledger.js';
import { type DateRange, depositPaydays, expenseDueDates } from './schedules.js';

export interface ProjectedDraft extends TransactionDraft {
  readonly source: Occurrence;
}

export interface LedgerDeposit extends NamedDeposit {
  readonly id: string;
}

export interface LedgerExpense extends NamedExpense {
  readonly id: string;
  /**
   * True in the ledger a recurring transfer pays into (decision 0043): there each occurrence is a
   * credit, the other side of the debit in the expense's own account.
   */
  readonly credit?: boolean;
}

/** The schedules a ledger is projected from, each list in the order the user added them. */
export interface LedgerSchedules {
  readonly deposits: readonly LedgerDeposit[];
  readonly expenses: readonly LedgerExpense[];
}

/** A row of a living ledger, whose source is always known (null for a row added by hand). */
export interface SourcedRow extends LedgerRow {
  readonly source: RowSource | null;
}

/** One text per occurrence, for sets of skipped or kept occurrences (stored ones included, as text). */
export function occurrenceKey(occurrence: { readonly kind: string; readonly id: string; readonly occurrence: string }): string {
  return `${occurrence.kind}\u0000${occurrence.id}\u0000${occurrence.occurrence}`;
}

/**
 * Every paycheck and bill of the schedules within the range, inclusive, in row order (date, credits
 * first, name; equal rows keep deposit-then-expense input order, which becomes their creation
 * order), leaving out the occurrences named in `leaveOut`.
 */
export function projectSchedules(
  schedules: LedgerSchedules,
  range: DateRange,
  leaveOut: ReadonlySet<string> = new Set(),
): ProjectedDraft[] {
  const drafts: ProjectedDraft[] = [];
  const add = (draft: ProjectedDraft) => {
    if (leaveOut.size === 0 || !leaveOut.has(occurrenceKey(draft.source))) drafts.push(draft);
  };
  for (const deposit of schedules.deposits) {
    const name = paycheckName(deposit.name);
    for (const date of depositPaydays(deposit, range)) {
      add({ date, name, type: 'C', amount: deposit.amount, source: { kind: 'deposit', id: deposit.id, occurrence: date } });
    }
  }
  for (const expense of schedules.expenses) {
    for (const date of expenseDueDates(expense, range)) {
      add({
        date,
        name: expense.name,
        type: expense.credit ? 'C' : 'D',
        amount: expense.amount,
        source: { kind: 'expense', id: expense.id, occurrence: date },
      });
    }
  }
  return drafts.sort(compareDrafts);
}

/**
 * A generated row that still follows its schedule: unpaid, never edited, and dated on or after the
 * first day a change may reach (today, or the ledger's start if later). Everything else is history
 * or the user's own decision, and stays as it is.
 */
export function followsSchedule(row: SourcedRow, schedule: ScheduleRef, from: IsoDate): boolean {
  return (
    row.source !== null &&
    row.source.kind === schedule.kind &&
    row.source.id === schedule.id &&
    !row.source.edited &&
    row.status === 'PENDING' &&
    row.date >= from
  );
}

export interface Reprojection {
  /** Ids of the rows the change replaces. */
  readonly removed: readonly string[];
  /** The schedule's occurrences as it now is that no row stands for yet, in row order. */
  readonly added: readonly ProjectedDraft[];
}

/**
 * The period of its schedule that an occurrence fills, as the schedule now is: a weekly or
 * bi-weekly one stands for its own date; a monthly, end-of-month or twice-a-month one for its month
 * (or half of it), the one it was due in before a weekend moved it back; a quarterly or yearly
 * one for its place in the count of quarters or years from the start date.
 */
function periodOf(schedule: LedgerDeposit | LedgerExpense, kind: ScheduleRef['kind'], date: IsoDate): string {
  const frequency = frequencyOf(schedule, kind);
  if (frequency === 'W' || frequency === 'BW') return date;
  if (frequency === 'Q' || frequency === 'Y') {
    const start = (schedule as LedgerExpense).startDate ?? date;
    const monthsFromStart = monthIndex(date) - monthIndex(start);
    return String(Math.floor(monthsFromStart / (frequency === 'Q' ? 3 : 12)));
  }
  const startDay = kind === 'deposit' ? Number((schedule as LedgerDeposit).startDate.slice(8, 10)) : (schedule as LedgerExpense).day;
  const lastDay = (day: IsoDate) => daysInMonth(Number(day.slice(0, 4)), Number(day.slice(5, 7)));
  const isDue = (day: IsoDate) => {
    const dayOfMonth = Number(day.slice(8, 10));
    if (frequency === 'EOM') return dayOfMonth === lastDay(day);
    if (frequency === 'SM') return dayOfMonth === 15 || dayOfMonth === lastDay(day);
    return dayOfMonth === Math.min(startDay, lastDay(day));
  };
  // Paydays move back at most two days (a weekend); bills never move.
  // No date follows 9999-12-31: addDays would write a six-digit year, which isIsoDate refuses.
  const due = [0, 1, 2].map((offset) => addDays(date, offset)).find((day) => isIsoDate(day) && isDue(day)) ?? date;
  return frequency === 'SM' ? `${due.slice(0, 7)}/${Number(due.slice(8, 10)) <= 15 ? 1 : 2}` : due.slice(0, 7);
}

function monthIndex(date: IsoDate): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

function frequencyOf(schedule: LedgerDeposit | LedgerExpense, kind: ScheduleRef['kind']): string {
  return kind === 'deposit' ? (schedule as LedgerDeposit).frequency : ((schedule as LedgerExpense).frequency ?? 'M');
}

function scheduleIn(schedules: LedgerSchedules, schedule: ScheduleRef): LedgerDeposit | LedgerExpense | undefined {
  const found = schedule.kind === 'deposit' ? schedules.deposits : schedules.expenses;
  return found.find((candidate) => candidate.id === schedule.id);
}

/**
 * Brings one schedule's future rows up to date after it was added, changed or deleted: the rows
 * that still follow it within `window` (from today or the ledger's start, to its end) are replaced
 * by its occurrences as it now is (`current` holds the schedules after the change, `before` those
 * before it). A row that already matches its new occurrence exactly stays, id and all. An
 * occurrence a kept row already stands for (paid early, or edited) or that the user skipped is not
 * projected again; while the schedule keeps its frequency this holds for its period, so a bill
 * moved from the 15th to the 20th does not come back for a month already paid or skipped. A new
 * frequency is a new rhythm: then only the very same dates count.
 */
export function reprojectSchedule(
  rows: readonly SourcedRow[],
  schedule: ScheduleRef,
  before: LedgerSchedules,
  current: LedgerSchedules,
  window: DateRange,
  skipped: ReadonlySet<string>,
): Reprojection {
  const now = scheduleIn(current, schedule);
  const then = scheduleIn(before, schedule);
  const own: LedgerSchedules = {
    deposits: schedule.kind === 'deposit' && now ? [now as LedgerDeposit] : [],
    expenses: schedule.kind === 'expense' && now ? [now as LedgerExpense] : [],
  };
  const samePeriods = now !== undefined && then !== undefined && frequencyOf(now, schedule.kind) === frequencyOf(then, schedule.kind);
  const periodOfDate = (date: IsoDate) => (samePeriods && now ? periodOf(now, schedule.kind, date) : date);
  const following: { readonly row: SourcedRow; readonly key: string }[] = [];
  const filledPeriods = new Set<string>();
  const fill = (occurrence: IsoDate) => filledPeriods.add(periodOfDate(occurrence));
  for (const row of rows) {
    if (row.source === null || row.source.kind !== schedule.kind || row.source.id !== schedule.id) continue;
    if (followsSchedule(row, schedule, window.from)) following.push({ row, key: occurrenceKey(row.source) });
    else fill(row.source.occurrence);
  }
  const skippedPrefix = occurrenceKey({ ...schedule, occurrence: '' });
  for (const key of skipped) if (key.startsWith(skippedPrefix)) fill(key.slice(skippedPrefix.length) as IsoDate);

  const projected =
    window.from <= window.to ? projectSchedules(own, window).filter((draft) => !filledPeriods.has(periodOfDate(draft.date))) : [];
  const unmatched = new Map(projected.map((draft) => [occurrenceKey(draft.source), draft]));
  const removed: string[] = [];
  for (const { row, key } of following) {
    const draft = unmatched.get(key);
    if (draft && draft.date === row.date && draft.name === row.name && draft.type === row.type && draft.amount === row.amount) {
      unmatched.delete(key);
    } else {
      removed.push(row.id);
    }
  }
  return { removed, added: projected.filter((draft) => unmatched.has(occurrenceKey(draft.source))) };
}
