/** The warning before zero, in words and with a sign, never by colour alone. */
import type { BalancePoint } from '../../domain/forecast.js';
import { WarningIcon } from '../components/warning-icon.js';
import { belowZeroText } from './forecast-texts.js';

export function BelowZeroWarning({ below, className = '' }: { readonly below: BalancePoint; readonly className?: string }) {
  return (
    <div className={`alert alert-warning d-flex align-items-center gap-2 ${className}`}>
      <WarningIcon size={22} />
      <p className="fw-semibold mb-0">{belowZeroText(below)}</p>
    </div>
  );
}
