/**
 * The answers the product exists for: what is left over each month, or by how much it falls
 * short, and, once there is a ledger, the lowest balance ahead, a warning before zero and the
 * balance forecast chart.
 */
import type { LedgerView } from '../../../contract/codecs.js';
import type { IsoDate } from '../../../domain/calendar-date.js';
import type { Cents } from '../../../domain/money.js';
import { formatUsd } from '../../../domain/money.js';
import { summarizeMonth } from '../../../domain/summary.js';
import { loadAlongside } from '../../components/load-alongside.js';
import { WarningIcon } from '../../components/warning-icon.js';
import { BelowZeroWarning } from '../../forecast/below-zero-warning.js';
import { lowestAheadText } from '../../forecast/forecast-texts.js';
import type { LedgerForecast } from '../../forecast/ledger-forecast.js';

// The chart, its text alternative and uPlot are not in the first view's script (benchmark 4a): they
// load alongside the ledger's request, so the chart is drawn with the ledger, not a moment later,
// when the first tap on Pay would wait for it (benchmark 5a).
const LedgerForecastChart = loadAlongside(
  () => import('./ledger-forecast-chart.js').then((module) => module.LedgerForecastChart),
  <div className="forecast-chart-loading" />,
);

interface SummarySectionProps {
  readonly totalDeposits: Cents;
  readonly totalExpenses: Cents;
  /** The ledger and its forecast, or null while the user has none. */
  readonly forecast?: { readonly ledger: LedgerView; readonly answer: LedgerForecast; readonly today: IsoDate | null } | null;
}

export function SummarySection({ totalDeposits, totalExpenses, forecast = null }: SummarySectionProps) {
  const summary = summarizeMonth(totalDeposits, totalExpenses);
  const lowest = forecast?.answer.lowest ?? null;
  const below = forecast?.answer.firstBelowZero ?? null;
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
        {below && <BelowZeroWarning below={below} className="mt-3 mb-0" />}
      </div>
      {forecast && <LedgerForecastChart ledger={forecast.ledger} answer={forecast.answer} today={forecast.today} />}
    </>
  );
}
