/**
 * The three views (issue 24) over a stubbed api client: Home paints its answer from the forecast
 * answer alone and paints a Pay at once; Plan holds deposits and expenses; Ledger names a row's
 * schedule.
 */
import type { ReactElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Expense } from '../../contract/expenses.js';
import type { Forecast, LedgerTransaction } from '../../contract/ledger.js';
import { ApiCallError } from '../api/api-client.js';
import { ApiClientProvider } from '../api/api-context.js';
import { ledgerInfo, setWindowWidth, transaction } from '../features/ledger/ledger-test-support.js';
import {
  accountInfo,
  accountsAnswer,
  depositsAnswer,
  expensesAnswer,
  forecastAnswer,
  forecastWarningsAnswer,
} from '../test-support/answers.js';
import { findOpenDialog } from '../test-support/dialog-queries.js';
import { type FakeAccountsApi, fakeAccountsApi, fakeApiClient, type FakeApiClient } from '../test-support/fake-api-client.js';
import { AccountsApiProvider } from '../api/account-calls.js';
import { HomeView } from './home-view.js';
import { LedgerView } from './ledger-view.js';
import { PlanView } from './plan-view.js';
import type { LedgerChangesView } from '../../contract/ledger-changes-codec.js';

const DEPOSITS = depositsAnswer({
  deposits: [{ id: 'd1', name: 'Acme', type: 'Direct Deposit', day: 'Friday', amount: 1500, startDate: '2026-12-04', frequency: 'BW' }],
  totalDeposits: 3250,
});
const RENT: Expense = { id: 'e1', name: 'Rent', type: 'Housing', frequency: 'M', day: 1, amount: 1200, startDate: null, endDate: null };
const EXPENSES = expensesAnswer({ expenses: [RENT], totalExpenses: 1200 });
const NO_DEPOSITS = depositsAnswer({ deposits: [], totalDeposits: 0 });
const NO_EXPENSES = expensesAnswer({ expenses: [], totalExpenses: 0 });

const rentRow = transaction({
  id: 'rent',
  name: 'Rent',
  date: '2027-01-01',
  amount: 1200,
  balance: 300,
  source: { kind: 'expense', id: 'e1', occurrence: '2027-01-01', edited: false },
});
const paycheck: LedgerTransaction = transaction({
  id: 'pay',
  name: 'Acme Paycheck',
  type: 'C',
  date: '2027-01-08',
  amount: 1500,
  balance: 1800,
  source: { kind: 'deposit', id: 'd1', occurrence: '2027-01-08', edited: false },
});

const FORECAST: Forecast = {
  today: '2026-12-30',
  lowest: { date: '2027-01-01', name: 'Rent', balance: 300 },
  firstBelowZero: null,
  payPeriods: [
    { startDate: '2026-12-25', endDate: '2027-01-07', income: 0, bills: 1200, leftover: -1200, lowest: 300, endBalance: 300 },
    { startDate: '2027-01-08', endDate: '2027-01-31', income: 1500, bills: 0, leftover: 1500, lowest: 1800, endBalance: 1800 },
  ],
  startDate: '2026-12-25',
  endDate: '2027-01-31',
  openingBalance: 1500,
  currentBalance: 1500,
  pendingBalance: 1500,
  chart: [
    { date: '2027-01-01', name: 'Rent', balance: 300, paycheck: false },
    { date: '2027-01-08', name: 'Acme Paycheck', balance: 1800, paycheck: true },
  ],
  upcoming: [rentRow, paycheck],
  safeToSpend: null,
};

/** A user with one account, as every user was before accounts (issue 25). */
const ONE_ACCOUNT = () =>
  fakeAccountsApi({
    listAccounts: vi.fn(() => Promise.resolve(accountsAnswer({ accounts: [accountInfo({ id: 'a1', name: 'Checking', primary: true })] }))),
  });

