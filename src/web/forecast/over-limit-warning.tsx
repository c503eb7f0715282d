/**
 * A credit card going over its limit (issue 25, decision 0045), in words and with a sign, never by
 * colour alone. Only the views' lazy chunks show it: the first view's account is never a card.
 */
import { formatDate } from '../../domain/calendar-date.js';
import type { BalancePoint } from '../../domain/forecast.js';
import { type Cents, formatUsd } from '../../domain/money.js';
import { WarningIcon } from '../components/warning-icon.js';

interface OverLimitWarningProps {
  /** The card's name. */
  readonly card: string;
  readonly creditLimit: Cents;
  /** The first row ahead after which the card owes more than its limit. */
  readonly over: BalancePoint;
  readonly className?: string;
}

/** "Your Visa card goes over its $1,000.00 limit on Mon, Dec 21, 2026." */
export function OverLimitWarning({ card, creditLimit, over, className = '' }: OverLimitWarningProps) {
  return (
    <div className={`alert alert-warning d-flex align-items-center gap-2 ${className}`}>
      <WarningIcon size={22} />
      {/* A name typed without spaces breaks inside the alert (text-break) instead of widening the page. */}
      <p className="text-break fw-semibold mb-0">
        Your <bdi>{card}</bdi> card goes over its {formatUsd(creditLimit)} limit on {formatDate(over.date)}.
      </p>
    </div>
  );
}
