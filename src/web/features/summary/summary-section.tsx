import { Alert } from 'react-bootstrap';
import type { Cents } from '../../../domain/money.js';
import { formatUsd } from '../../../domain/money.js';
import { summarizeMonth } from '../../../domain/summary.js';

interface SummarySectionProps {
  readonly totalDeposits: Cents;
  readonly totalExpenses: Cents;
}

export function SummarySection({ totalDeposits, totalExpenses }: SummarySectionProps) {
  const summary = summarizeMonth(totalDeposits, totalExpenses);
  if (summary.kind === 'incomplete') return <p className="lead mb-0">Please add deposits and/or expenses!</p>;
  if (summary.kind === 'short') {
    return (
      <Alert variant="warning" className="lead mb-0">
        <strong>Warning:</strong> You will be {formatUsd(summary.amount)} short each month!
      </Alert>
    );
  }
  return <p className="lead mb-0">You will have {formatUsd(summary.amount)} left over each month!</p>;
}
