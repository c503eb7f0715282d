/**
 * The answers the product exists for: what is left over each month, or by how much it falls
 * short, and, once there is a ledger, the lowest balance ahead, a warning before zero, the current
 * pay period (handed in by the view) and the balance forecast chart. Home paints it from the
 * forecast answer, without the whole ledger (issue 24).
 */
import type { ReactNode } from 'react';
import type { BalancePoint } from '../../../domain/forecast.js';
import type { Cents } from '../../../domain/money.js';
import { formatUsd } from '../../../domain/money.js';
import { summarizeMonth } from '../../../domain/summary.js';
import { loadAlongside } from '../../components/load-alongside.js';
import { VIEW_PATHS } from '../../views/view-nav.js';
import { WarningIcon } from '../../components/warning-icon.js';
import { BelowZeroWarning } from '../../forecast/below-zero-warning.js';
import { lowestAheadText } from '../../forecast/forecast-texts.js';
import type { BalanceForecastChartProps } from './forecast-chart/forecast-points.js';

// The chart, its text alternative and uPlot are not in the first view's script (benchmark 4a): they
// load alongside the forecast's request, so the chart is drawn with the answer, not a moment later.
const BalanceForecastChart = loadAlongside(
  () => import('./forecast-chart/balance-forecast-chart.js').then((module) => module.BalanceForecastChart),
  <div className="forecast-chart-loading" />,
  VIEW_PATHS.home,
);

/** What the Summary says of a ledger: its lowest balance and first dip ahead, and the chart's points. */
export interface SummaryForecast {
  readonly lowest: BalancePoint | null;
  readonly firstBelowZero: BalancePoint | null;
  /** The account's name, when the user has several: the warning names it (decision 0045). */
  readonly account?: string | undefined;
  readonly chart: BalanceForecastChartProps;
}

interface SummarySectionProps {
  readonly totalDeposits: Cents;
  readonly totalExpenses: Cents;
  /** Null while the user has no ledger. */
  readonly forecast?: SummaryForecast | null;
  /** Said when there are neither deposits nor expenses: where to add them. */
  readonly guide?: ReactNode;
  /** Between the warning and the chart: the current pay period's line. */
  readonly children?: ReactNode;
  /** Told once the chart is drawn (or will not be): Home's first paint waits for it. */
  readonly onChartDrawn?: (() => void) | undefined;
}

export function SummarySection({
  totalDeposits,
  totalExpenses,
  forecast = null,
  guide = null,
  children = null,
  onChartDrawn,
}: SummarySectionProps) {
  const summary = summarizeMonth(totalDeposits, totalExpenses);
  const lowest = forecast?.lowest ?? null;
  const below = forecast?.firstBelowZero ?? null;
  return (
    <>
      {/* A status region: after an add, a delete or an edit, screen readers hear what changed, once. */}
      <div role="status">
        {summary.kind === 'incomplete' && <p className="lead mb-0">Please add deposits and/or expenses!</p>}
        {summary.kind === 'leftover' && <p className="lead mb-0">You will have {formatUsd(summary.amount)} left over each month!</p>}
        {summary.kind === 'short' && (
          <div className="alert alert-warning d-flex align-items-center gap-3 mb-0">
            <WarningIcon />
            <p className="lead fw-semibold mb-0">You will be {formatUsd(summary.amount)} short each month!</p>
          </div>
        )}
        {lowest && <p className="mt-3 mb-0">{lowestAheadText(lowest)}</p>}
        {below && <BelowZeroWarning below={below} account={forecast?.account} className="mt-3 mb-0" />}
      </div>
      {summary.kind === 'incomplete' && guide}
      {children}
      {forecast && <BalanceForecastChart {...forecast.chart} onDrawn={onChartDrawn} />}
    </>
  );
}
