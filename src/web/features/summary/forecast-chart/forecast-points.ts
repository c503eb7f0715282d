/** What the forecast chart is given, and the one point per date it draws. */
import { type IsoDate, toDayNumber } from '../../../../domain/calendar-date.js';
import { type Cents, cents, centsToDollars } from '../../../../domain/money.js';

/** The running balance after one ledger row; the chart takes them in ledger order. */
export interface ForecastChartPoint {
  readonly date: IsoDate;
  readonly balance: Cents;
  readonly name: string;
  readonly paycheck: boolean;
}

export interface BalanceForecastChartProps {
  readonly openingBalance: Cents;
  /** The ledger's start date. */
  readonly startDate: IsoDate;
  /** The ledger's end date. */
  readonly endDate: IsoDate;
  readonly points: readonly ForecastChartPoint[];
  /** Today on the page's clock (decision 0034); null when not known, and then no day is marked. */
  readonly today: IsoDate | null;
  /** The lowest balance dated today or later, or null when no row is ahead. */
  readonly lowest: { readonly date: IsoDate; readonly balance: Cents } | null;
  /** "Can I afford it?" (issue 36): the purchases asked about, drawn as a dashed line of the balance after them. */
  readonly whatIf?: readonly WhatIfPurchase[] | undefined;
}

export interface WhatIfPurchase {
  readonly date: IsoDate;
  readonly amount: Cents;
}

/** One point per date, as uPlot draws it: x in seconds at UTC midnight, y in dollars, with the exact cents beside. */
export interface ForecastSeries {
  readonly dates: readonly IsoDate[];
  readonly balances: readonly Cents[];
  readonly xs: readonly number[];
  readonly ys: readonly number[];
}

const SECONDS_PER_DAY = 86_400;

export function dateToSeconds(date: IsoDate): number {
  return toDayNumber(date) * SECONDS_PER_DAY;
}

/**
 * The balance at the end of each date that has rows, starting with the opening balance on the start
 * date and held to the end date, in one pass. A date's rows collapse into its last balance: a 2,000-row
 * ledger becomes at most one point per day, and the step line reads as "what I have that evening".
 */
export function forecastSeries(
  openingBalance: Cents,
  startDate: IsoDate,
  endDate: IsoDate,
  points: readonly ForecastChartPoint[],
): ForecastSeries {
  const dates: IsoDate[] = [startDate];
  const balances: Cents[] = [openingBalance];
  let lastDate = startDate;
  let lastBalance = openingBalance;
  for (const point of points) {
    lastBalance = point.balance;
    // Ledger order never goes back in time; a row dated before the last point joins that point.
    if (point.date <= lastDate) balances[balances.length - 1] = point.balance;
    else {
      lastDate = point.date;
      dates.push(point.date);
      balances.push(point.balance);
    }
  }
  if (endDate > lastDate) {
    dates.push(endDate);
    balances.push(lastBalance);
  }
  return { dates, balances, xs: dates.map(dateToSeconds), ys: balances.map(centsToDollars) };
}

/** True when two series would draw the same line (a Pay or a Clear changes no balance). */
export function sameSeries(a: ForecastSeries, b: ForecastSeries): boolean {
  if (a === b) return true;
  if (a.dates.length !== b.dates.length) return false;
  for (let i = 0; i < a.dates.length; i++) {
    if (a.dates[i] !== b.dates[i] || a.balances[i] !== b.balances[i]) return false;
  }
  return true;
}

/**
 * The series with each purchase's date in it (a date without rows holds the balance before it, so the
 * solid line is unchanged) and, for every date, the balance after the purchases made by then, in
 * dollars: the dashed what-if line. Null before the first purchase, so the dashed line starts there.
 */
export function withWhatIf(
  series: ForecastSeries,
  purchases: readonly WhatIfPurchase[],
): { series: ForecastSeries; after: (number | null)[] } {
  const dates = [...series.dates];
  const balances = [...series.balances];
  for (const { date } of purchases) {
    if (dates.includes(date) || date < (dates[0] ?? date) || date > (dates[dates.length - 1] ?? date)) continue;
    const at = dates.findIndex((existing) => existing > date);
    dates.splice(at, 0, date);
    balances.splice(at, 0, balances[at - 1] ?? balances[0] ?? cents(0));
  }
  const first = purchases.reduce<IsoDate | null>((earliest, { date }) => (earliest === null || date < earliest ? date : earliest), null);
  const after = dates.map((date, index) => {
    if (first === null || date < first) return null;
    const spent = purchases.reduce((total, purchase) => (purchase.date <= date ? total + purchase.amount : total), 0);
    return centsToDollars(cents((balances[index] ?? 0) - spent));
  });
  return { series: { dates, balances, xs: dates.map(dateToSeconds), ys: balances.map(centsToDollars) }, after };
}
