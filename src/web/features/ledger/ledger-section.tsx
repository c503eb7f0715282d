/**
 * The Ledger section: a projected check register with its balances, rows that can be paid,
 * cleared, edited and deleted, and the dialogs that create and extend the ledger, add rows and
 * filter them. The section makes every call; the dialogs only hand it what the user asked for.
 */
import './ledger.css';
import { type ComponentType, type ReactNode, useDeferredValue, useMemo, useState } from 'react';
import {
  type BankBalanceView,
  encodeLedgerTransaction,
  type LedgerInfoView,
  type LedgerTransactionView,
} from '../../../contract/codecs.js';
import type { CreateLedgerRequest, ExtendLedgerRequest, NewTransaction, TransactionUpdate } from '../../../contract/ledger-requests.js';
import type { StatementImportRequest, StatementPreviewRequest } from '../../../contract/statement-requests.js';
import { ledgerCsvFileName } from '../../../contract/account.js';
import type { ApiClient } from '../../api/api-client.js';
import { useApiClient } from '../../api/api-context.js';
import { useSectionAsk, useSectionCall } from '../../api/use-section-call.js';
import { Button } from '../../components/button.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import { loadAlongside } from '../../components/load-alongside.js';
import { saveDownload } from '../../components/save-download.js';
import { useDialogState } from '../../components/use-dialog-state.js';
import { useDeletionDialog } from '../../components/use-edit-delete-dialogs.js';
import { useLatestCallback } from '../../components/use-latest-callback.js';
import type { LedgerForecast } from '../../forecast/ledger-forecast.js';
import type { ImportStatementDialogProps, SectionProps, StatementAccounts } from '../section-props.js';
import { filterByName } from './filter/name-search.js';
import { filterByStatus, SHOW_ALL_STATUSES, type StatusFilter } from './filter/status-filter.js';
import { LedgerHeader } from './ledger-header.js';
import type { ScheduleNames } from './row-source.js';
import { useHeldLedger } from './use-held-ledger.js';
import { useWideLayout } from './window/use-wide-layout.js';

const NewLedgerDialog = lazyDialog(() => import('./dialogs/new-ledger-dialog.js').then((module) => module.NewLedgerDialog));
const ExtendLedgerDialog = lazyDialog(() => import('./dialogs/extend-ledger-dialog.js').then((module) => module.ExtendLedgerDialog));
const AddTransactionDialog = lazyDialog(() => import('./dialogs/add-transaction-dialog.js').then((module) => module.AddTransactionDialog));
const EditTransactionDialog = lazyDialog(() =>
  import('./dialogs/edit-transaction-dialog.js').then((module) => module.EditTransactionDialog),
);
// The rows show only once the ledger has arrived: their code loads alongside its request.
const LedgerRows = loadAlongside(() => import('./rows/ledger-rows.js').then((module) => module.LedgerRows));
const FilterDialog = lazyDialog(() => import('./filter/filter-dialog.js').then((module) => module.FilterDialog));
const ConfirmDeleteDialog = lazyDialog(() =>
  import('../../components/confirm-delete-dialog.js').then((module) => module.ConfirmDeleteDialog),
);

export interface LedgerSectionProps extends SectionProps<LedgerInfoView> {
  /** Reloads the ledger from the server (the Refresh button). */
  readonly onRefresh: () => Promise<void>;
  /** The deposits' and expenses' names, so the Edit dialog can say which one a row comes from. */
  readonly scheduleNames: ScheduleNames;
  /** The pay periods and the warning before zero, computed from `info` by the shell; null without a ledger. */
  readonly forecast: LedgerForecast | null;
  /** The statements feature's Import Statement dialog, handed over by the shell (features never import each other). */
  readonly importStatementDialog: ComponentType<ImportStatementDialogProps>;
  /** With more than one account: the other accounts a statement may go into (decision 0046). */
  readonly statementAccounts?: LedgerStatementAccounts;
  /** The bank's balance of a statement just imported into this ledger from another account's view. */
  readonly bankOnOpen?: BankBalanceView | null;
  /** Beside Add Transaction in the header (the shell's Add Transfer, with more than one account). */
  readonly headerButtons?: ReactNode;
}

/** Where a statement may go besides the ledger shown, and what the shell does once it went elsewhere. */
export interface LedgerStatementAccounts extends StatementAccounts {
  /** Another account's ledger calls. */
  readonly clientOf: (accountId: string) => ApiClient;
  /** The statement went into another account: the shell shows that account's ledger. */
  readonly onImportedElsewhere: (accountId: string, bank: BankBalanceView | null) => void;
}

