/**
 * Ledger (`/ledger`, issue 24): the whole register with its balances, search, filter, New Ledger,
 * Extend, Import, Export CSV and every row action. The deposits' and expenses' names come along,
 * so the Edit dialog can say which one a row follows.
 *
 * With more than one account (issue 25, decision 0044) an "Account" select chooses whose ledger
 * is shown, kept in the address (`/ledger?account=<id>`; the primary account when absent). The
 * ledger section is handed that account's api client, so every ledger call goes to its
 * `/api/accounts/{id}/ledger/...` path. The section knows of the other accounts only what a
 * statement import needs to go into one of them (decision 0046); "Add Transfer" stands beside
 * "Add Transaction" (decision 0050).
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { AccountsInfoView } from '../../contract/account-codecs.js';
import type { DepositsInfoView, ExpensesInfoView, LedgerInfoView } from '../../contract/codecs.js';
import type { BankBalanceView } from '../../contract/statement-codecs.js';
import type { LedgerWindowView } from '../../contract/ledger-window-codec.js';
import { type Cents, cents } from '../../domain/money.js';
import type { NewTransfer } from '../../contract/transfers.js';
import { type IsoDate, todayIn } from '../../domain/calendar-date.js';
import { firstOverLimit } from '../../domain/card-payments.js';
import { accountLedgerApi, useAccountsApi } from '../api/account-calls.js';
import type { ApiClient, HeldLedgerInfo } from '../api/api-client.js';
import { firstWindow, firstWindowInHand, heldOf, isLedgerWindow, wholeWhenComplete } from '../api/status-moves.js';
import { ApiClientProvider, useApiClient } from '../api/api-context.js';
import { afterFirstPaint } from '../first-paint.js';
import { useFirstPaintOnceShown } from '../first-paint-once-shown.js';
import { navigate, subscribe } from '../navigation.js';
import { CollapsibleSection } from '../components/collapsible-section.js';
import { AddTransferButton } from '../features/accounts/add-transfer-button.js';
import { LedgerSection, type LedgerStatementAccounts } from '../features/ledger/ledger-section.js';
import type { ScheduleNames } from '../features/ledger/row-source.js';
import { ImportStatementDialog } from '../features/statements/lazy-import-statement-dialog.js';
import type { CardEverydayShares } from '../../domain/card-everyday.js';
import { type LedgerForecast, ledgerForecast } from '../forecast/ledger-forecast.js';
import { useUndone } from '../undo/undo-context.js';
import { useLiveChanges } from '../live/live-context.js';
import { viewCodeArrived } from './view-code-in-hand.js';
import { settledValues, useErrorReport, ViewErrorModal } from './view-errors.js';

/** Names by id (of schedules or accounts), or null while the list has not loaded (its names are unknown, not gone). */
function namesById(named: readonly { readonly id: string; readonly name: string }[] | undefined): ReadonlyMap<string, string> | null {
  return named ? new Map(named.map((one) => [one.id, one.name])) : null;
}

/**
 * A window's pay periods and warning (decision 0053), worked out by the server over every row with
 * the page's today, as ledgerForecast works them out over a whole ledger.
 */
function windowForecast(window: LedgerWindowView): LedgerForecast {
  return { rows: window.transactions, periods: window.payPeriods, lowest: null, firstBelowZero: window.firstBelowZero };
}

/** The account the address names (`?account=<id>`), or null for the primary account. */
function useAddressAccount(): string | null {
  const search = useSyncExternalStore(subscribe, () => window.location.search);
  return new URLSearchParams(search).get('account');
}

/** The address of the Ledger view showing this account's ledger. */
export function ledgerAddress(accountId: string): string {
  return `/ledger?${new URLSearchParams({ account: accountId }).toString()}`;
}

/**
 * The first window, when the first script's calls have it and the accounts in already (decision
 * 0109; LedgerView holds the accounts in hand from its first render): the view then paints once,
 * with them, where it painted its loading state first. Not when the address names an account that
 * is gone: the load then shows the primary account's ledger instead.
 */
function firstWindowShown(
  api: ApiClient,
  accounts: AccountsInfoView | null,
  addressAccount: string | null,
  today: IsoDate,
): HeldLedgerInfo | undefined {
  if (accounts === null) return undefined;
  if (addressAccount !== null && !accounts.accounts.some((account) => account.id === addressAccount)) return undefined;
  const ledger = firstWindowInHand(api, today);
  return ledger && wholeWhenComplete(ledger);
}

