/**
 * "Will I make it to payday?" (issue 13): the ledger cut into pay periods, the lowest balance ahead
 * and the first day it goes below zero. Pure functions over a ledger's rows with their running
 * balances (computeBalances), used alike by the server's forecast answer and the page.
 */
import { addDays, type IsoDate } from './calendar-date.js';
import { countedAmount, type CountedRow, type LedgerRowWithBalance, type SourceKind } from './ledger.js';
import { type Cents, cents } from './money.js';

export interface PayPeriod {
  readonly startDate: IsoDate;
  readonly endDate: IsoDate;
  /** The period's credits. */
  readonly income: Cents;
  /** The period's debits. */
  readonly bills: Cents;
  /** income - bills. */
  readonly leftover: Cents;
  /** The lowest running balance after any of its rows; the balance it started with when it has none. */
  readonly lowest: Cents;
  /** The balance after its last row; the balance it started with when it has none. */
  readonly endBalance: Cents;
}

/** What the forecast reads of a ledger row: the server passes its rows, the page the rows of its ledger answer in cents. */
export interface ForecastRow extends Pick<LedgerRowWithBalance, 'date' | 'name' | 'type' | 'amount' | 'balance'> {
  readonly source: { readonly kind: SourceKind } | null;
  /** A row no longer at the bank is neither income nor a bill (isCounted). */
  readonly bank?: CountedRow['bank'];
}

/** A row that names a moment of the forecast. */
export interface BalancePoint {
  readonly date: IsoDate;
  readonly name: string;
  readonly balance: Cents;
}

/** A paycheck opens a pay period: a credit generated from a deposit. */
export function isPaycheck(row: Pick<ForecastRow, 'type' | 'source'>): boolean {
  return row.type === 'C' && row.source?.kind === 'deposit';
}

/**
 * The ledger's dates cut into pay periods: each starts on a paycheck's date (several paychecks on
 * one day open one period) and runs to the day before the next one, or to the ledger's end; the
 * days before the first paycheck form an opening period from the ledger's start. The periods
 * cover every date of the ledger exactly once. `rows` are in row order with their balances.
 */
export function payPeriods(
  ledger: { readonly startDate: IsoDate; readonly endDate: IsoDate; readonly openingBalance: Cents },
  rows: readonly ForecastRow[],
): PayPeriod[] {
  const starts: IsoDate[] = [ledger.startDate];
  for (const row of rows) {
    const last = starts[starts.length - 1] as IsoDate;
    if (isPaycheck(row) && row.date > last && row.date <= ledger.endDate) starts.push(row.date);
  }
  const periods: PayPeriod[] = [];
  let balance: number = ledger.openingBalance;
  let index = 0;
  starts.forEach((startDate, period) => {
    const next = starts[period + 1];
    const endDate = next === undefined ? ledger.endDate : addDays(next, -1);
    let income = 0;
    let bills = 0;
    let lowest = balance;
    let any = false;
    for (; index < rows.length && (next === undefined || (rows[index] as ForecastRow).date < next); index += 1) {
      const row = rows[index] as ForecastRow;
      const counted = countedAmount(row);
      if (counted > 0) income += counted;
      else bills -= counted;
      lowest = any ? Math.min(lowest, row.balance) : row.balance;
      any = true;
      balance = row.balance;
    }
    periods.push({
      startDate,
      endDate,
      income: cents(income),
      bills: cents(bills),
      leftover: cents(income - bills),
      lowest: cents(lowest),
      endBalance: cents(balance),
    });
  });
  return periods;
}

/** The lowest running balance among the rows dated today or later (the first row to reach it), or null. */
export function lowestAhead(rows: readonly ForecastRow[], today: IsoDate): BalancePoint | null {
  let lowest: ForecastRow | null = null;
  for (const row of rows) {
    if (row.date >= today && (lowest === null || row.balance < lowest.balance)) lowest = row;
  }
  return lowest && pointOf(lowest);
}

/** The first row dated today or later after which the balance is below zero, or null. */
export function firstBelowZero(rows: readonly ForecastRow[], today: IsoDate): BalancePoint | null {
  const found = rows.find((row) => row.date >= today && row.balance < 0);
  return found ? pointOf(found) : null;
}

function pointOf(row: ForecastRow): BalancePoint {
  return { date: row.date, name: row.name, balance: row.balance };
}

/** A moment the balance forecast chart draws: the running balance after one row. */
export interface ChartPoint extends BalancePoint {
  readonly paycheck: boolean;
}

/**
 * The rows the chart needs, no more: the last row of each date (the chart draws one point per
 * date, "what I have that evening") and every paycheck (its text names the balance after each).
 * A year of a 20,000-row ledger becomes at most two points a day. Linear, in row order.
 */
export function chartPoints(rows: readonly ForecastRow[]): ChartPoint[] {
  const points: ChartPoint[] = [];
  rows.forEach((row, index) => {
    const paycheck = isPaycheck(row);
    const lastOfItsDate = rows[index + 1]?.date !== row.date;
    if (paycheck || lastOfItsDate) points.push({ ...pointOf(row), paycheck });
  });
  return points;
}

/** The rows dated from today through `days - 1` days later (the next 14 days by default), in row order. */
export function rowsAhead<Row extends { readonly date: IsoDate }>(rows: readonly Row[], today: IsoDate, days = 14): Row[] {
  const last = addDays(today, days - 1);
  return rows.filter((row) => row.date >= today && row.date <= last);
}