function renderWithApi(api: FakeApiClient, view: ReactElement, accounts: FakeAccountsApi = ONE_ACCOUNT()) {
  render(
    <ApiClientProvider client={api}>
      <AccountsApiProvider value={accounts}>{view}</AccountsApiProvider>
    </ApiClientProvider>,
  );
  return userEvent.setup();
}

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

/** A promise the test settles by hand: the server's answer held back. */
function heldBack<T>() {
  let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
  const promise = new Promise<T>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { promise, ...settle };
}

describe('Home', () => {
  function homeApi(forecast: Forecast | null = FORECAST): FakeApiClient {
    const api = fakeApiClient();
    api.getDeposits.mockResolvedValue(DEPOSITS);
    api.getExpenses.mockResolvedValue(EXPENSES);
    if (forecast) api.getForecast.mockResolvedValue(forecastAnswer(forecast));
    else api.getForecast.mockRejectedValue(new ApiCallError('getForecastPrimary', 404, 'You have no ledger yet: create one first.'));
    return api;
  }

  it('paints the answer from the forecast alone: the sentence, the lowest balance, the pay period and the next 14 days', async () => {
    const api = homeApi();
    renderWithApi(api, <HomeView />);

    expect(await screen.findByText('You will have $2,050.00 left over each month!')).toBeVisible();
    expect(await screen.findByText('Lowest balance ahead: $300.00 on Fri, Jan 1, 2027')).toBeVisible();
    expect(
      screen.getByText(
        'Pay period Fri, Dec 25, 2026 – Thu, Jan 7, 2027 · In $0.00 · Out $1,200.00 · Left over -$1,200.00 · Lowest $300.00',
      ),
    ).toBeVisible();
    const next = screen.getByRole('list', { name: 'Next 14 days' });
    expect(
      within(next)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Fri, Jan 1, 2027Rent'), expect.stringContaining('Fri, Jan 8, 2027Acme Paycheck')]);
    expect(screen.getByRole('button', { name: 'Add Transaction' })).toBeEnabled();
    // Never the whole ledger (the fake client refuses any call it was not given).
    expect(api.getLedger).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog', { name: 'Whoops!' })).toBeNull();
  });

  it('paints a Pay at once, keeps it when the server agrees, and offers nothing twice', async () => {
    const api = homeApi();
    const answer = heldBack<LedgerChangesView>();
    api.moveRowStatus.mockReturnValue(answer.promise);
    const user = renderWithApi(api, <HomeView />);
    const pay = await screen.findByRole('button', { name: 'Pay Rent' });

    await user.click(pay);
    const row = screen.getByText('Rent').closest('li') as HTMLElement;
    expect(within(row).getByText('Paid')).toBeVisible();
    expect(within(row).getByRole('button', { name: 'Pay Rent' })).toBeDisabled();
    expect(within(row).getByRole('button', { name: 'Clear Rent' })).toBeEnabled();
    expect(api.moveRowStatus).toHaveBeenCalledTimes(1);
    expect(api.moveRowStatus).toHaveBeenCalledWith(
      { id: 'rent', date: '2027-01-01', name: 'Rent', type: 'D', amount: 1200, status: 'PAID' },
      'Paid Rent.',
    );

    await act(async () => {
      const held = forecastAnswer(FORECAST);
      const [rent] = held.upcoming;
      if (!rent) throw new Error('no Rent row');
      answer.resolve({
        basedOn: 'v1',
        version: 'v2',
        startDate: held.startDate,
        endDate: held.endDate,
        openingBalance: held.openingBalance,
        currentBalance: held.currentBalance,
        pendingBalance: held.pendingBalance,
        count: 2,
        rows: [{ ...rent, status: 'PAID', position: 0 }],
        removed: [],
      });
      await answer.promise;
    });
    expect(within(row).getByText('Paid')).toBeVisible();
  });

  it('puts a refused Pay back and says why', async () => {
    const api = homeApi();
    const answer = heldBack<LedgerChangesView>();
    api.moveRowStatus.mockReturnValue(answer.promise);
    const user = renderWithApi(api, <HomeView />);
    await user.click(await screen.findByRole('button', { name: 'Pay Rent' }));
    const row = screen.getByText('Rent').closest('li') as HTMLElement;
    expect(within(row).getByText('Paid')).toBeVisible();

    await act(async () => {
      answer.reject(new ApiCallError('updateTransactionPrimary', 409, 'This transaction was changed at the same time by another request.'));
      await answer.promise.catch(() => undefined);
    });

    expect(within(row).getByText('Unpaid')).toBeVisible();
    expect(within(row).getByRole('button', { name: 'Pay Rent' })).toBeEnabled();
    const whoops = await findOpenDialog('Whoops!');
    expect(whoops).toHaveTextContent('Failed to update transaction!');
    expect(whoops).toHaveTextContent('This transaction was changed at the same time by another request.');
  });

  it('guides a user without deposits or expenses to Plan, and one without a ledger to New Ledger', async () => {
    const api = homeApi(null);
    api.getDeposits.mockResolvedValue(NO_DEPOSITS);
    api.getExpenses.mockResolvedValue(NO_EXPENSES);
    const user = renderWithApi(api, <HomeView />);

    expect(await screen.findByText('Please add deposits and/or expenses!')).toBeVisible();
    expect(await screen.findByRole('link', { name: 'Plan' })).toHaveAttribute('href', '/plan');
    expect(await screen.findByText('No ledger yet. Create one to project your balance from your deposits and expenses.')).toBeVisible();
    expect(screen.queryByRole('dialog', { name: 'Whoops!' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'New Ledger' }));
    expect(await findOpenDialog('New Ledger')).toBeVisible();
  });
});

describe('Home with several accounts (issue 25)', () => {
  const TWO_ACCOUNTS = () =>
    fakeAccountsApi({
      listAccounts: vi.fn(() =>
        Promise.resolve(
          accountsAnswer({
            accounts: [
              accountInfo({ id: 'a1', name: 'Checking', primary: true, currentBalance: 900 }),
              accountInfo({ id: 's1', name: 'Savings', kind: 'SAVINGS', currentBalance: 75.5 }),
            ],
          }),
        ),
      ),
      // Savings never goes below $0.
      getForecastWarnings: vi.fn(() => Promise.resolve(forecastWarningsAnswer({ today: FORECAST.today, firstBelowZero: null }))),
    });
  const homeApi = (forecast: Parameters<typeof forecastAnswer>[0] | null) => {
    const api = fakeApiClient();
    api.getDeposits.mockResolvedValue(DEPOSITS);
    api.getExpenses.mockResolvedValue(EXPENSES);
    if (forecast) api.getForecast.mockResolvedValue(forecastAnswer(forecast));
    else api.getForecast.mockRejectedValue(new ApiCallError('getForecastPrimary', 404, 'You have no ledger yet: create one first.'));
    return api;
  };
  const balances = async () =>
    within(await screen.findByRole('list', { name: 'Accounts' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);

  it("lists every account's current balance in the Summary, the primary one's as Home's forecast says", async () => {
    const accounts = TWO_ACCOUNTS();
    renderWithApi(homeApi(FORECAST), <HomeView />, accounts);
    await screen.findByText('You will have $2,050.00 left over each month!');
    await waitFor(async () => expect(await balances()).toEqual(['Checking$1,500.00', 'Savings$75.50']));
    expect(accounts.listAccounts).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Whoops!' })).toBeNull();
  });

  it("moves the primary account's balance with a Pay on Home, without reading every account again", async () => {
    const api = homeApi(FORECAST);
    const paid = forecastAnswer({ ...FORECAST, currentBalance: 300 });
    const [rent] = paid.upcoming;
    if (!rent) throw new Error('no Rent row');
    api.moveRowStatus.mockResolvedValue({
      basedOn: 'v1',
      version: 'v2',
      startDate: paid.startDate,
      endDate: paid.endDate,
      openingBalance: paid.openingBalance,
      currentBalance: paid.currentBalance,
      pendingBalance: paid.pendingBalance,
      count: 2,
      rows: [{ ...rent, status: 'PAID', position: 0 }],
      removed: [],
    });
    const accounts = TWO_ACCOUNTS();
    const user = renderWithApi(api, <HomeView />, accounts);
    await waitFor(async () => expect(await balances()).toEqual(['Checking$1,500.00', 'Savings$75.50']));
    await user.click(await screen.findByRole('button', { name: 'Pay Rent' }));
    await waitFor(async () => expect(await balances()).toEqual(['Checking$300.00', 'Savings$75.50']));
    expect(accounts.listAccounts).toHaveBeenCalledTimes(1);
  });

  it('lists them too while the primary account has no ledger, at the balances listed', async () => {
    renderWithApi(homeApi(null), <HomeView />, TWO_ACCOUNTS());
    expect(await balances()).toEqual(['Checking$900.00', 'Savings$75.50']);
  });

  it('lists nothing with one account: its balance is Home itself', async () => {
    const accounts = ONE_ACCOUNT();
    renderWithApi(homeApi(FORECAST), <HomeView />, accounts);
    await screen.findByText('You will have $2,050.00 left over each month!');
    await waitFor(() => expect(accounts.listAccounts).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('list', { name: 'Accounts' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Accounts' })).toBeNull();
  });

  const card = (id: string, name: string, creditLimit: number | null) =>
    accountInfo({
      id,
      name,
      kind: 'CARD',
      currentBalance: -300,
      card: { closingDay: 15, dueDay: 8, payFromAccountId: 'a1', rule: 'STATEMENT', amount: null, creditLimit },
    });
  const CHECKING_NAMED = { id: 'a1', name: 'Checking', kind: 'CHECKING' } as const;
  const VISA_PAYMENT = { date: '2027-01-08', name: 'Visa payment', balance: -250 };
  /** The paragraph whose whole text this is: the names in a warning are isolated in <bdi> elements. */
  const warning = (text: string) => screen.findByText((_, element) => element?.tagName === 'P' && element.textContent === text);

  it('names the primary account in its warning, and warns of each other account below $0 and each card over its limit', async () => {
    const accounts = fakeAccountsApi({
      listAccounts: vi.fn(() =>
        Promise.resolve(
          accountsAnswer({
            accounts: [
              accountInfo({ id: 'a1', name: 'Checking', primary: true }),
              accountInfo({ id: 's1', name: 'Savings', kind: 'SAVINGS' }),
              card('v1', 'Visa', 1000),
              card('x1', 'Amex', null),
            ],
          }),
        ),
      ),
      getForecastWarnings: vi.fn((id: string) =>
        Promise.resolve(
          id === 's1'
            ? forecastWarningsAnswer({ today: FORECAST.today, firstBelowZero: { date: '2027-01-02', name: 'Rent', balance: -5 } })
            : forecastWarningsAnswer({
                today: FORECAST.today,
                // A card's balance is below $0 whenever it is owed: that is no warning.
                firstBelowZero: { date: '2026-12-31', name: 'Coffee', balance: -4 },
                firstOverLimit: { date: '2026-12-31', name: 'Laptop', balance: -1200 },
              }),
        ),
      ),
    });
    renderWithApi(homeApi({ ...FORECAST, firstBelowZero: VISA_PAYMENT, account: CHECKING_NAMED }), <HomeView />, accounts);

    expect(await warning('Your Checking balance goes below $0 on Fri, Jan 8, 2027, when Visa payment is due.')).toBeVisible();
    expect(await warning('Your Savings balance goes below $0 on Sat, Jan 2, 2027, when Rent is due.')).toBeVisible();
    expect(await warning('Your Visa card goes over its $1,000.00 limit on Thu, Dec 31, 2026.')).toBeVisible();
    // Each in a status region, so it is read out once it comes.
    expect((await warning('Your Visa card goes over its $1,000.00 limit on Thu, Dec 31, 2026.')).closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByText(/Your Visa balance/)).toBeNull();
    // Only the accounts that can warn are read: not the primary one (Home's own), nor a card without a limit.
    expect(accounts.getForecastWarnings.mock.calls.map(([id]) => id)).toEqual(['s1', 'v1']);
    expect(screen.queryByText("Some accounts' warnings have not loaded.")).toBeNull();
  });

  it('warns of nothing for an account without a ledger, and says so when a forecast cannot be read', async () => {
    const accounts = fakeAccountsApi({
      listAccounts: vi.fn(() =>
        Promise.resolve(
          accountsAnswer({
            accounts: [
              accountInfo({ id: 'a1', name: 'Checking', primary: true }),
              accountInfo({ id: 's1', name: 'Savings', kind: 'SAVINGS' }),
              card('v1', 'Visa', 1000),
            ],
          }),
        ),
      ),
      getForecastWarnings: vi.fn((id: string) =>
        Promise.reject(
          id === 's1'
            ? new ApiCallError('getForecast', 404, 'You have no ledger yet: create one first.')
            : new ApiCallError('getForecast', 0, 'Offline.'),
        ),
      ),
    });
    renderWithApi(homeApi(FORECAST), <HomeView />, accounts);
    expect(await screen.findByText("Some accounts' warnings have not loaded.")).toBeVisible();
    expect(await balances()).toEqual(['Checking$1,500.00', 'Savings$0.00', 'Visa-$300.00']);
    expect(screen.queryByText(/goes below \$0|goes over/)).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Whoops!' })).toBeNull();
  });

  it('says so in the Summary when the accounts cannot be read, and the rest of Home stands', async () => {
    const accounts = fakeAccountsApi({ listAccounts: vi.fn(() => Promise.reject(new ApiCallError('listAccounts', 0, 'Offline.'))) });
    renderWithApi(homeApi(FORECAST), <HomeView />, accounts);
    expect(await screen.findByText("The accounts' balances have not loaded.")).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Pay Rent' })).toBeEnabled();
    expect(screen.queryByRole('dialog', { name: 'Whoops!' })).toBeNull();
  });
});

describe('Plan', () => {
  it('shows the deposits and expenses with their monthly totals, and nothing of the ledger', async () => {
    const api = fakeApiClient();
    api.getDeposits.mockResolvedValue(DEPOSITS);
    api.getExpenses.mockResolvedValue(EXPENSES);
    renderWithApi(api, <PlanView />);

    expect(await screen.findByText('Total Monthly Deposits: $3,250.00')).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Edit Rent' })).toBeVisible();
    expect(api.getLedger).not.toHaveBeenCalled();
  });

  it("paints the first script's answers in its first render when they are in hand, and asks for nothing again (decision 0109)", () => {
    const api = fakeApiClient();
    api.depositsInHand.mockReturnValue(DEPOSITS);
    api.expensesInHand.mockReturnValue(EXPENSES);
    const accounts = ONE_ACCOUNT();
    accounts.accountsInHand.mockReturnValue(accountsAnswer({ accounts: [accountInfo({ id: 'a1', name: 'Checking', primary: true })] }));
    renderWithApi(api, <PlanView />, accounts);

    // No waiting: the render itself shows them.
    expect(screen.getByText('Total Monthly Deposits: $3,250.00')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Edit Rent' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Rename Checking' })).toBeVisible();
    expect(api.getDeposits).not.toHaveBeenCalled();
    expect(api.getExpenses).not.toHaveBeenCalled();
    expect(accounts.listAccounts).not.toHaveBeenCalled();
  });

  it('loads all three as it always did when only some of them are in hand', async () => {
    const api = fakeApiClient();
    api.depositsInHand.mockReturnValue(DEPOSITS);
    api.getDeposits.mockResolvedValue(DEPOSITS);
    api.getExpenses.mockResolvedValue(EXPENSES);
    renderWithApi(api, <PlanView />);

    expect(screen.queryByText('Total Monthly Deposits: $3,250.00')).toBeNull();
    expect(await screen.findByText('Total Monthly Deposits: $3,250.00')).toBeVisible();
    expect(api.getExpenses).toHaveBeenCalledTimes(1);
  });
});

describe('Ledger', () => {
  it("names a row's expense in the Edit dialog: the schedules' names come with the ledger", async () => {
    const api = fakeApiClient();
    api.getDeposits.mockResolvedValue(DEPOSITS);
    api.getExpenses.mockResolvedValue(EXPENSES);
    api.getLedger.mockResolvedValue(
      ledgerInfo([
        transaction({ ...rentRow, date: '2026-04-01', source: { kind: 'expense', id: 'e1', occurrence: '2026-04-01', edited: false } }),
      ]),
    );
    const user = renderWithApi(api, <LedgerView />);

    const table = await waitFor(() => {
      const found = screen.getByRole('columnheader', { name: 'Credit' }).closest('table');
      if (!found) throw new Error('no ledger table');
      return found;
    });
    await user.click(await within(table).findByRole('button', { name: 'Edit Rent' }));

    expect(within(await findOpenDialog('Edit Transaction')).getByText('From your expense Rent, due on Wed, Apr 1, 2026.')).toBeVisible();
  });
  it("paints the first script's window and accounts in its first render when they are in hand, and reads only the names after (decision 0109)", async () => {
    const api = fakeApiClient();
    api.getLedgerInHand.mockReturnValue(
      ledgerInfo([
        transaction({ ...rentRow, date: '2026-04-01', source: { kind: 'expense', id: 'e1', occurrence: '2026-04-01', edited: false } }),
      ]),
    );
    api.getDeposits.mockResolvedValue(DEPOSITS);
    api.getExpenses.mockResolvedValue(EXPENSES);
    const accounts = ONE_ACCOUNT();
    accounts.accountsInHand.mockReturnValue(accountsAnswer({ accounts: [accountInfo({ id: 'a1', name: 'Checking', primary: true })] }));
    const user = renderWithApi(api, <LedgerView />, accounts);

    // No waiting: the render itself shows the row, and nothing is asked for again.
    const table = screen.getByRole('columnheader', { name: 'Credit' }).closest('table');
    if (!table) throw new Error('no ledger table');
    expect(within(table).getByRole('button', { name: 'Edit Rent' })).toBeVisible();
    expect(api.getLedger).not.toHaveBeenCalled();
    expect(accounts.listAccounts).not.toHaveBeenCalled();
    // The schedules' names still come, after the paint.
    await user.click(within(table).getByRole('button', { name: 'Edit Rent' }));
    expect(within(await findOpenDialog('Edit Transaction')).getByText('From your expense Rent, due on Wed, Apr 1, 2026.')).toBeVisible();
    expect(api.getDeposits).toHaveBeenCalledTimes(1);
  });

  it('loads as it always did when the address names an account the answer in hand does not have', async () => {
    window.history.pushState(null, '', '/ledger?account=gone');
    try {
      const api = fakeApiClient();
      api.getLedgerInHand.mockReturnValue(ledgerInfo([transaction(rentRow)]));
      api.getLedger.mockResolvedValue(ledgerInfo([transaction(rentRow)]));
      // The account's own ledger calls: this fake, as the primary account's would be.
      api.withEndpoints.mockReturnValue(api);
      const accounts = ONE_ACCOUNT();
      accounts.accountsInHand.mockReturnValue(accountsAnswer({ accounts: [accountInfo({ id: 'a1', name: 'Checking', primary: true })] }));
      renderWithApi(api, <LedgerView />, accounts);

      expect(screen.queryByRole('button', { name: 'Edit Rent' })).toBeNull();
      // The load finds the account gone and shows the primary account's ledger instead.
      await waitFor(() => expect(window.location.search).toBe(''));
    } finally {
      window.history.pushState(null, '', '/');
    }
  });
});
