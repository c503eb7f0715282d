/** The chart as text: what a screen reader, a text-only reader, or anyone who opens "Chart as text" gets. */
import { type Cents, formatUsd } from '../../../../domain/money.js';
import { formatDate, type IsoDate } from '../../../../domain/calendar-date.js';
import type { BalanceForecastChartProps } from './forecast-points.js';

export interface ForecastText {
  /** "Lowest balance ahead: -$120.00 on Fri, Jan 15, 2027." */
  readonly lowest: string;
  /** "Highest: $2,000.00 on Fri, Jan 1, 2027." */
  readonly highest: string;
  /** "After the paycheck on Fri, Jan 8, 2027: $1,234.56", one per paycheck date. */
  readonly paychecks: readonly { readonly date: IsoDate; readonly text: string }[];
}

/**
 * The highest is over the opening balance and every row's running balance (so a paycheck's balance
 * before that day's bills counts); on a tie, the first. Several paychecks on one date are one line,
 * the balance after the last of them.
 */
export function forecastText({
  openingBalance,
  startDate,
  points,
  lowest,
}: Pick<BalanceForecastChartProps, 'openingBalance' | 'startDate' | 'points' | 'lowest'>): ForecastText {
  let highest: { date: IsoDate; balance: Cents } = { date: startDate, balance: openingBalance };
  const paychecks: { date: IsoDate; text: string }[] = [];
  for (const point of points) {
    if (point.balance > highest.balance) highest = point;
    if (!point.paycheck) continue;
    const line = { date: point.date, text: `After the paycheck on ${formatDate(point.date)}: ${formatUsd(point.balance)}` };
    if (paychecks[paychecks.length - 1]?.date === point.date) paychecks[paychecks.length - 1] = line;
    else paychecks.push(line);
  }
  return {
    lowest: lowest
      ? `Lowest balance ahead: ${formatUsd(lowest.balance)} on ${formatDate(lowest.date)}.`
      : 'Lowest balance ahead: none, no transaction is dated today or later.',
    highest: `Highest: ${formatUsd(highest.balance)} on ${formatDate(highest.date)}.`,
    paychecks,
  };
}
