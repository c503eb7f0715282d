/**
 * Home (`/`, issue 24): the answer first. The monthly left-over sentence, the lowest balance ahead,
 * the warning before $0, the current pay period's line, the balance forecast chart, and the rows of
 * the next 14 days with their Pay and Clear buttons, plus Add Transaction. It paints from the
 * forecast answer (the next 14 days' rows and the chart's points), never the whole ledger. With
 * more than one account, the Summary lists each one's current balance (issue 25). A user
 * with no deposits or expenses is guided to Plan; one without a ledger to New Ledger.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  encodeCents,
  type DepositsInfoView,
  type ExpensesInfoView,
  type ForecastView,
  type LedgerTransactionView,
} from '../../contract/codecs.js';
import type { LedgerChangesView } from '../../contract/ledger-changes-codec.js';
import type { CreateLedgerRequest, NewTransaction } from '../../contract/ledger-requests.js';
import type { TransactionStatus } from '../../domain/ledger.js';
import { type Cents, cents, formatUsd } from '../../domain/money.js';
import type { AccountView } from '../../contract/account-codecs.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { ApiCallError } from '../api/api-client.js';
import { useApiClient } from '../api/api-context.js';
import { Button } from '../components/button.js';
import { CollapsibleSection } from '../components/collapsible-section.js';
import { lazyDialog } from '../components/lazy-dialog.js';
import { loadAlongside } from '../components/load-alongside.js';
import { useDialogState } from '../components/use-dialog-state.js';
import { markFirstPaint } from '../first-paint.js';
import { useFirstPaintOnceShown } from '../first-paint-once-shown.js';
import { addressInBudget } from '../navigation.js';
import { payPeriodText } from '../forecast/pay-period-text.js';
import { SafeToSpendLine } from '../forecast/safe-to-spend-line.js';
import { type SummaryForecast, SummarySection } from '../features/summary/summary-section.js';
import { useUndone } from '../undo/undo-context.js';
import { useLiveChanges } from '../live/live-context.js';
import { UpcomingRows } from './upcoming-rows.js';
import { settledValues, useErrorReport, ViewErrorModal } from './view-errors.js';
import { followInPage, VIEW_PATHS } from './view-nav.js';

const NewLedgerDialog = lazyDialog(() =>
  import('../features/ledger/dialogs/new-ledger-dialog.js').then((module) => module.NewLedgerDialog),
);
const AddTransactionDialog = lazyDialog(() =>
  import('../features/ledger/dialogs/add-transaction-dialog.js').then((module) => module.AddTransactionDialog),
);
// Every account's balance (issue 25), with the accounts' calls: loaded alongside Home's requests, so
// the first view's script does not carry them (benchmark 4a).
// Can I afford it? (issue 36): its form and the what-if's answer schema stay out of the first view's script.
const CanIAffordIt = loadAlongside(
  () => import('../features/what-if/can-i-afford-it.js').then((module) => module.CanIAffordIt),
  null,
  VIEW_PATHS.home,
);
const AccountBalances = loadAlongside(
  () => import('../features/accounts/account-balances.js').then((module) => module.AccountBalances),
  null,
  VIEW_PATHS.home,
);

/** The Summary's total while a list has not loaded. */
const NOTHING = cents(0);

/** Home's forecast: undefined while loading (or when it failed), null without a ledger. */
type HomeForecast = ForecastView | null | undefined;

/** The rows with one row's status moved (a tap painted at once, or put back after a refusal). */
function withStatus(forecast: HomeForecast, id: string, status: TransactionStatus): HomeForecast {
  if (!forecast) return forecast;
  return { ...forecast, upcoming: forecast.upcoming.map((row) => (row.id === id ? { ...row, status } : row)) };
}

/** The rows the server changed, as it answered them, and its balances. */
function withChanges(forecast: HomeForecast, changes: LedgerChangesView): HomeForecast {
  if (!forecast) return forecast;
  const changed = new Map(changes.rows.map((row) => [row.id, row]));
  return {
    ...forecast,
    currentBalance: changes.currentBalance,
    pendingBalance: changes.pendingBalance,
    // The answered row whole: its transfer link too (its position in the ledger is not used here).
    upcoming: forecast.upcoming.map((row) => changed.get(row.id) ?? row),
  };
}

