/**
 * The sticky bar above the rows: both balances, the section's buttons, the search and the warning
 * before zero stay in view while scrolling.
 */
import { lazy, memo, type ReactNode, type RefObject, Suspense, useId, useLayoutEffect, useRef } from 'react';
import { Button } from '../../components/button.js';
import type { LedgerView } from '../../../contract/codecs.js';
import type { BankBalanceView } from '../../../contract/statement-codecs.js';
import type { BalancePoint } from '../../../domain/forecast.js';
import type { Cents } from '../../../domain/money.js';
import { BelowZeroWarning } from '../../forecast/below-zero-warning.js';
import { OverLimitWarning } from '../../forecast/over-limit-warning.js';
import { formatLedgerMoney } from './ledger-format.js';

// Only a ledger that imported a statement says how it stands with the bank: those words load then.
const ReconciliationWords = lazy(() =>
  import('../../reconciliation/reconciliation-text.js').then((module) => ({ default: module.ReconciliationWords })),
);
interface LedgerHeaderProps {
  /** Its balances: the whole ledger's, or a window's, which are the whole ledger's too (decision 0053). */
  readonly ledger: Pick<LedgerView, 'currentBalance' | 'pendingBalance'>;
  /** The whole ledger, which the bank's words are worked out from; null while a window is shown. */
  readonly wholeLedger: LedgerView | null;
  readonly onNewLedger: () => void;
  readonly onExtend: () => void;
  readonly onAddTransaction: () => void;
  readonly onRefresh: () => void;
  readonly onFilter: () => void;
  readonly onImport: () => void;
  /** Downloads the ledger as the register shows it (issue 15). */
  readonly onExport: () => void;
  /** The Search field's text: only rows whose name contains it are shown. */
  readonly search: string;
  readonly onSearch: (search: string) => void;
  /** The first row ahead after which the balance is below $0, or null. */
  readonly below: BalancePoint | null;
  /** The account's name, when the user has several: the warning names it (decision 0045). */
  readonly account?: string | undefined;
  /** A card's limit and the first row ahead over it: a card is warned of that instead. */
  readonly overLimit?: { readonly creditLimit: Cents; readonly point: BalancePoint | null } | undefined;
  /** The last imported statement's closing balance, to say whether the ledger agrees with the bank; null before any. */
  readonly bank: BankBalanceView | null;
  /** The shell's own buttons, after Add Transaction (Add Transfer, with more than one account). */
  readonly extraButtons?: ReactNode;
}

/** Memoized: a filter change or an open dialog re-renders the section, not the balances. */
export const LedgerHeader = memo(function LedgerHeader({
  ledger,
  wholeLedger,
  onNewLedger,
  onExtend,
  onAddTransaction,
  onRefresh,
  onFilter,
  onImport,
  onExport,
  search,
  onSearch,
  below,
  account,
  overLimit,
  bank,
  extraButtons,
}: LedgerHeaderProps) {
  const searchId = useId();
  const headerRef = useRef<HTMLDivElement>(null);
  useHeightAsScrollPadding(headerRef);
  return (
    <div className="ledger-header" ref={headerRef}>
      <dl className="ledger-balances">
        <Balance label="Current Balance" amount={ledger.currentBalance} testId="current-balance" />
        <Balance label="Pending Balance" amount={ledger.pendingBalance} testId="pending-balance" />
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
        {extraButtons}
        <Button variant="outline-secondary" onClick={onRefresh}>
          Refresh
        </Button>
        <Button variant="outline-secondary" onClick={onFilter}>
          Filter
        </Button>
        <Button variant="outline-secondary" onClick={onImport}>
          Import
        </Button>
        <Button variant="outline-secondary" onClick={onExport}>
          Export CSV
        </Button>
      </div>
      <div className="ledger-search">
        <label htmlFor={searchId} className="visually-hidden">
          Search
        </label>
        <input
          id={searchId}
          type="search"
          className="form-control form-control-sm"
          placeholder="Search by name"
          autoComplete="off"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
        />
      </div>
      {/* A status, there before it has words (so they are read out), and out of the layout until then. */}
      <p role="status" className={bank === null ? 'visually-hidden' : 'w-100 mb-0 small fw-semibold'}>
        {bank && wholeLedger && (
          <Suspense fallback={null}>
            <ReconciliationWords ledger={wholeLedger} bank={bank} />
          </Suspense>
        )}
      </p>
      {/* Not a live region: the Summary announces the warning once; here it only stays in view. */}
      {overLimit?.point && account !== undefined ? (
        <OverLimitWarning
          card={account}
          creditLimit={overLimit.creditLimit}
          over={overLimit.point}
          className="ledger-header__warning py-2 mb-0"
        />
      ) : (
        below && <BelowZeroWarning below={below} account={account} className="ledger-header__warning py-2 mb-0" />
      )}
    </div>
  );
});

interface BalanceProps {
  readonly label: string;
  readonly amount: Cents;
  /** For the browser tests, which read the amount alone. */
  readonly testId: string;
}

function Balance({ label, amount, testId }: BalanceProps) {
  const labelId = useId();
  return (
    <div className="ledger-balance">
      <dt id={labelId}>{label}</dt>
      {/* Named by its term, so "Current Balance" finds the amount; negative also shows its minus sign. */}
      <dd aria-labelledby={labelId} data-testid={testId} className={amount < 0 ? 'ledger-negative' : undefined}>
        {formatLedgerMoney(amount)}
      </dd>
    </div>
  );
}

/**
 * Keeps the page's scroll padding at the sticky header's height, so a row focused from below
 * scrolls into view under the header, not behind it. Set on the root element's own style, a
 * property nothing inherits: a custom property there would restyle every element of the page
 * before the ledger's first paint (benchmark 12).
 */
function useHeightAsScrollPadding(headerRef: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const header = headerRef.current;
    if (header === null) return undefined;
    const root = document.documentElement;
    const update = () => {
      root.style.scrollPaddingTop = `calc(${header.getBoundingClientRect().height}px + 0.5rem)`;
    };
    update();
    const resizes = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    resizes?.observe(header);
    return () => {
      resizes?.disconnect();
      root.style.removeProperty('scroll-padding-top');
    };
  }, [headerRef]);
}
