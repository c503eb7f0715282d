/**
 * Accounts in the views (issue 25, decision 0044): Plan lists them first; with more than one
 * account the Ledger view chooses whose ledger it shows, kept in the address.
 */
import type { ReactElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountsApiProvider, type AccountsApi } from '../api/account-calls.js';
import type { Endpoints } from '../api/api-client.js';
import { ApiClientProvider } from '../api/api-context.js';
import { ledgerInfo, setWindowWidth, transaction } from '../features/ledger/ledger-test-support.js';
import { accountInfo, accountsAnswer, depositsAnswer, expensesAnswer } from '../test-support/answers.js';
import { fakeAccountsApi, fakeApiClient, type FakeApiClient } from '../test-support/fake-api-client.js';
import { LedgerView } from './ledger-view.js';
import { PlanView } from './plan-view.js';

const NO_DEPOSITS = depositsAnswer({ deposits: [], totalDeposits: 0 });
const NO_EXPENSES = expensesAnswer({ expenses: [], totalExpenses: 0 });
const CHECKING = accountInfo({ id: 'c1', name: 'Checking', primary: true, currentBalance: 500 });
const SAVINGS = accountInfo({ id: 's1', name: 'Savings', kind: 'SAVINGS', currentBalance: 75 });
const TWO_ACCOUNTS = accountsAnswer({ accounts: [CHECKING, SAVINGS] });

function renderView(api: FakeApiClient, accounts: AccountsApi, view: ReactElement) {
  render(
    <ApiClientProvider client={api}>
      <AccountsApiProvider value={accounts}>{view}</AccountsApiProvider>
    </ApiClientProvider>,
  );
  return userEvent.setup();
}

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => {
  setWindowWidth(1280);
  window.history.replaceState(null, '', '/ledger');
});
afterEach(() => {
  setWindowWidth(JSDOM_WIDTH);
  window.history.replaceState(null, '', '/');
});

