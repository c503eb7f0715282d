/** The warning before zero, in words and with a sign, never by colour alone. */
import type { BalancePoint } from '../../domain/forecast.js';
import { WarningIcon } from '../components/warning-icon.js';
import { formatDate } from '../../domain/calendar-date.js';

interface BelowZeroWarningProps {
  readonly below: BalancePoint;
  /** The account's name, said when the user has several (decision 0045); one account's warning reads as it always did. */
  readonly account?: string | undefined;
  readonly className?: string;
}

export function BelowZeroWarning({ below, account, className = '' }: BelowZeroWarningProps) {
  return (
    <div className={`alert alert-warning d-flex align-items-center gap-2 ${className}`}>
      <WarningIcon size={22} />
      {/* The names isolated: a bidi override in one cannot reorder the rest of the sentence. */}
      {/* A name typed without spaces breaks inside the alert (text-break) instead of widening the page. */}
      <p className="text-break fw-semibold mb-0">
        Your {account && <bdi>{account} </bdi>}balance goes below $0 on {formatDate(below.date)}, when <bdi>{below.name}</bdi> is due.
      </p>
    </div>
  );
}