export function HomeView() {
  const api = useApiClient();
  const [deposits, setDeposits] = useState<DepositsInfoView | null>(null);
  const [expenses, setExpenses] = useState<ExpensesInfoView | null>(null);
  const [forecast, setForecast] = useState<HomeForecast>(undefined);
  const [reads, setReads] = useState(0);
  /** The first read is shown with no chart to draw (no ledger yet, or the forecast failed): that is Home's paint. */
  const [shownWithoutChart, setShownWithoutChart] = useState(false);
  useFirstPaintOnceShown(shownWithoutChart);
  /** "Can I afford it?"'s purchase out of the primary account, drawn dashed on the chart (issue 36); null when none is shown. */
  /** Every account, as the balances' list read them: Can I afford it?'s Account field offers them. */
  const [accounts, setAccounts] = useState<readonly AccountView[]>([]);
  const [whatIf, setWhatIf] = useState<readonly { readonly date: IsoDate; readonly amount: Cents }[] | null>(null);
  const { report, showErrors, showError, clear } = useErrorReport();
  const creating = useDialogState<null>(null);
  const adding = useDialogState<null>(null);
  // Rows whose status move is on its way: a second tap must not send it twice.
  const moving = useRef(new Set<string>());

  /** The forecast, or null when the server says there is no ledger (404). */
  const readForecast = useCallback(async (): Promise<ForecastView | null> => {
    try {
      return await api.getForecast();
    } catch (error) {
      if (error instanceof ApiCallError && error.status === 404) return null;
      throw error;
    }
  }, [api]);

  const load = useCallback(async () => {
    setReads((count) => count + 1);
    const failed: unknown[] = [];
    const [depositsResult, expensesResult, forecastResult] = await Promise.allSettled([
      api.getDeposits(),
      api.getExpenses(),
      readForecast(),
    ]);
    const [depositsInfo, expensesInfo] = settledValues<[DepositsInfoView, ExpensesInfoView]>([depositsResult, expensesResult], failed);
    if (depositsInfo) setDeposits(depositsInfo);
    if (expensesInfo) setExpenses(expensesInfo);
    // Null is an answer (no ledger yet); a failure leaves what was shown.
    if (forecastResult.status === 'fulfilled') setForecast(forecastResult.value);
    else failed.push(forecastResult.reason);
    showErrors(failed);
    // With a forecast Home has painted once its chart is drawn (onChartDrawn below), so the other
    // views' and the dialogs' code waits for the chart instead of competing with it; without one, once shown.
    if (forecastResult.status !== 'fulfilled' || forecastResult.value === null) setShownWithoutChart(true);
  }, [api, readForecast, showErrors]);

  const reloadForecast = useCallback(async () => {
    try {
      setForecast(await readForecast());
    } catch (error) {
      showError(error);
    }
  }, [readForecast, showError]);

  // Whatever was undone, Home reads its small answers again.
  useUndone(() => void load());
  // Another member's change (decision 0096): read everything again, as RETRY does.
  useLiveChanges(() => void load());

  useEffect(() => {
    void load();
  }, [load]);

  /** Paints the new status at once; the server's answer replaces it, a refusal puts the row back and says why. */
  const move = useCallback(
    async (row: LedgerTransactionView, status: TransactionStatus) => {
      if (row.status === status || moving.current.has(row.id)) return;
      moving.current.add(row.id);
      setForecast((current) => withStatus(current, row.id, status));
      try {
        const { id, date, name, type, amount } = row;
        const message = `${status === 'PAID' ? 'Paid' : 'Cleared'} ${name}.`;
        const changes = await api.moveRowStatus({ id, date, name, type, amount: encodeCents(amount), status }, message);
        setForecast((current) => withChanges(current, changes));
      } catch (error) {
        setForecast((current) => withStatus(current, row.id, row.status));
        showError(error);
      } finally {
        moving.current.delete(row.id);
      }
    },
    [api, showError],
  );

  const createLedger = (request: CreateLedgerRequest) =>
    creating.closeAfter(
      (async () => {
        try {
          await api.createLedger(request);
        } catch (error) {
          showError(error);
          return error instanceof ApiCallError ? error.fields : {};
        }
        await reloadForecast();
        return undefined;
      })(),
    );

  const addTransaction = (transaction: NewTransaction) =>
    adding.closeAfter(
      (async () => {
        try {
          await api.addTransactionChanges(transaction);
        } catch (error) {
          showError(error);
          return error instanceof ApiCallError ? error.fields : {};
        }
        // A new row moves the balances after it: the chart and the warning are read again.
        await reloadForecast();
        return undefined;
      })(),
    );

  const summaryForecast = useMemo<SummaryForecast | null>(
    () =>
      forecast
        ? {
            lowest: forecast.lowest,
            firstBelowZero: forecast.firstBelowZero,
            account: forecast.account?.name,
            chart: {
              openingBalance: forecast.openingBalance,
              startDate: forecast.startDate,
              endDate: forecast.endDate,
              points: forecast.chart,
              today: forecast.today,
              lowest: forecast.lowest,
              whatIf: whatIf ?? undefined,
            },
          }
        : null,
    [forecast, whatIf],
  );
  const currentPeriod = forecast?.payPeriods.find((period) => period.startDate <= forecast.today && forecast.today <= period.endDate);

  return (
    <>
      {/* The one number Home leads with (issue 36): safe to spend until payday, or how much is short. */}
      {forecast?.safeToSpend && <SafeToSpendLine safe={forecast.safeToSpend} account={forecast.account?.name} />}
      <div className="accordion dashboard">
        <CollapsibleSection title="Summary">
          <SummarySection
            totalDeposits={deposits?.totalDeposits ?? NOTHING}
            totalExpenses={expenses?.totalExpenses ?? NOTHING}
            forecast={summaryForecast}
            onChartDrawn={markFirstPaint}
            guide={
              deposits !== null && expenses !== null ? (
                <p className="mt-2 mb-0">
                  Add what comes in and what goes out in{' '}
                  <a href={addressInBudget(VIEW_PATHS.plan)} onClick={(event) => followInPage(event, VIEW_PATHS.plan)}>
                    Plan
                  </a>
                  .
                </p>
              ) : null
            }
          >
            {/* The other accounts' warnings first, under the primary account's; the period line stays above the chart it reads. */}
            <AccountBalances reads={reads} primaryBalance={forecast?.currentBalance} onAccounts={setAccounts} />
            {currentPeriod && <p className="home-period mt-3 mb-3 fw-semibold">{payPeriodText(currentPeriod)}</p>}
            {forecast?.everyday && (
              <p className="small text-body-secondary mb-2">
                The forecast includes everyday spending: about {formatUsd(forecast.everyday.weekly)} a week, an estimate.
              </p>
            )}
          </SummarySection>
        </CollapsibleSection>
        <CollapsibleSection title="Next 14 days">
          {forecast === undefined ? (
            <p className="text-body-secondary mb-0">The next 14 days have not loaded.</p>
          ) : forecast === null ? (
            <div className="ledger-empty">
              <p className="text-body-secondary">No ledger yet. Create one to project your balance from your deposits and expenses.</p>
              <Button variant="primary" onClick={() => creating.show(null)}>
                New Ledger
              </Button>
            </div>
          ) : (
            <>
              <UpcomingRows rows={forecast.upcoming} onMove={(row, status) => void move(row, status)} />
              <Button className="mt-3" variant="primary" onClick={() => adding.show(null)}>
                Add Transaction
              </Button>
            </>
          )}
        </CollapsibleSection>
        {forecast && (
          <CollapsibleSection title="Can I afford it?">
            <CanIAffordIt
              today={forecast.today}
              account={forecast.account?.name}
              onAdded={() => void reloadForecast()}
              accounts={accounts}
              onAsked={setWhatIf}
            />
          </CollapsibleSection>
        )}
      </div>
      <NewLedgerDialog
        key={`new-ledger-${creating.session}`}
        show={creating.open}
        currentLedger={null}
        isLedgerKnown
        onSave={createLedger}
        onExtendInstead={creating.close}
        onClose={creating.close}
      />
      {forecast ? (
        <AddTransactionDialog
          key={`add-${adding.session}`}
          show={adding.open}
          ledger={forecast}
          onSave={addTransaction}
          onClose={adding.close}
        />
      ) : null}
      <ViewErrorModal report={report} onClose={clear} onRetry={() => void load()} />
    </>
  );
}
