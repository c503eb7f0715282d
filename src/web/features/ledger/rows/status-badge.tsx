/**
 * A row's status in words and a symbol, so paid and cleared rows differ without relying on colour
 * (PRODUCT.md section 8).
 */
import type { BankBadge as BankBadgeText } from '../../../../domain/bank-sync/bank-rows.js';
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

/**
 * What the bank says of a row a bank sync wrote (issue 37): "Pending at the bank", or "No longer at
 * the bank" for one that counts in no balance. Words, not a colour; nothing for any other row.
 */
export function BankBadge({ badge }: { readonly badge: BankBadgeText | undefined }) {
  if (badge === undefined) return null;
  const gone = badge === 'No longer at the bank';
  // The space before it is its own, so a row without a badge ends where its status does.
  return (
    <>
      {' '}
      <span className={`ledger-bank-badge${gone ? ' ledger-bank-badge--gone' : ''}`}>{badge}</span>
    </>
  );
}
