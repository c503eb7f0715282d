/**
 * A row's status in words and a symbol, so paid and cleared rows differ without relying on colour
 * (PRODUCT.md section 8).
 */
import type { TransactionStatus } from '../../../../domain/ledger.js';

const STATUS_LOOKS: Readonly<Record<TransactionStatus, { readonly label: string; readonly symbol: string }>> = {
  PENDING: { label: 'Unpaid', symbol: '○' },
  PAID: { label: 'Paid', symbol: '✓' },
  CLEARED: { label: 'Cleared', symbol: '✓✓' },
};

export function StatusBadge({ status }: { readonly status: TransactionStatus }) {
  const look = STATUS_LOOKS[status];
  return (
    <span className={`ledger-status ledger-status--${status.toLowerCase()}`}>
      <span className="ledger-status__symbol" aria-hidden="true">
        {look.symbol}
      </span>
      {look.label}
    </span>
  );
}