describe('Plan', () => {
  it('shows the Accounts section first, with each account', async () => {
    const api = fakeApiClient();
    api.getDeposits.mockResolvedValue(NO_DEPOSITS);
    api.getExpenses.mockResolvedValue(NO_EXPENSES);
    renderView(api, fakeAccountsApi({ listAccounts: vi.fn(() => Promise.resolve(TWO_ACCOUNTS)) }), <PlanView />);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Accounts', 'Deposits', 'Expenses']);
    expect(await screen.findByRole('rowheader', { name: 'Savings' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Account' })).toBeEnabled();
  });
});

describe('Plan with several accounts', () => {
  it('hands the accounts to the deposits and expenses: each names its account, and Add Expense asks which', async () => {
    const api = fakeApiClient();
    api.getDeposits.mockResolvedValue(
      depositsAnswer({
        deposits: [{ id: 'd1', name: 'Paycheck', type: 'Check', day: 'N/A', amount: 900, startDate: '2026-01-30', frequency: 'EOM' }],
        totalDeposits: 900,
      }),
    );
    api.getExpenses.mockResolvedValue(
      expensesAnswer({
        expenses: [
          { id: 'e1', name: 'Gym', type: 'Health', frequency: 'M', day: 15, amount: 40, startDate: null, endDate: null, accountId: 's1' },
        ],
        totalExpenses: 40,
      }),
    );
    const user = renderView(api, fakeAccountsApi({ listAccounts: vi.fn(() => Promise.resolve(TWO_ACCOUNTS)) }), <PlanView />);
    const gym = await screen.findByRole('row', { name: /^Gym / });
    expect(within(gym).getByRole('cell', { name: 'Savings' })).toBeInTheDocument();
    expect(within(await screen.findByRole('row', { name: /^Paycheck / })).getByRole('cell', { name: 'Checking' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Expense' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Expense' });
    expect(within(dialog).getByRole('combobox', { name: 'Account' })).toHaveDisplayValue('Checking');
  });
});

describe('Ledger with several accounts', () => {
  function twoLedgers() {
    const api = fakeApiClient();
    api.getDeposits.mockResolvedValue(NO_DEPOSITS);
    api.getExpenses.mockResolvedValue(NO_EXPENSES);
    api.getLedger.mockResolvedValue(ledgerInfo([transaction({ id: 'r1', name: 'Rent', date: '2026-04-01' })]));
    const savings = fakeApiClient();
    savings.getDeposits.mockResolvedValue(NO_DEPOSITS);
    savings.getExpenses.mockResolvedValue(NO_EXPENSES);
    savings.getLedger.mockResolvedValue(ledgerInfo([transaction({ id: 'g1', name: 'Gym', date: '2026-04-02' })]));
    const endpointsAsked: Endpoints[] = [];
    api.withEndpoints.mockImplementation((at) => {
      endpointsAsked.push(at);
      return savings;
    });
    return { api, savings, endpointsAsked };
  }

  it("chooses whose ledger is shown; the address keeps it and Back returns to the primary account's", async () => {
    const { api, savings, endpointsAsked } = twoLedgers();
    const user = renderView(api, fakeAccountsApi({ listAccounts: vi.fn(() => Promise.resolve(TWO_ACCOUNTS)) }), <LedgerView />);
    const select = await screen.findByRole('combobox', { name: 'Account' });
    expect(select).toHaveDisplayValue('Checking');
    expect(await screen.findByText('Rent')).toBeInTheDocument();

    await act(async () => {
      window.history.pushState(null, '', '/ledger');
    });
    await user.selectOptions(select, 'Savings');
    expect(window.location.search).toBe('?account=s1');
    expect(await screen.findByText('Gym')).toBeInTheDocument();
    expect(screen.queryByText('Rent')).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Account' })).toHaveDisplayValue('Savings');
    // The ledger's calls go to Savings' own paths.
    expect(endpointsAsked.at(-1)?.('getLedger').path).toBe('/api/accounts/s1/ledger/retrieve-ledger');
    expect(savings.getLedger).toHaveBeenCalled();

    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(await screen.findByText('Rent')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Account' })).toHaveDisplayValue('Checking');
  });

  it('opens the account the address names, through its own ledger calls', async () => {
    window.history.replaceState(null, '', '/ledger?account=s1');
    const { api, savings } = twoLedgers();
    renderView(api, fakeAccountsApi({ listAccounts: vi.fn(() => Promise.resolve(TWO_ACCOUNTS)) }), <LedgerView />);
    expect(await screen.findByText('Gym')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Account' })).toHaveDisplayValue('Savings');
    expect(api.getLedger).not.toHaveBeenCalled();
    await waitFor(() => expect(savings.getLedger).toHaveBeenCalledTimes(1));
  });

  describe('warnings (decision 0045)', () => {
    const VISA = accountInfo({
      id: 'v1',
      name: 'Visa',
      kind: 'CARD',
      card: { closingDay: 15, dueDay: 8, payFromAccountId: 'c1', rule: 'STATEMENT', amount: null, creditLimit: 1000 },
    });
    const WITH_CARD = accountsAnswer({ accounts: [CHECKING, VISA] });
    /** The paragraph whose whole text this is: the names in a warning are isolated in <bdi> elements. */
    const warning = (text: string) => screen.findByText((_, element) => element?.tagName === 'P' && element.textContent === text);

    beforeEach(() => {
      // "Ahead" is the page's today.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(2026, 11, 1, 12));
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    function cardLedgers() {
      const { api, savings: card } = twoLedgers();
      api.getLedger.mockResolvedValue(
        ledgerInfo([transaction({ id: 'p1', name: 'Visa payment', date: '2027-01-08', amount: 450, balance: -250 })], {
          startDate: '2026-12-01',
          endDate: '2027-03-31',
          openingBalance: 200,
          currentBalance: 200,
          pendingBalance: 200,
        }),
      );
      card.getLedger.mockResolvedValue(
        ledgerInfo(
          [
            transaction({ id: 'k1', name: 'Coffee', date: '2026-12-02', amount: 5, balance: -5 }),
            transaction({ id: 'k2', name: 'Laptop', date: '2027-01-10', amount: 1200, balance: -1205 }),
          ],
          { startDate: '2026-12-01', endDate: '2027-03-31', openingBalance: 0, currentBalance: 0, pendingBalance: 0 },
        ),
      );
      return api;
    }

    it('names the account in the warning before $0', async () => {
      renderView(cardLedgers(), fakeAccountsApi({ listAccounts: vi.fn(() => Promise.resolve(WITH_CARD)) }), <LedgerView />);
      expect(await warning('Your Checking balance goes below $0 on Fri, Jan 8, 2027, when Visa payment is due.')).toBeVisible();
    });

    it('warns of a card going over its limit, never of its balance below $0', async () => {
      window.history.replaceState(null, '', '/ledger?account=v1');
      renderView(cardLedgers(), fakeAccountsApi({ listAccounts: vi.fn(() => Promise.resolve(WITH_CARD)) }), <LedgerView />);
      expect(await warning('Your Visa card goes over its $1,000.00 limit on Sun, Jan 10, 2027.')).toBeVisible();
      expect(screen.queryByText(/goes below \$0/)).toBeNull();
    });
  });

  it('shows no Account select to a user with one account', async () => {
    const { api } = twoLedgers();
    renderView(
      api,
      fakeAccountsApi({ listAccounts: vi.fn(() => Promise.resolve(accountsAnswer({ accounts: [CHECKING] }))) }),
      <LedgerView />,
    );
    expect(await screen.findByText('Rent')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Account' })).not.toBeInTheDocument();
    expect(api.withEndpoints).not.toHaveBeenCalled();
  });
});