/** Everyday spending out of the account and on its cards (issue 36, decision 0101), as a window says; nothing for a whole ledger. */
function everydayOf(
  info: HeldLedgerInfo | undefined,
): { readonly weekly: Cents; readonly card: CardEverydayShares | undefined } | undefined {
  const shown = info === undefined ? null : heldOf(info);
  return shown !== null && isLedgerWindow(shown) ? { weekly: shown.everyday?.weekly ?? cents(0), card: shown.cardEveryday } : undefined;
}

/** A statement imported into another account than the one shown: that account is shown next, with the bank's balance. */
interface ImportedInto {
  readonly accountId: string;
  readonly bank: BankBalanceView | null;
}

export function LedgerView() {
  const addressAccount = useAddressAccount();
  const accountsApi = useAccountsApi();
  // Kept across accounts, so the select stays in place while the next account's ledger loads; in
  // hand from the first script's call when it is in (decision 0109), so the first paint has it.
  const [accounts, setAccounts] = useState<AccountsInfoView | null>(() => accountsApi.accountsInHand() ?? null);
  const [importedInto, setImportedInto] = useState<ImportedInto | null>(null);
  const showImported = useCallback((accountId: string, bank: BankBalanceView | null) => {
    setImportedInto({ accountId, bank });
    navigate(ledgerAddress(accountId));
  }, []);
  // Each account's ledger starts afresh: its own rows, filter and scroll.
  return (
    <AccountLedgerView
      key={addressAccount ?? ''}
      addressAccount={addressAccount}
      accounts={accounts}
      onAccounts={setAccounts}
      bankOnOpen={importedInto !== null && importedInto.accountId === addressAccount ? importedInto.bank : null}
      onImportedElsewhere={showImported}
    />
  );
}

interface AccountLedgerViewProps {
  readonly addressAccount: string | null;
  readonly accounts: AccountsInfoView | null;
  readonly onAccounts: (accounts: AccountsInfoView) => void;
  /** The bank's balance of a statement just imported into this account from another one's view. */
  readonly bankOnOpen: BankBalanceView | null;
  readonly onImportedElsewhere: (accountId: string, bank: BankBalanceView | null) => void;
}

