/** The warning before zero, in words and with a sign, never by colour alone. */
import type { BalancePoint } from '../../domain/forecast.js';
import { WarningIcon } from '../components/warning-icon.js';
import { formatDate } from '../../domain/calendar-date.js';

export function BelowZeroWarning({ below, className = '' }: { readonly below: BalancePoint; readonly className?: string }) {
  return (
    <div className={`alert alert-warning d-flex align-items-center gap-2 ${className}`}>
      <WarningIcon size={22} />
      {/* The bill's name isolated: a bidi override in it cannot reorder the rest of the sentence. */}
      <p className="fw-semibold mb-0">
        Your balance goes below $0 on {formatDate(below.date)}, when <bdi>{below.name}</bdi> is due.
      </p>
    </div>
  );
}
