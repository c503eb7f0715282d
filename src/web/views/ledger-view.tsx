/**
 * Ledger (`/ledger`, issue 24): the whole register with its balances, search, filter, New Ledger,
 * Extend, Import, Export CSV and every row action. The deposits' and expenses' names come along,
 * so the Edit dialog can say which one a row follows.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DepositsInfoView, ExpensesInfoView, LedgerInfoView } from '../../contract/codecs.js';
import { todayIn } from '../../domain/calendar-date.js';
import { useApiClient } from '../api/api-context.js';
import { CollapsibleSection } from '../components/collapsible-section.js';
import { LedgerSection } from '../features/ledger/ledger-section.js';
import type { ScheduleNames } from '../features/ledger/row-source.js';
import { ImportStatementDialog } from '../features/statements/lazy-import-statement-dialog.js';
import { ledgerForecast } from '../forecast/ledger-forecast.js';
import { useUndone } from '../undo/undo-context.js';
import { settledValues, useErrorReport, ViewErrorModal } from './view-errors.js';

/** Names by id, or null while the list has not loaded (its names are unknown, not gone). */
function namesById(schedules: readonly { readonly id: string; readonly name: string }[] | undefined): ReadonlyMap<string, string> | null {
  return schedules ? new Map(schedules.map((schedule) => [schedule.id, schedule.name])) : null;
}

export function LedgerView() {
  const api = useApiClient();
  const [ledger, setLedger] = useState<LedgerInfoView | null>(null);
  const [deposits, setDeposits] = useState<DepositsInfoView | null>(null);
  const [expenses, setExpenses] = useState<ExpensesInfoView | null>(null);
  /** Today on the page's clock (decision 0034): what is "ahead" in the forecast. */
  const [today, setToday] = useState(() => todayIn(new Date()));
  const { report, showErrors, showError, clear } = useErrorReport();

  const load = useCallback(async () => {
    setToday(todayIn(new Date()));
    const failed: unknown[] = [];
    const [ledgerInfo, depositsInfo, expensesInfo] = settledValues<[LedgerInfoView, DepositsInfoView, ExpensesInfoView]>(
      await Promise.allSettled([api.getLedger(), api.getDeposits(), api.getExpenses()]),
      failed,
    );
    if (ledgerInfo) setLedger(ledgerInfo);
    if (depositsInfo) setDeposits(depositsInfo);
    if (expensesInfo) setExpenses(expensesInfo);
    showErrors(failed);
  }, [api, showErrors]);

  const refreshLedger = useCallback(async () => {
    setToday(todayIn(new Date()));
    try {
      setLedger(await api.getLedger());
    } catch (error) {
      showError(error);
    }
  }, [api, showError]);

  // An undone write answers the ledger: it replaces the one shown, which keeps its scroll and filter.
  // An undone deposit or expense change re-projected the ledger on the server: read it again.
  useUndone((answer) => {
    if ('ledger' in answer) setLedger(answer);
    else void refreshLedger();
  });

  useEffect(() => {
    void load();
  }, [load]);

  const currentLedger = ledger?.ledger ?? null;
  const forecast = useMemo(() => (currentLedger === null ? null : ledgerForecast(currentLedger, today)), [currentLedger, today]);
  const scheduleNames = useMemo<ScheduleNames>(
    () => ({ deposit: namesById(deposits?.deposits), expense: namesById(expenses?.expenses) }),
    [deposits, expenses],
  );

  return (
    <>
      <div className="accordion dashboard">
        <CollapsibleSection title="Ledger">
          <LedgerSection
            info={ledger}
            onChange={setLedger}
            onError={showError}
            onRefresh={refreshLedger}
            scheduleNames={scheduleNames}
            forecast={forecast}
            importStatementDialog={ImportStatementDialog}
          />
        </CollapsibleSection>
      </div>
      <ViewErrorModal report={report} onClose={clear} onRetry={() => void load()} />
    </>
  );
}
