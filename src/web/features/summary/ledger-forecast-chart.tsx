/** The balance forecast chart of the ledger the page holds: its rows become the chart's points once per ledger answer. */
import { useMemo } from 'react';
import type { LedgerView } from '../../../contract/codecs.js';
import type { IsoDate } from '../../../domain/calendar-date.js';
import { isPaycheck } from '../../../domain/forecast.js';
import type { LedgerForecast } from '../../forecast/ledger-forecast.js';
import { BalanceForecastChart, type ForecastChartPoint } from './forecast-chart/balance-forecast-chart.js';

interface LedgerForecastChartProps {
  readonly ledger: LedgerView;
  readonly answer: LedgerForecast;
  readonly today: IsoDate | null;
}

export function LedgerForecastChart({ ledger, answer, today }: LedgerForecastChartProps) {
  const points = useMemo<ForecastChartPoint[]>(
    () => answer.rows.map((row) => ({ date: row.date, balance: row.balance, name: row.name, paycheck: isPaycheck(row) })),
    [answer.rows],
  );
  return (
    <BalanceForecastChart
      openingBalance={ledger.openingBalance}
      startDate={ledger.startDate}
      endDate={ledger.endDate}
      points={points}
      today={today}
      lowest={answer.lowest}
    />
  );
}
