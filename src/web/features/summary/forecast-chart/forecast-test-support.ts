/** Ledger points for the chart's tests, written as people read them: date, name, balance in dollars. */
import { isoDate } from '../../../../domain/calendar-date.js';
import { cents } from '../../../../domain/money.js';
import type { BalanceForecastChartProps, ForecastChartPoint } from './forecast-points.js';

export function point(date: string, name: string, dollars: number, paycheck = false): ForecastChartPoint {
  return { date: isoDate(date), name, balance: cents(Math.round(dollars * 100)), paycheck };
}

/** January 2027: $500 opening, a paycheck on the 8th, rent that dips below zero on the 15th, a paycheck back on the 22nd. */
export function januaryForecast(overrides: Partial<BalanceForecastChartProps> = {}): BalanceForecastChartProps {
  return {
    openingBalance: cents(50_000),
    startDate: isoDate('2027-01-01'),
    endDate: isoDate('2027-01-31'),
    points: [
      point('2027-01-04', 'Phone', 450),
      point('2027-01-08', 'Paycheck: Acme', 2450, true),
      point('2027-01-08', 'Groceries', 2300),
      point('2027-01-15', 'Rent', -120),
      point('2027-01-22', 'Paycheck: Acme', 1880, true),
    ],
    today: isoDate('2027-01-06'),
    lowest: { date: isoDate('2027-01-15'), balance: cents(-12_000) },
    ...overrides,
  };
}
