/**
 * A window of the ledger (issue 27, decision 0053): the rows from one index on, and what the page
 * shows around them without every row: how many rows there are, the pay periods whose lines lie
 * among or before those rows and how many there are in all, and the first row ahead below $0. Pure,
 * over the rows in row order with their running balances (computeBalances), as the forecast is.
 */
import type { IsoDate } from './calendar-date.js';
import { type BalancePoint, type ForecastRow, type PayPeriod, payPeriods } from './forecast.js';
import { type Cents, cents } from './money.js';
import { everydayPayPeriods, forecastOutlook, pointsAhead } from './safe-to-spend.js';

export interface LedgerWindowOf<Row> {
  /** Every row of the ledger, not only those in the window. */
  readonly count: number;
  /** The index in row order of the window's first row. */
  readonly from: number;
  readonly rows: Row[];
  /**
   * The pay periods whose lines lie among the window's rows or before them: those that start on or
   * before its last row's date (every one when it reaches the last row), and end on or after its first
   * row's date when it does not start at the top.
   */
  readonly periods: PayPeriod[];
  readonly periodCount: number;
  /** Over the whole ledger, from `today` on. */
  readonly firstBelowZero: BalancePoint | null;
}

export function ledgerWindow<Row extends ForecastRow>(
  ledger: { readonly startDate: IsoDate; readonly endDate: IsoDate; readonly openingBalance: Cents },
  rows: readonly Row[],
  { from, limit }: { readonly from: number; readonly limit: number },
  today: IsoDate,
  /** Everyday spending a week out of this account (issue 36): counted in the warning and the pay periods as the forecast counts it. */
  everydayWeekly: Cents = cents(0),
  /**
   * The rows as the forecast weighs them, with their running balances: everyday spending's share of a
   * card's payments counted (decision 0101). The warning and the pay periods read these; the window
   * shows the stored `rows`.
   */
  weighed: readonly ForecastRow[] = rows,
): LedgerWindowOf<Row> {
  const shown = rows.slice(from, from + limit);
  // The warning before $0 is the outlook's (decision 0074), the one the forecast and the notification read.
  const input = { ledger, rows: weighed, today, buffer: cents(0), everydayWeekly };
  // The moments ahead, walked once for the warning and the pay periods.
  const points = pointsAhead(input);
  const periods: PayPeriod[] = everydayWeekly > 0 ? everydayPayPeriods(input, { points }) : payPeriods(ledger, weighed);
  const first = shown[0];
  const last = shown.at(-1);
  const reachesEnd = from + limit >= rows.length;
  return {
    count: rows.length,
    from,
    rows: shown,
    periods: periods.filter(
      (period) =>
        (reachesEnd || (last !== undefined && period.startDate <= last.date)) &&
        (from === 0 || (first !== undefined && period.endDate >= first.date)),
    ),
    periodCount: periods.length,
    firstBelowZero: balancePointOf(forecastOutlook(input, points).firstBelowZero),
  };
}

/** The warning's point as a full load reads it: the outlook's point carries its row's amount as well, which the window does not answer. */
function balancePointOf(point: BalancePoint | null): BalancePoint | null {
  return point && { date: point.date, name: point.name, balance: point.balance };
}
