/**
 * The Ledger section: a projected check register with its balances, rows that can be paid,
 * cleared, edited and deleted, and the dialogs that create and extend the ledger, add rows and
 * filter them. The section makes every call; the dialogs only hand it what the user asked for.
 */
import './ledger.css';
import { type ComponentType, type ReactNode, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { encodeLedgerTransaction, type LedgerTransactionView, type LedgerView } from '../../../contract/codecs.js';
import type { BankBalanceView } from '../../../contract/statement-codecs.js';
import type { CreateLedgerRequest, ExtendLedgerRequest, NewTransaction, TransactionUpdate } from '../../../contract/ledger-requests.js';
import type { StatementImportRequest, StatementPreviewRequest } from '../../../contract/statement-requests.js';
import { ledgerCsvFileName } from '../../../contract/ledger-csv.js';
import type { ApiClient, HeldLedgerInfo } from '../../api/api-client.js';
import { useApiClient } from '../../api/api-context.js';
import { heldOf, isLedgerWindow } from '../../api/status-moves.js';
import { useSectionAsk, useSectionCall } from '../../api/use-section-call.js';
import { Button } from '../../components/button.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import { loadAlongside } from '../../components/load-alongside.js';
import { VIEW_PATHS } from '../../views/view-nav.js';
import { saveDownload } from '../../components/save-download.js';
import { useDialogState } from '../../components/use-dialog-state.js';
import { useDeletionDialog } from '../../components/use-edit-delete-dialogs.js';
import { useLatestCallback } from '../../components/use-latest-callback.js';
import type { LedgerForecast } from '../../forecast/ledger-forecast.js';
import type { ImportStatementDialogProps, SectionProps, StatementAccounts } from '../section-props.js';
import { filterByName } from './filter/name-search.js';
import { filterByStatus, SHOW_ALL_STATUSES, showsEveryStatus, type StatusFilter } from './filter/status-filter.js';
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
const LedgerRows = loadAlongside(() => import('./rows/ledger-rows.js').then((module) => module.LedgerRows), null, VIEW_PATHS.ledger);
const FilterDialog = lazyDialog(() => import('./filter/filter-dialog.js').then((module) => module.FilterDialog));
const ConfirmDeleteDialog = lazyDialog(() =>
  import('../../components/confirm-delete-dialog.js').then((module) => module.ConfirmDeleteDialog),
);

/**
 * `Info`: what the shell hands over. The Ledger view hands the whole ledger or a window of it
 * (HeldLedgerInfo); a shell that only ever hands whole ledgers (LedgerInfoView) is only ever handed
 * whole ledgers back, since a write of a whole ledger answers the whole ledger.
 */
export interface LedgerSectionProps<Info extends HeldLedgerInfo = HeldLedgerInfo> extends SectionProps<Info> {
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
  /**
   * While `info` is a window of the ledger (decision 0053): asks the shell for the whole of it, which
   * then arrives as `info`. Asked when the user scrolls past the window's rows, searches or filters,
   * or opens a dialog that reads every row (New Ledger's warning, Import's matching, the bank's words).
   */
  readonly onWholeNeeded?: () => void;
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

/** A dialog that reads every row: while a window is shown, it opens once the whole ledger is here. */
type WholeLedgerDialog = 'create' | 'import';

const NO_TRANSACTIONS: readonly LedgerTransactionView[] = [];
const NO_PERIODS: LedgerForecast['periods'] = [];
const COUNT_FORMAT = new Intl.NumberFormat('en-US');

export function LedgerSection<Info extends HeldLedgerInfo>({
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
  onWholeNeeded,
}: LedgerSectionProps<Info>) {
  const api = useApiClient();
  // Every answer is of the kind handed over (see LedgerSectionProps), so the shell's own type holds.
  const writes = useHeldLedger(info, onChange as (answer: HeldLedgerInfo) => void, onError);
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
  const { deletion: deleting, confirmDelete: confirmDeleteRow } = useDeletionDialog<LedgerTransactionView, HeldLedgerInfo>(
    (id, name) => api.deleteTransaction(id, heldLedger, name),
    run,
  );
  const [filter, setFilter] = useState<StatusFilter>(SHOW_ALL_STATUSES);
  const [search, setSearch] = useState('');

  // The whole ledger, or a window of it (decision 0053): its first rows with the balances, the count
  // and the pay period lines among them. What needs every row asks the shell for the rest.
  const ledger = info === null ? null : heldOf(info);
  const ledgerWindow = ledger !== null && isLedgerWindow(ledger) ? ledger : null;
  const wholeLedger: LedgerView | null = ledgerWindow === null ? ledger : null;
  const transactions = ledger?.transactions ?? NO_TRANSACTIONS;
  const rowCount = ledgerWindow?.count ?? transactions.length;
  const [waitingDialog, setWaitingDialog] = useState<WholeLedgerDialog | null>(null);
  /** What only the whole ledger can show: a search, a filter, the bank's words, or a dialog waiting for it. */
  const needsWhole =
    ledgerWindow !== null && (search.trim() !== '' || !showsEveryStatus(filter) || bank !== null || waitingDialog !== null);
  // Asked again for each window handed over while it is still needed (a RETRY after a failed load).
  useEffect(() => {
    if (needsWhole) onWholeNeeded?.();
  }, [needsWhole, onWholeNeeded, ledgerWindow]);
  // Showing 1,800 hidden rows again takes a moment: the checkbox and the field answer at once, the rows follow.
  const deferredFilter = useDeferredValue(filter);
  const deferredSearch = useDeferredValue(search);
  const shownTransactions = useMemo(
    () => (ledgerWindow !== null ? transactions : filterByName(filterByStatus(transactions, deferredFilter), deferredSearch)),
    [ledgerWindow, transactions, deferredFilter, deferredSearch],
  );
  const periods = forecast?.periods ?? NO_PERIODS;

  // A dialog that reads every row, asked for while a window is shown, opens once the whole ledger is here.
  useEffect(() => {
    if (waitingDialog === null || wholeLedger === null) return;
    setWaitingDialog(null);
    (waitingDialog === 'create' ? creating : importing).show(null);
  }, [waitingDialog, wholeLedger, creating, importing]);

  // Stable, so the memoized header is not rendered again when a dialog opens.
  const openNewLedger = useLatestCallback(() => (ledgerWindow === null ? creating.show(null) : setWaitingDialog('create')));
  const openExtend = useLatestCallback(() => extending.show(null));
  const openAddTransaction = useLatestCallback(() => adding.show(null));
  const openFilter = useLatestCallback(() => filtering.show(null));
  const openImport = useLatestCallback(() => (ledgerWindow === null ? importing.show(null) : setWaitingDialog('import')));
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
  // The whole ledger (never a window): matching reads every row.
  const readAccountLedger = (accountId: string) => ask(async () => (await (elsewhere(accountId) ?? api).getLedger()).ledger ?? null);
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
      currentLedger={wholeLedger}
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
  /** A search or filter over a window waits for the whole ledger before it shows anything. */
  const searchingWindow = ledgerWindow !== null && needsWhole && waitingDialog === null && bank === null;
  return (
    <div className="ledger">
      <LedgerHeader
        ledger={ledger}
        wholeLedger={wholeLedger}
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
        {searchingWindow
          ? `Loading all ${COUNT_FORMAT.format(rowCount)} transactions to search them...`
          : isFiltered
            ? `Showing ${COUNT_FORMAT.format(shownTransactions.length)} of ${COUNT_FORMAT.format(transactions.length)} transactions.`
            : `${COUNT_FORMAT.format(rowCount)} ${rowCount === 1 ? 'transaction' : 'transactions'}.`}
      </p>
      {searchingWindow ? null : shownTransactions.length === 0 ? (
        <p>{rowCount === 0 ? 'This ledger has no transactions yet.' : 'No transactions match the filter.'}</p>
      ) : (
        <LedgerRows
          shown={shownTransactions}
          periods={periods}
          everyRowShown={shownTransactions === transactions}
          isWide={isWide}
          writes={writes}
          onEdit={editing.show}
          onDelete={deleting.show}
          // A window's items stand for the whole ledger's: every row and every pay period's line.
          {...(ledgerWindow !== null && { itemCount: ledgerWindow.count + ledgerWindow.payPeriodCount, onPastLoaded: onWholeNeeded })}
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
      {wholeLedger !== null && (
        <ImportStatementDialog
          key={`import-${importing.session}`}
          show={importing.open}
          ledger={wholeLedger}
          {...(statementAccounts && { accounts: statementAccounts, onReadLedger: readAccountLedger })}
          onPreview={previewStatement}
          onImport={importStatement}
          onClose={importing.close}
        />
      )}
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
        // Deleting a side of a transfer deletes its other side too (decision 0043): said before it is done.
        what={deleting.target?.transfer ? 'both sides of the transfer' : 'the transaction'}
        name={deleting.target?.name ?? ''}
        onConfirm={confirmDeleteRow}
        onClose={deleting.close}
      />
    </div>
  );
}
