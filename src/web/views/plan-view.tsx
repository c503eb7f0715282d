/**
 * Plan (`/plan`, issue 24): deposits, expenses and their monthly totals. A change re-projects the
 * ledger on the server in the same transaction; the Home and Ledger views read it when they open.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DepositsInfoView, ExpensesInfoView } from '../../contract/codecs.js';
import { useApiClient } from '../api/api-context.js';
import { CollapsibleSection } from '../components/collapsible-section.js';
import { DepositsSection } from '../features/deposits/deposits-section.js';
import { ExpensesSection } from '../features/expenses/expenses-section.js';
import { useUndone } from '../undo/undo-context.js';
import { settledValues, useErrorReport, ViewErrorModal } from './view-errors.js';

export function PlanView() {
  const api = useApiClient();
  const [deposits, setDeposits] = useState<DepositsInfoView | null>(null);
  const [expenses, setExpenses] = useState<ExpensesInfoView | null>(null);
  const { report, showErrors, showError, clear } = useErrorReport();

  const load = useCallback(async () => {
    const failed: unknown[] = [];
    const [depositsInfo, expensesInfo] = settledValues<[DepositsInfoView, ExpensesInfoView]>(
      await Promise.allSettled([api.getDeposits(), api.getExpenses()]),
      failed,
    );
    if (depositsInfo) setDeposits(depositsInfo);
    if (expensesInfo) setExpenses(expensesInfo);
    showErrors(failed);
  }, [api, showErrors]);

  // An undone deposit or expense change answers its list; an undone ledger write leaves both as they are.
  useUndone((answer) => {
    if ('deposits' in answer) setDeposits(answer);
    else if ('expenses' in answer) setExpenses(answer);
  });

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <div className="accordion dashboard">
        <CollapsibleSection title="Deposits">
          <DepositsSection info={deposits} onChange={setDeposits} onError={showError} />
        </CollapsibleSection>
        <CollapsibleSection title="Expenses">
          <ExpensesSection info={expenses} onChange={setExpenses} onError={showError} />
        </CollapsibleSection>
      </div>
      <ViewErrorModal report={report} onClose={clear} onRetry={() => void load()} />
    </>
  );
}
