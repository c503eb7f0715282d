/** The sticky bar above the rows: both balances and the section's buttons stay in view while scrolling. */
import { memo, useId } from 'react';
import { Button } from '../../components/button.js';
import type { Ledger } from '../../../contract/ledger.js';
import { formatUsdDollars } from '../../../domain/money.js';

interface LedgerHeaderProps {
  readonly ledger: Ledger;
  readonly onNewLedger: () => void;
  readonly onExtend: () => void;
  readonly onAddTransaction: () => void;
  readonly onRefresh: () => void;
  readonly onFilter: () => void;
}

/** Memoized: a filter change or an open dialog re-renders the section, not the balances. */
export const LedgerHeader = memo(function LedgerHeader({
  ledger,
  onNewLedger,
  onExtend,
  onAddTransaction,
  onRefresh,
  onFilter,
}: LedgerHeaderProps) {
  return (
    <div className="ledger-header">
      <dl className="ledger-balances">
        <Balance label="Current Balance" dollars={ledger.currentBalance} testId="current-balance" />
        <Balance label="Pending Balance" dollars={ledger.pendingBalance} testId="pending-balance" />
      </dl>
      <div className="ledger-header__buttons">
        <Button variant="outline-primary" onClick={onNewLedger}>
          New Ledger
        </Button>
        <Button variant="outline-primary" onClick={onExtend}>
          Extend
        </Button>
        <Button variant="primary" onClick={onAddTransaction}>
          Add Transaction
        </Button>
        <Button variant="outline-secondary" onClick={onRefresh}>
          Refresh
        </Button>
        <Button variant="outline-secondary" onClick={onFilter}>
          Filter
        </Button>
      </div>
    </div>
  );
});

interface BalanceProps {
  readonly label: string;
  readonly dollars: number;
  /** For the browser tests, which read the amount alone. */
  readonly testId: string;
}

function Balance({ label, dollars, testId }: BalanceProps) {
  const labelId = useId();
  return (
    <div className="ledger-balance">
      <dt id={labelId}>{label}</dt>
      {/* Named by its term, so "Current Balance" finds the amount; negative also shows its minus sign. */}
      <dd aria-labelledby={labelId} data-testid={testId} className={dollars < 0 ? 'ledger-negative' : undefined}>
        {formatUsdDollars(dollars)}
      </dd>
    </div>
  );
}
