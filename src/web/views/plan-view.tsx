/**
 * Plan (`/plan`, issue 24): accounts, deposits, expenses and their monthly totals. With more than
 * one account, the deposits and expenses name theirs (issue 25, decision 0044). A change re-projects the
 * ledger on the server in the same transaction; the Home and Ledger views read it when they open.
 */
import { useCallback, useEffect, useState } from 'react';
import type { AccountsInfoView } from '../../contract/account-codecs.js';
import type { DepositsInfoView, ExpensesInfoView } from '../../contract/codecs.js';
import { useAccountsApi } from '../api/account-calls.js';
import { useApiClient } from '../api/api-context.js';
import { CollapsibleSection } from '../components/collapsible-section.js';
import { AccountsSection } from '../features/accounts/accounts-section.js';
import { DepositsSection } from '../features/deposits/deposits-section.js';
import { ExpensesSection } from '../features/expenses/expenses-section.js';
import { useFirstPaintOnceShown } from '../first-paint-once-shown.js';
import { useUndone } from '../undo/undo-context.js';
import { useLiveChanges } from '../live/live-context.js';
import { viewCodeArrived } from './view-code-in-hand.js';
import { settledValues, useErrorReport, ViewErrorModal } from './view-errors.js';

export function PlanView() {
  const api = useApiClient();
  const accountsApi = useAccountsApi();
  // A returning tab's first answers are often in before the first render (decision 0109): the view
  // paints once, with them, and its first load only takes the same answers.
  const [firstAnswers] = useState(() => {
    const inHand = { accounts: accountsApi.accountsInHand(), deposits: api.depositsInHand(), expenses: api.expensesInHand() };
    return inHand.accounts && inHand.deposits && inHand.expenses ? inHand : undefined;
  });
  const [accounts, setAccounts] = useState<AccountsInfoView | null>(firstAnswers?.accounts ?? null);
  const [deposits, setDeposits] = useState<DepositsInfoView | null>(firstAnswers?.deposits ?? null);
  const [expenses, setExpenses] = useState<ExpensesInfoView | null>(firstAnswers?.expenses ?? null);
  const { report, showErrors, showError, clear } = useErrorReport();
  /** The first answers (or their failure) are in the view's state: in hand from the start, or once loaded. */
  const [firstShown, setFirstShown] = useState(firstAnswers !== undefined);
  useFirstPaintOnceShown(firstShown);

  const load = useCallback(async () => {
    const failed: unknown[] = [];
    const [accountsInfo, depositsInfo, expensesInfo] = settledValues<[AccountsInfoView, DepositsInfoView, ExpensesInfoView]>(
      await Promise.allSettled([accountsApi.listAccounts(), api.getDeposits(), api.getExpenses()]),
      failed,
    );
    if (accountsInfo) setAccounts(accountsInfo);
    if (depositsInfo) setDeposits(depositsInfo);
    if (expensesInfo) setExpenses(expensesInfo);
    showErrors(failed);
    setFirstShown(true);
  }, [api, accountsApi, showErrors]);

  // An undone deposit or expense change answers its list; an undone ledger write leaves both as they are.
  useUndone((answer) => {
    if ('deposits' in answer) setDeposits(answer);
    else if ('expenses' in answer) setExpenses(answer);
  });

  useEffect(() => {
    // Painted with its first answers already: they were the load's, so there is nothing to ask.
    if (!firstAnswers) void load();
  }, [load, firstAnswers]);
  // Another member's change (decision 0096): read everything again, as RETRY does.
  useLiveChanges(() => void load());

  // Deleting an account moves its deposits and expenses to the primary account: read them again.
  const onAccountsChange = (info: AccountsInfoView) => {
    const deleted = accounts !== null && info.accounts.length < accounts.accounts.length;
    setAccounts(info);
    if (deleted) void load();
  };

  return (
    <>
      <div className="accordion dashboard">
        <CollapsibleSection title="Accounts">
          <AccountsSection info={accounts} onChange={onAccountsChange} onError={showError} />
        </CollapsibleSection>
        <CollapsibleSection title="Deposits">
          <DepositsSection info={deposits} accounts={accounts?.accounts} onChange={setDeposits} onError={showError} />
        </CollapsibleSection>
        <CollapsibleSection title="Expenses">
          <ExpensesSection info={expenses} accounts={accounts?.accounts} onChange={setExpenses} onError={showError} />
        </CollapsibleSection>
      </div>
      <ViewErrorModal report={report} onClose={clear} onRetry={() => void load()} />
    </>
  );
}

// Said once the module is evaluated: run by the document, the view renders without an import (decision 0127).
viewCodeArrived('plan', PlanView);
