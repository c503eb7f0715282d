/**
 * The shell composing the sections: a deposit or expense change brings the re-projected ledger at
 * once, and the ledger learns the schedules' names from the other sections.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Expense } from '../contract/expenses.js';
import { ApiCallError } from './api/api-client.js';
import { ApiClientProvider } from './api/api-context.js';
import { Dashboard } from './dashboard.js';
import { ledgerInfo, setWindowWidth, transaction } from './features/ledger/ledger-test-support.js';
import { depositsAnswer, expensesAnswer } from './test-support/answers.js';
import { findOpenDialog, waitForDialogToClose } from './test-support/dialog-queries.js';
import { fakeApiClient, type FakeApiClient } from './test-support/fake-api-client.js';

const DEPOSITS = depositsAnswer({
  deposits: [{ id: 'd1', name: 'Acme', type: 'Direct Deposit', day: 'Friday', amount: 1500, startDate: '2026-12-04', frequency: 'BW' }],
  totalDeposits: 3250,
});
const RENT: Expense = { id: 'e1', name: 'Rent', type: 'Housing', frequency: 'M', day: 1, amount: 1200, startDate: null, endDate: null };
const EXPENSES = expensesAnswer({ expenses: [RENT], totalExpenses: 1200 });

const rentRow = (amount: number) =>
  transaction({
    id: `rent-${amount}`,
    name: 'Rent',
    date: '2026-04-01',
    amount,
    source: { kind: 'expense', id: 'e1', occurrence: '2026-04-01', edited: false },
  });
const BEFORE = ledgerInfo([rentRow(1200)]);
const AFTER = ledgerInfo([rentRow(1250)]);

function renderDashboard(api: FakeApiClient) {
  render(
    <ApiClientProvider client={api}>
      <Dashboard />
    </ApiClientProvider>,
  );
  return userEvent.setup();
}

/** The table whose columns include this header: Start Date, End Date and Credit tell the deposits, expenses and ledger tables apart. */
function tableWith(header: string): HTMLElement {
  const table = screen.getByRole('columnheader', { name: header }).closest('table');
  if (!table) throw new Error(`no table with ${header}`);
  return table;
}

function loadedApi(): FakeApiClient {
  const api = fakeApiClient();
  api.getDeposits.mockResolvedValue(DEPOSITS);
  api.getExpenses.mockResolvedValue(EXPENSES);
  api.getLedger.mockResolvedValueOnce(BEFORE).mockResolvedValueOnce(AFTER);
  return api;
}

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

describe('Dashboard', () => {
  it('reloads the ledger after an expense is saved, so its new amount shows at once', async () => {
    const api = loadedApi();
    api.updateExpense.mockResolvedValue(expensesAnswer({ expenses: [{ ...RENT, amount: 1250 }], totalExpenses: 1250 }));
    const user = renderDashboard(api);
    expect(await within(await waitFor(() => tableWith('Credit'))).findByText('$1,200.00')).toBeVisible();

    await user.click(within(tableWith('End Date')).getByRole('button', { name: 'Edit Rent' }));
    const dialog = await findOpenDialog('Edit Expense');
    await user.clear(within(dialog).getByLabelText('Amount'));
    await user.type(within(dialog).getByLabelText('Amount'), '1250');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitForDialogToClose('Edit Expense');

    expect(await within(tableWith('Credit')).findByText('$1,250.00')).toBeVisible();
    expect(api.getLedger).toHaveBeenCalledTimes(2);
  });

  it('reloads the ledger after a deposit is deleted, and reports a failed reload as a failed ledger load', async () => {
    const api = loadedApi();
    api.getLedger
      .mockReset()
      .mockResolvedValueOnce(BEFORE)
      .mockRejectedValueOnce(new ApiCallError('getLedger', 0, 'Offline.'));
    api.deleteDeposit.mockResolvedValue(depositsAnswer({ deposits: [], totalDeposits: 0 }));
    const user = renderDashboard(api);

    await user.click(await within(await waitFor(() => tableWith('Start Date'))).findByRole('button', { name: 'Delete Acme' }));
    await user.click(within(await findOpenDialog('Delete Deposit')).getByRole('button', { name: 'Delete' }));

    const whoops = await findOpenDialog('Whoops!');
    expect(whoops).toHaveTextContent('Failed to get ledger!');
    expect(api.getLedger).toHaveBeenCalledTimes(2);
    // The deposit is gone and the ledger as last loaded still shows.
    expect(screen.queryByRole('columnheader', { name: 'Start Date' })).toBeNull();
    expect(within(tableWith('Credit')).getByText('$1,200.00')).toBeVisible();
  });

  it("tells the ledger the schedules' names: the Edit dialog names a row's expense", async () => {
    const user = renderDashboard(loadedApi());

    await user.click(await within(await waitFor(() => tableWith('Credit'))).findByRole('button', { name: 'Edit Rent' }));

    expect(within(await findOpenDialog('Edit Transaction')).getByText('From your expense Rent, due on 2026-04-01.')).toBeVisible();
  });
});