interface ImportedElsewhere {
  readonly accountId: string;
  readonly bank: BankBalanceView | null;
}

const NO_TRANSACTIONS: readonly LedgerTransactionView[] = [];
const NO_PERIODS: LedgerForecast['periods'] = [];
const COUNT_FORMAT = new Intl.NumberFormat('en-US');

export function LedgerSection({
  info,
  onChange,
  onError,
  onRefresh,
  scheduleNames,
  forecast,
  importStatementDialog: ImportStatementDialog,
  statementAccounts,
  bankOnOpen = null,
  headerButtons,
}: LedgerSectionProps) {
  const api = useApiClient();
  const writes = useHeldLedger(info, onChange, onError);
  const { run, heldLedger } = writes;
  const isWide = useWideLayout();
  const creating = useDialogState<null>(null);
  const extending = useDialogState<null>(null);
  const adding = useDialogState<null>(null);
  const filtering = useDialogState<null>(null);
  const importing = useDialogState<null>(null);
  const ask = useSectionAsk(onError);
  /** The last imported statement's closing balance: the header reconciles with it until the ledger is replaced. */
  const [bank, setBank] = useState<BankBalanceView | null>(bankOnOpen);
  /** The row being edited, kept after closing while the dialog fades out. */
  const editing = useDialogState<LedgerTransactionView | null>(null);
  /** The row whose Delete button asks for confirmation. */
  const { deletion: deleting, confirmDelete: confirmDeleteRow } = useDeletionDialog<LedgerTransactionView, LedgerInfoView>(
    (id, name) => api.deleteTransaction(id, heldLedger, name),
    run,
  );
  const [filter, setFilter] = useState<StatusFilter>(SHOW_ALL_STATUSES);
  const [search, setSearch] = useState('');

  const ledger = info?.ledger ?? null;
  const transactions = ledger?.transactions ?? NO_TRANSACTIONS;
  // Showing 1,800 hidden rows again takes a moment: the checkbox and the field answer at once, the rows follow.
  const deferredFilter = useDeferredValue(filter);
  const deferredSearch = useDeferredValue(search);
  const shownTransactions = useMemo(
    () => filterByName(filterByStatus(transactions, deferredFilter), deferredSearch),
    [transactions, deferredFilter, deferredSearch],
  );
  const periods = forecast?.periods ?? NO_PERIODS;

  // Stable, so the memoized header is not rendered again when a dialog opens.
  const openNewLedger = useLatestCallback(() => creating.show(null));
  const openExtend = useLatestCallback(() => extending.show(null));
  const openAddTransaction = useLatestCallback(() => adding.show(null));
  const openFilter = useLatestCallback(() => filtering.show(null));
  const openImport = useLatestCallback(() => importing.show(null));
  // A download, not a change: a failure goes to the shell's "Whoops!", the ledger stays as it is.
  const exportCsv = useLatestCallback(() => {
    if (ledger === null) return;
    api.exportLedgerCsv().then((csv) => saveDownload(csv, ledgerCsvFileName(ledger.startDate, ledger.endDate)), onError);
  });
  const refresh = useLatestCallback(() => void onRefresh());

  // Each dialog hands over what the user asked for; the call runs here, and the dialog closes once it worked.
  const createLedger = (request: CreateLedgerRequest) =>
    creating.closeAfter(
      run(async () => {
        const answer = await api.createLedger(request);
        setBank(null);
        return answer;
      }),
    );
  const extendLedger = (request: ExtendLedgerRequest) => extending.closeAfter(run(() => api.extendLedger(request)));
  const extendInstead = () => {
    creating.close();
    extending.show(null);
  };
  const addTransaction = (transaction: NewTransaction) => adding.closeAfter(run(() => api.addTransaction(transaction, heldLedger)));
  const saveTransaction = (update: TransactionUpdate) => editing.closeAfter(run(() => api.updateTransaction(update, heldLedger)));
  const deleteTransaction = (id: string, name: string) => editing.closeAfter(run(() => api.deleteTransaction(id, heldLedger, name)));
  // A statement may go into another account than the one shown (decision 0046): its calls go to that account's client.
  const elsewhere = (accountId: string | undefined): ApiClient | null =>
    statementAccounts && accountId !== undefined && accountId !== statementAccounts.shownId ? statementAccounts.clientOf(accountId) : null;
  const importedElsewhere = useSectionCall<ImportedElsewhere>(
    (imported) => statementAccounts?.onImportedElsewhere(imported.accountId, imported.bank),
    onError,
  );
  const previewStatement = (request: StatementPreviewRequest, accountId?: string) =>
    ask(() => (elsewhere(accountId) ?? api).previewStatement(request));
  const readAccountLedger = (accountId: string) => ask(async () => (await (elsewhere(accountId) ?? api).getLedger()).ledger);
  const importStatement = (request: StatementImportRequest, accountId?: string) => {
    const other = elsewhere(accountId);
    if (other !== null && accountId !== undefined) {
      return importing.closeAfter(importedElsewhere(async () => ({ accountId, bank: (await other.importStatement(request)).bank })));
    }
    return importing.closeAfter(
      run(async () => {
        const answer = await api.importStatement(request);
        // A statement without a closing balance leaves the last one that had it.
        if (answer.bank !== null) setBank(answer.bank);
        return { ledger: answer.ledger };
      }),
    );
  };

  const newLedgerDialog = (
    <NewLedgerDialog
      key={`new-ledger-${creating.session}`}
      show={creating.open}
      currentLedger={ledger}
      isLedgerKnown={info !== null}
      onSave={createLedger}
      onExtendInstead={extendInstead}
      onClose={creating.close}
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
  const edited = editing.target;
  return (
    <div className="ledger">
      <LedgerHeader
        ledger={ledger}
        onNewLedger={openNewLedger}
        onExtend={openExtend}
        onAddTransaction={openAddTransaction}
        onRefresh={refresh}
        onFilter={openFilter}
        onImport={openImport}
        onExport={exportCsv}
        search={search}
        onSearch={setSearch}
        below={forecast?.firstBelowZero ?? null}
        account={forecast?.account}
        overLimit={forecast?.overLimit}
        bank={bank}
        extraButtons={headerButtons}
      />
      <p className="ledger-count text-body-secondary small" aria-live="polite">
        {isFiltered
          ? `Showing ${COUNT_FORMAT.format(shownTransactions.length)} of ${COUNT_FORMAT.format(transactions.length)} transactions.`
          : `${COUNT_FORMAT.format(transactions.length)} ${transactions.length === 1 ? 'transaction' : 'transactions'}.`}
      </p>
      {shownTransactions.length === 0 ? (
        <p>{transactions.length === 0 ? 'This ledger has no transactions yet.' : 'No transactions match the filter.'}</p>
      ) : (
        <LedgerRows
          shown={shownTransactions}
          periods={periods}
          everyRowShown={shownTransactions === transactions}
          isWide={isWide}
          writes={writes}
          onEdit={editing.show}
          onDelete={deleting.show}
        />
      )}
      {newLedgerDialog}
      <ExtendLedgerDialog
        key={`extend-${extending.session}`}
        show={extending.open}
        ledger={ledger}
        onSave={extendLedger}
        onClose={extending.close}
      />
      <AddTransactionDialog
        key={`add-${adding.session}`}
        show={adding.open}
        ledger={ledger}
        onSave={addTransaction}
        onClose={adding.close}
      />
      <FilterDialog show={filtering.open} filter={filter} onFilterChange={setFilter} onClose={filtering.close} />
      <ImportStatementDialog
        key={`import-${importing.session}`}
        show={importing.open}
        ledger={ledger}
        {...(statementAccounts && { accounts: statementAccounts, onReadLedger: readAccountLedger })}
        onPreview={previewStatement}
        onImport={importStatement}
        onClose={importing.close}
      />
      {edited === null ? null : (
        <EditTransactionDialog
          key={`edit-${editing.session}`}
          show={editing.open}
          // The form edits the row as the wire carries it, and sends the whole of it back (decision 0034).
          transaction={encodeLedgerTransaction(edited)}
          ledger={ledger}
          scheduleNames={scheduleNames}
          onSave={saveTransaction}
          onDelete={() => deleteTransaction(edited.id, edited.name)}
          onClose={editing.close}
        />
      )}
      <ConfirmDeleteDialog
        key={`delete-${deleting.session}`}
        show={deleting.open}
        title="Delete Transaction"
        what="the transaction"
        name={deleting.target?.name ?? ''}
        onConfirm={confirmDeleteRow}
        onClose={deleting.close}
      />
    </div>
  );
}
