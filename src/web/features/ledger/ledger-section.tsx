/**
 * The Ledger section: a projected check register with its balances, rows that can be paid,
 * cleared and edited, and the dialogs that create the ledger, add rows and filter them.
 */
import './ledger.css';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Button } from '../../components/button.js';
import type { LedgerInfo, LedgerTransaction } from '../../../contract/ledger.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import type { SectionProps } from '../section-props.js';
import { LedgerCompactList } from './rows/ledger-compact-list.js';
import { LedgerHeader } from './ledger-header.js';
import { LedgerTable } from './rows/ledger-table.js';
import { filterByStatus, SHOW_ALL_STATUSES, type StatusFilter } from './filter/status-filter.js';
import { useLatestCallback } from './use-latest-callback.js';
import { useLedgerCall } from './use-ledger-call.js';
import { useRowActions } from './rows/use-row-actions.js';
import { useWideLayout } from './window/use-wide-layout.js';

const NewLedgerDialog = lazyDialog(() => import('./dialogs/new-ledger-dialog.js').then((module) => module.NewLedgerDialog));
const AddTransactionDialog = lazyDialog(() => import('./dialogs/add-transaction-dialog.js').then((module) => module.AddTransactionDialog));
const EditTransactionDialog = lazyDialog(() =>
  import('./dialogs/edit-transaction-dialog.js').then((module) => module.EditTransactionDialog),
);
const FilterDialog = lazyDialog(() => import('./filter/filter-dialog.js').then((module) => module.FilterDialog));

export interface LedgerSectionProps extends SectionProps<LedgerInfo> {
  /** Reloads the ledger from the server (the Refresh button). */
  readonly onRefresh: () => Promise<void>;
}

type OpenDialog = 'newLedger' | 'addTransaction' | 'filter' | null;

/** The row being edited, kept after closing until the dialog has faded out. */
interface Editing {
  readonly transaction: LedgerTransaction;
  readonly isOpen: boolean;
}

const NO_TRANSACTIONS: readonly LedgerTransaction[] = [];
const COUNT_FORMAT = new Intl.NumberFormat('en-US');

export function LedgerSection({ info, onChange, onError, onRefresh }: LedgerSectionProps) {
  const runLedgerCall = useLedgerCall(onChange, onError);
  const isWide = useWideLayout();
  const [openDialog, setOpenDialog] = useState<OpenDialog>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [filter, setFilter] = useState<StatusFilter>(SHOW_ALL_STATUSES);

  const ledger = info?.ledger ?? null;
  const transactions = ledger?.transactions ?? NO_TRANSACTIONS;
  // Showing 1,800 hidden rows again takes a moment: the checkbox answers at once, the rows follow.
  const deferredFilter = useDeferredValue(filter);
  const shownTransactions = useMemo(() => filterByStatus(transactions, deferredFilter), [transactions, deferredFilter]);

  const startEditing = useCallback((transaction: LedgerTransaction) => setEditing({ transaction, isOpen: true }), []);
  const rowActions = useRowActions(runLedgerCall, onError, startEditing);

  const closeDialog = useCallback(() => setOpenDialog(null), []);
  const openNewLedger = useCallback(() => setOpenDialog('newLedger'), []);
  const openAddTransaction = useCallback(() => setOpenDialog('addTransaction'), []);
  const openFilter = useCallback(() => setOpenDialog('filter'), []);
  const refresh = useLatestCallback(() => void onRefresh());
  const newLedgerDialog = (
    <NewLedgerDialog
      show={openDialog === 'newLedger'}
      currentLedger={ledger}
      isLedgerKnown={info !== null}
      runLedgerCall={runLedgerCall}
      onClose={closeDialog}
    />
  );

  if (ledger === null) {
    return (
      <div className="ledger-empty">
        <p className="text-body-secondary">
          {info === null
            ? 'The ledger has not loaded.'
            : 'No ledger yet. Create one to project your balance from your deposits and expenses.'}
        </p>
        <Button variant="primary" onClick={openNewLedger}>
          New Ledger
        </Button>
        {newLedgerDialog}
      </div>
    );
  }

  const isFiltered = shownTransactions.length !== transactions.length;
  return (
    <div className="ledger">
      <LedgerHeader
        ledger={ledger}
        onNewLedger={openNewLedger}
        onAddTransaction={openAddTransaction}
        onRefresh={refresh}
        onFilter={openFilter}
      />
      <p className="ledger-count text-body-secondary small" aria-live="polite">
        {isFiltered
          ? `Showing ${COUNT_FORMAT.format(shownTransactions.length)} of ${COUNT_FORMAT.format(transactions.length)} transactions.`
          : `${COUNT_FORMAT.format(transactions.length)} ${transactions.length === 1 ? 'transaction' : 'transactions'}.`}
      </p>
      {shownTransactions.length === 0 ? (
        <p>{transactions.length === 0 ? 'This ledger has no transactions yet.' : 'No transactions match the filter.'}</p>
      ) : isWide ? (
        <LedgerTable transactions={shownTransactions} actions={rowActions} />
      ) : (
        <LedgerCompactList transactions={shownTransactions} actions={rowActions} />
      )}
      {newLedgerDialog}
      <AddTransactionDialog show={openDialog === 'addTransaction'} ledger={ledger} runLedgerCall={runLedgerCall} onClose={closeDialog} />
      <FilterDialog show={openDialog === 'filter'} filter={filter} onFilterChange={setFilter} onClose={closeDialog} />
      <EditTransactionDialog
        show={editing?.isOpen ?? false}
        transaction={editing?.transaction ?? null}
        ledger={ledger}
        runLedgerCall={runLedgerCall}
        onClose={() => setEditing((current) => (current === null ? null : { ...current, isOpen: false }))}
        onExited={() => setEditing(null)}
      />
    </div>
  );
}