function AccountLedgerView({ addressAccount, accounts, onAccounts, bankOnOpen, onImportedElsewhere }: AccountLedgerViewProps) {
  const baseApi = useApiClient();
  const accountsApi = useAccountsApi();
  const selectId = useId();
  // The address's account, or the primary one through SPEC.md's /api/ledger calls.
  const api = useMemo(() => (addressAccount === null ? baseApi : accountLedgerApi(baseApi, addressAccount)), [baseApi, addressAccount]);
  const several = accounts !== null && accounts.accounts.length > 1;
  const shownAccount = several
    ? (accounts.accounts.find((account) => account.id === addressAccount) ?? accounts.accounts.find((account) => account.primary))
    : undefined;
  // The whole ledger, or its first rows (a window, decision 0053) until something needs the rest.
  /** Today on the page's clock (decision 0034): what is "ahead" in the forecast. */
  const [today, setToday] = useState(() => todayIn(new Date()));
  const [firstInHand] = useState(() => firstWindowShown(api, accounts, addressAccount, today));
  const [ledger, setShownLedger] = useState<HeldLedgerInfo | null>(firstInHand ?? null);
  /** Moves on with every ledger shown: a whole ledger asked for before a write must not land after it. */
  const shownCount = useRef(firstInHand ? 1 : 0);
  const setLedger = useCallback((info: HeldLedgerInfo) => {
    shownCount.current += 1;
    setShownLedger(info);
  }, []);
  /** Everyday spending out of this account (issue 36), as the last window said: a whole ledger's warning counts it too. */
  const [everydayWeekly, setEverydayWeekly] = useState(() => everydayOf(firstInHand)?.weekly ?? cents(0));
  /** Everyday spending's share of a card's payments in this account (decision 0101), as the last window said. */
  const [cardEveryday, setCardEveryday] = useState(() => everydayOf(firstInHand)?.card);
  const noteEveryday = useCallback((info: HeldLedgerInfo) => {
    const everyday = everydayOf(info);
    if (everyday !== undefined) {
      setEverydayWeekly(everyday.weekly);
      setCardEveryday(everyday.card);
    }
  }, []);
  const [deposits, setDeposits] = useState<DepositsInfoView | null>(null);
  const [expenses, setExpenses] = useState<ExpensesInfoView | null>(null);
  /** The first window (or its failure) is in the view's state: in hand from the start, or once loaded. */
  const [firstShown, setFirstShown] = useState(firstInHand !== undefined);
  useFirstPaintOnceShown(firstShown);
  const { report, showErrors, showError, clear } = useErrorReport();

  // The schedules' names are only for the Edit dialog: read once the ledger has painted, with no
  // spinner over the rows the user may already be tapping (decision 0120).
  const loadNames = useCallback(
    async (failed: unknown[]) => {
      await new Promise<void>((resolve) => afterFirstPaint(resolve));
      const quietly = api.inBackground();
      const [depositsInfo, expensesInfo] = settledValues<[DepositsInfoView, ExpensesInfoView]>(
        await Promise.allSettled([quietly.getDeposits(), quietly.getExpenses()]),
        failed,
      );
      if (depositsInfo) setDeposits(depositsInfo);
      if (expensesInfo) setExpenses(expensesInfo);
      showErrors(failed);
    },
    [api, showErrors],
  );

  const load = useCallback(async () => {
    const now = todayIn(new Date());
    setToday(now);
    const failed: unknown[] = [];
    // What the first paint needs (decision 0073): the window, which carries the warning, and the
    // accounts. main.tsx sent both with the first script; the client takes those answers.
    const [ledgerInfo, accountsInfo] = settledValues<[HeldLedgerInfo, AccountsInfoView]>(
      await Promise.allSettled([api.getLedger(firstWindow(api, now)), accountsApi.listAccounts()]),
      failed,
    );
    if (accountsInfo) onAccounts(accountsInfo);
    // An address naming an account that is gone (deleted since) shows the primary account's ledger instead.
    if (addressAccount !== null && accountsInfo && !accountsInfo.accounts.some((account) => account.id === addressAccount)) {
      navigate('/ledger', { replace: true });
      return;
    }
    if (ledgerInfo) {
      noteEveryday(ledgerInfo);
      setLedger(wholeWhenComplete(ledgerInfo));
    }
    setFirstShown(true);
    await loadNames(failed);
  }, [api, accountsApi, addressAccount, onAccounts, setLedger, noteEveryday, loadNames]);

  const held = ledger === null ? null : heldOf(ledger);
  const showsWindow = held !== null && isLedgerWindow(held);

  // Refresh reads what is shown again: the window, or the whole ledger.
  const refreshLedger = useCallback(async () => {
    const now = todayIn(new Date());
    setToday(now);
    try {
      if (showsWindow) {
        const info = await api.getLedger(firstWindow(api, now));
        noteEveryday(info);
        setLedger(wholeWhenComplete(info));
      } else setLedger(await api.getLedger());
    } catch (error) {
      showError(error);
    }
  }, [api, showError, setLedger, showsWindow, noteEveryday]);

  // The rest of the ledger, once the section needs it (decision 0053): asked once at a time, and
  // asked again should a write's answer be shown meanwhile, so it never shows a ledger from before it.
  const askingWhole = useRef(false);
  const loadWhole = useCallback(async () => {
    if (askingWhole.current) return;
    askingWhole.current = true;
    try {
      // A user paying row after row holds it back a few times at most; then the next write's changes
      // (based on another version) reload it anyway.
      for (let tries = 1; ; tries += 1) {
        const before = shownCount.current;
        const whole = await api.getLedger();
        if (shownCount.current !== before && tries < 5) continue;
        setLedger(whole);
        return;
      }
    } catch (error) {
      showError(error);
    } finally {
      askingWhole.current = false;
    }
  }, [api, showError, setLedger]);

  // An undone write answers the ledger: it replaces the one shown, which keeps its scroll and filter.
  // An undone deposit or expense change re-projected the ledger on the server: read it again.
  // With several accounts the undone ledger may be another account's (the answer does not say whose):
  // the shown one is read again instead.
  useUndone((answer) => {
    if ('ledger' in answer && !several) setLedger(answer);
    else void refreshLedger();
  });

  useEffect(() => {
    // Painted with its first answers already: they were the load's, so only the names are left to read.
    void (firstInHand ? loadNames([]) : load());
  }, [load, loadNames, firstInHand]);
  // Another member's change (decision 0096): read what is shown again, as Refresh does.
  useLiveChanges(() => void refreshLedger());

  // Where a statement may go instead (decision 0046): any account, through its own ledger calls.
  const statementAccounts = useMemo<LedgerStatementAccounts | undefined>(
    () =>
      several && shownAccount
        ? {
            choices: accounts.accounts.map(({ id, name }) => ({ id, name })),
            shownId: shownAccount.id,
            clientOf: (accountId) => accountLedgerApi(baseApi, accountId),
            onImportedElsewhere,
          }
        : undefined,
    [several, shownAccount, accounts, baseApi, onImportedElsewhere],
  );

  // A transfer answers From's ledger: shown at once when From is shown; To's is read again (decision 0043).
  const shownId = shownAccount?.id;
  const transferAdded = useCallback(
    (transfer: NewTransfer, fromLedger: LedgerInfoView) => {
      if (transfer.fromAccountId === shownId) setLedger(fromLedger);
      else if (transfer.toAccountId === shownId) void refreshLedger();
    },
    [shownId, refreshLedger, setLedger],
  );
  // Memoized: the ledger's header is, and re-renders only when what it shows changes.
  const transferButton = useMemo(
    () =>
      several && shownId !== undefined ? (
        <AddTransferButton accounts={accounts.accounts} fromAccountId={shownId} onAdded={transferAdded} onError={showError} />
      ) : undefined,
    [several, accounts, shownId, transferAdded, showError],
  );

  const forecast = useMemo(() => {
    if (held === null) return null;
    const found = isLedgerWindow(held) ? windowForecast(held) : ledgerForecast(held, today, everydayWeekly, cardEveryday);
    if (!shownAccount) return found;
    // With several accounts the warning names the account; a card warns of its limit, never of $0 (decision 0045).
    const { name, card } = shownAccount;
    if (card === null) return { ...found, account: name };
    const { creditLimit } = card;
    // A card's limit is judged over its rows ahead: a window has not all of them (see the effect below).
    const overLimit =
      creditLimit === null || isLedgerWindow(held) ? undefined : { creditLimit, point: firstOverLimit(found.rows, today, creditLimit) };
    return { ...found, account: name, firstBelowZero: null, overLimit };
  }, [held, today, shownAccount, everydayWeekly, cardEveryday]);
  // A card with a limit is read whole (decision 0053's window holds the first rows only), so its warning is never missed.
  const cardNeedsWhole = showsWindow && shownAccount?.card != null && shownAccount.card.creditLimit !== null;
  useEffect(() => {
    if (cardNeedsWhole) void loadWhole();
  }, [cardNeedsWhole, loadWhole]);
  const scheduleNames = useMemo<ScheduleNames>(
    () => ({ deposit: namesById(deposits?.deposits), expense: namesById(expenses?.expenses), accounts: namesById(accounts?.accounts) }),
    [deposits, expenses, accounts],
  );

  return (
    <>
      {several && shownAccount && (
        <div className="d-flex align-items-center gap-2 mb-3">
          <label htmlFor={selectId} className="form-label mb-0">
            Account
          </label>
          <select
            id={selectId}
            className="form-select w-auto"
            value={shownAccount.id}
            onChange={(event) => navigate(ledgerAddress(event.target.value))}
          >
            {accounts.accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {account.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="accordion dashboard">
        <CollapsibleSection title="Ledger">
          <ApiClientProvider client={api}>
            <LedgerSection
              info={ledger}
              onChange={setLedger}
              onError={showError}
              onRefresh={refreshLedger}
              scheduleNames={scheduleNames}
              forecast={forecast}
              importStatementDialog={ImportStatementDialog}
              statementAccounts={statementAccounts}
              bankOnOpen={bankOnOpen}
              headerButtons={transferButton}
              onWholeNeeded={showsWindow ? loadWhole : undefined}
            />
          </ApiClientProvider>
        </CollapsibleSection>
      </div>
      <ViewErrorModal report={report} onClose={clear} onRetry={() => void load()} />
    </>
  );
}

// Said once the module is evaluated: run by the document, the view renders without an import (decision 0127).
viewCodeArrived('ledger', LedgerView);
