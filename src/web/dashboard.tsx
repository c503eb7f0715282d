/**
 * The app shell: four collapsible sections, all open, composed from the feature folders. The
 * shell owns loading and the error modal; features do not import each other.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DepositsInfoView, ExpensesInfoView, LedgerInfoView } from '../contract/codecs.js';
import { todayIn } from '../domain/calendar-date.js';
import { cents } from '../domain/money.js';
import { ApiCallError } from './api/api-client.js';
import { useApiClient } from './api/api-context.js';
import { CollapsibleSection } from './components/collapsible-section.js';
import type { ErrorReport } from './components/error-modal.js';
import { lazyDialog } from './components/lazy-dialog.js';
import { DepositsSection } from './features/deposits/deposits-section.js';
import { ExpensesSection } from './features/expenses/expenses-section.js';
import { LedgerSection } from './features/ledger/ledger-section.js';
import type { ScheduleNames } from './features/ledger/row-source.js';
import { ImportStatementDialog } from './features/statements/lazy-import-statement-dialog.js';
import { SummarySection } from './features/summary/summary-section.js';
import { ledgerForecast } from './forecast/ledger-forecast.js';

// "Whoops!" is rare: its modal code loads when the browser is idle, not with the first view.
const ErrorModal = lazyDialog(
  () => import('./components/error-modal.js').then((module) => module.ErrorModal),
  (props) => props.report !== null,
);

function reportOf(errors: readonly unknown[]): ErrorReport {
  const messages: string[] = [];
  const details: string[] = [];
  for (const error of errors) {
    if (error instanceof ApiCallError) {
      messages.push(error.message);
      details.push(error.detail);
    } else {
      messages.push('Something went wrong.');
      details.push(error instanceof Error ? error.message : String(error));
    }
  }
  // No answer at all while the browser knows it has no network: say so plainly (decision 0026).
  const offline = !navigator.onLine && errors.some((error) => error instanceof ApiCallError && error.status === 0);
  return { messages: [...new Set(messages)], details: [...new Set(details)], offline };
}

/** The Summary's total while a list has not loaded. */
const NOTHING = cents(0);

/** Names by id, or null while the list has not loaded (its names are unknown, not gone). */
function namesById(schedules: readonly { readonly id: string; readonly name: string }[] | undefined): ReadonlyMap<string, string> | null {
  return schedules ? new Map(schedules.map((schedule) => [schedule.id, schedule.name])) : null;
}

export function Dashboard() {
  const api = useApiClient();
  const [deposits, setDeposits] = useState<DepositsInfoView | null>(null);
  const [expenses, setExpenses] = useState<ExpensesInfoView | null>(null);
  const [ledger, setLedger] = useState<LedgerInfoView | null>(null);
  /** Today on the page's clock (decision 0034): what is "ahead" in the forecast. */
  const [today, setToday] = useState(() => todayIn(new Date()));
  const [report, setReport] = useState<ErrorReport | null>(null);

  /** Fetches the three sections together; what loaded shows, every failure is named. */
  const load = useCallback(async () => {
    setToday(todayIn(new Date()));
    const [depositsResult, expensesResult, ledgerResult] = await Promise.allSettled([
      api.getDeposits(),
      api.getExpenses(),
      api.getLedger(),
    ]);
    const failures: unknown[] = [];
    if (depositsResult.status === 'fulfilled') setDeposits(depositsResult.value);
    else failures.push(depositsResult.reason);
    if (expensesResult.status === 'fulfilled') setExpenses(expensesResult.value);
    else failures.push(expensesResult.reason);
    if (ledgerResult.status === 'fulfilled') setLedger(ledgerResult.value);
    else failures.push(ledgerResult.reason);
    setReport(failures.length > 0 ? reportOf(failures) : null);
  }, [api]);

  const refreshLedger = useCallback(async () => {
    try {
      setLedger(await api.getLedger());
    } catch (error) {
      setReport(reportOf([error]));
    }
  }, [api]);

  const showError = useCallback((error: unknown) => setReport(reportOf([error])), []);

  /** The Refresh button also reads the clock again: a page left open overnight moves to the new day. */
  const refreshAll = useCallback(async () => {
    setToday(todayIn(new Date()));
    await refreshLedger();
  }, [refreshLedger]);

  // Computed once per ledger answer, for both the Summary and the Ledger (ledger-forecast.ts keeps it).
  const currentLedger = ledger?.ledger ?? null;
  const forecast = useMemo(
    () => (currentLedger === null ? null : { ledger: currentLedger, answer: ledgerForecast(currentLedger, today), today }),
    [currentLedger, today],
  );

  /** A deposit or expense change re-projects the ledger on the server: reloading it shows the new rows at once. */
  function reloadingLedger<Info>(set: (info: Info) => void): (info: Info) => void {
    return (info) => {
      set(info);
      void refreshLedger();
    };
  }

  const scheduleNames = useMemo<ScheduleNames>(
    () => ({ deposit: namesById(deposits?.deposits), expense: namesById(expenses?.expenses) }),
    [deposits, expenses],
  );

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <div className="accordion dashboard">
        <CollapsibleSection title="Summary">
          <SummarySection
            totalDeposits={deposits?.totalDeposits ?? NOTHING}
            totalExpenses={expenses?.totalExpenses ?? NOTHING}
            forecast={forecast}
          />
        </CollapsibleSection>
        <CollapsibleSection title="Deposits">
          <DepositsSection info={deposits} onChange={reloadingLedger(setDeposits)} onError={showError} />
        </CollapsibleSection>
        <CollapsibleSection title="Expenses">
          <ExpensesSection info={expenses} onChange={reloadingLedger(setExpenses)} onError={showError} />
        </CollapsibleSection>
        <CollapsibleSection title="Ledger">
          <LedgerSection
            info={ledger}
            onChange={setLedger}
            onError={showError}
            onRefresh={refreshAll}
            scheduleNames={scheduleNames}
            forecast={forecast?.answer ?? null}
            importStatementDialog={ImportStatementDialog}
          />
        </CollapsibleSection>
      </div>
      <ErrorModal
        report={report}
        onAbort={() => setReport(null)}
        onRetry={() => {
          setReport(null);
          void load();
        }}
      />
    </>
  );
}
