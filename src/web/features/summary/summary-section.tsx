/** The answer the product exists for: what is left over each month, or by how much it falls short. */
import type { Cents } from '../../../domain/money.js';
import { formatUsd } from '../../../domain/money.js';
import { summarizeMonth } from '../../../domain/summary.js';

interface SummarySectionProps {
  readonly totalDeposits: Cents;
  readonly totalExpenses: Cents;
}

export function SummarySection({ totalDeposits, totalExpenses }: SummarySectionProps) {
  const summary = summarizeMonth(totalDeposits, totalExpenses);
  return (
    // A status region: after an add or a delete, screen readers hear the new answer.
    <div role="status">
      {summary.kind === 'incomplete' && <p className="lead mb-0">Please add deposits and/or expenses!</p>}
      {summary.kind === 'leftover' && <p className="lead mb-0">You will have {formatUsd(summary.amount)} left over each month!</p>}
      {summary.kind === 'short' && (
        <div className="alert alert-warning d-flex align-items-center gap-3 mb-0">
          <WarningIcon />
          <p className="lead fw-semibold mb-0">You will be {formatUsd(summary.amount)} short each month!</p>
        </div>
      )}
    </div>
  );
}

/** The warning is not told by colour alone: a warning sign goes with it. */
function WarningIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false" className="flex-shrink-0">
      <path d="M12 2 1 21h22L12 2Z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      <path d="M12 9v5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <circle cx="12" cy="17.5" r="1.2" fill="currentColor" />
    </svg>
  );
}
