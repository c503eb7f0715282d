/**
 * "Add Transfer" on the page (issue 25 item 3, decision 0050): beside Add Transaction in the Ledger
 * view and in Plan's Accounts section, once there is more than one account. From is the account
 * shown, To the first other one, and the Name follows To ("Transfer to Savings") until the user
 * types one; the call is POST /api/transfers, a 400's fields are marked, and the ledger shown is
 * the answer (From's) or is read again (To's).
 */
import type { ReactElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerInfoView } from '../../contract/codecs.js';
import { AccountsApiProvider, type AccountsApi } from '../api/account-calls.js';
import { ApiCallError } from '../api/api-client.js';
import { ApiClientProvider } from '../api/api-context.js';
import { ledgerInfo, setWindowWidth, transaction } from '../features/ledger/ledger-test-support.js';
import { accountInfo, accountsAnswer, depositsAnswer, expensesAnswer } from '../test-support/answers.js';
import { fakeAccountsApi, type FakeAccountsApi, fakeApiClient, type FakeApiClient } from '../test-support/fake-api-client.js';
import { LedgerView } from './ledger-view.js';
import { PlanView } from './plan-view.js';

const NO_DEPOSITS = depositsAnswer({ deposits: [], totalDeposits: 0 });
const NO_EXPENSES = expensesAnswer({ expenses: [], totalExpenses: 0 });
const CHECKING = accountInfo({ id: 'c1', name: 'Checking', primary: true });
const SAVINGS = accountInfo({ id: 's1', name: 'Savings', kind: 'SAVINGS' });
const CASH = accountInfo({ id: 'k1', name: 'Cash', kind: 'CASH' });
const ACCOUNTS = accountsAnswer({ accounts: [CHECKING, SAVINGS, CASH] });
const RENT = transaction({ id: 'r1', name: 'Rent', date: '2026-04-01' });

function withSchedules(client: FakeApiClient, info: LedgerInfoView): FakeApiClient {
  client.getDeposits.mockResolvedValue(NO_DEPOSITS);
  client.getExpenses.mockResolvedValue(NO_EXPENSES);
  client.getLedger.mockResolvedValue(info);
  return client;
}

function renderView(api: FakeApiClient, accounts: AccountsApi, view: ReactElement) {
  render(
    <ApiClientProvider client={api}>
      <AccountsApiProvider value={accounts}>{view}</AccountsApiProvider>
    </ApiClientProvider>,
  );
  return userEvent.setup();
}

const listing = (stubs: Partial<FakeAccountsApi> = {}, answer = ACCOUNTS) =>
  fakeAccountsApi({ listAccounts: vi.fn(() => Promise.resolve(answer)), ...stubs });

async function openTransfer(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Add Transfer' }));
  return screen.findByRole('dialog', { name: 'Add Transfer' });
}

const TODAY = '2026-04-10';

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => {
  setWindowWidth(1280);
  window.history.replaceState(null, '', '/ledger');
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 3, 10, 12) });
});
afterEach(() => {
  vi.useRealTimers();
  setWindowWidth(JSDOM_WIDTH);
  window.history.replaceState(null, '', '/');
});

describe('Add Transfer in the Ledger view', () => {
  it('stands beside Add Transaction, from the account shown to the first other one, named after To until a name is typed', async () => {
    const api = withSchedules(fakeApiClient(), ledgerInfo([RENT]));
    const user = renderView(api, listing(), <LedgerView />);
    const addTransaction = await screen.findByRole('button', { name: 'Add Transaction' });
    expect(addTransaction.nextElementSibling).toBe(screen.getByRole('button', { name: 'Add Transfer' }));

    const dialog = await openTransfer(user);
    expect(within(dialog).getByLabelText('From')).toHaveDisplayValue('Checking');
    expect(within(dialog).getByLabelText('To')).toHaveDisplayValue('Savings');
    expect(within(dialog).getByLabelText('Date')).toHaveValue(TODAY);
    expect(within(dialog).getByLabelText('Amount')).toHaveValue(null);
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Transfer to Savings');

    // The name follows To...
    await user.selectOptions(within(dialog).getByLabelText('To'), 'Cash');
    expect(name).toHaveValue('Transfer to Cash');
    // ...until the user types one, which then stays.
    await user.clear(name);
    await user.type(name, 'Rainy day');
    await user.selectOptions(within(dialog).getByLabelText('To'), 'Savings');
    expect(name).toHaveValue('Rainy day');
  });

  it('adds it through POST /api/transfers and shows the answer, From’s ledger', async () => {
    const api = withSchedules(fakeApiClient(), ledgerInfo([RENT]));
    const after = ledgerInfo([RENT, transaction({ id: 't1', name: 'Transfer to Savings', date: TODAY, amount: 100 })]);
    const addTransfer = vi.fn<AccountsApi['addTransfer']>(() => Promise.resolve(after));
    const user = renderView(api, listing({ addTransfer }), <LedgerView />);
    const dialog = await openTransfer(user);
    await user.type(within(dialog).getByLabelText('Amount'), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(addTransfer).toHaveBeenCalledWith({
      fromAccountId: 'c1',
      toAccountId: 's1',
      date: TODAY,
      amount: 100,
      name: 'Transfer to Savings',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Transfer' })).toBeNull());
    expect(await screen.findByText('Transfer to Savings')).toBeInTheDocument();
    // From's ledger came with the answer: nothing is read again.
    expect(api.getLedger).toHaveBeenCalledTimes(1);
  });

  it('reads the ledger shown again when it is To’s, and leaves the name out when it is blank', async () => {
    window.history.replaceState(null, '', '/ledger?account=s1');
    const api = fakeApiClient();
    const savings = withSchedules(fakeApiClient(), ledgerInfo([]));
    api.withEndpoints.mockReturnValue(savings);
    const addTransfer = vi.fn<AccountsApi['addTransfer']>(() => Promise.resolve(ledgerInfo([RENT])));
    const user = renderView(api, listing({ addTransfer }), <LedgerView />);
    await waitFor(() => expect(savings.getLedger).toHaveBeenCalledTimes(1));
    const dialog = await openTransfer(user);
    expect(within(dialog).getByLabelText('From')).toHaveDisplayValue('Savings');
    expect(within(dialog).getByLabelText('To')).toHaveDisplayValue('Checking');
    await user.selectOptions(within(dialog).getByLabelText('From'), 'Cash');
    await user.selectOptions(within(dialog).getByLabelText('To'), 'Savings');
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Amount'), '20.5');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(addTransfer).toHaveBeenCalledWith({ fromAccountId: 'k1', toAccountId: 's1', date: TODAY, amount: 20.5 });
    await waitFor(() => expect(savings.getLedger).toHaveBeenCalledTimes(2));
  });

  it('marks the fields a 400 names and stays open; refuses From and To alike before sending', async () => {
    const api = withSchedules(fakeApiClient(), ledgerInfo([RENT]));
    const message = 'Date must be between 2026-05-01 and 2026-12-31, the dates of Savings’s ledger.';
    const addTransfer = vi.fn<AccountsApi['addTransfer']>(() =>
      Promise.reject(new ApiCallError('addTransfer', 400, 'Some fields need attention.', { date: message })),
    );
    const user = renderView(api, listing({ addTransfer }), <LedgerView />);
    const dialog = await openTransfer(user);

    await user.selectOptions(within(dialog).getByLabelText('To'), 'Checking');
    await user.type(within(dialog).getByLabelText('Amount'), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByLabelText('To')).toHaveAccessibleDescription('To must be another account than From.');
    expect(addTransfer).not.toHaveBeenCalled();

    await user.selectOptions(within(dialog).getByLabelText('To'), 'Savings');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const date = within(dialog).getByLabelText('Date');
    await waitFor(() => expect(date).toHaveAttribute('aria-invalid', 'true'));
    expect(date).toHaveAccessibleDescription(message);
    expect(screen.getByRole('dialog', { name: 'Add Transfer' })).toBeVisible();
    expect(within(dialog).getByLabelText('Amount')).toHaveValue(5);
    // The failure is reported as every failed call is.
    expect(await screen.findByRole('dialog', { name: 'Whoops!' })).toBeVisible();
  });

  it('is not offered to a user with one account', async () => {
    const api = withSchedules(fakeApiClient(), ledgerInfo([RENT]));
    renderView(api, listing({}, accountsAnswer({ accounts: [CHECKING] })), <LedgerView />);
    expect(await screen.findByRole('button', { name: 'Add Transaction' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Transfer' })).toBeNull();
  });
});

describe('Add Transfer in Plan', () => {
  it("is in the Accounts section, from the primary account, once there are two; it adds through the accounts' calls", async () => {
    const api = fakeApiClient();
    api.getDeposits.mockResolvedValue(NO_DEPOSITS);
    api.getExpenses.mockResolvedValue(NO_EXPENSES);
    const addTransfer = vi.fn<AccountsApi['addTransfer']>(() => Promise.resolve(ledgerInfo([])));
    const user = renderView(api, listing({ addTransfer }, accountsAnswer({ accounts: [SAVINGS, CHECKING] })), <PlanView />);
    const dialog = await openTransfer(user);
    expect(within(dialog).getByLabelText('From')).toHaveDisplayValue('Checking');
    expect(within(dialog).getByLabelText('To')).toHaveDisplayValue('Savings');
    await user.type(within(dialog).getByLabelText('Amount'), '40');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addTransfer).toHaveBeenCalledWith({
      fromAccountId: 'c1',
      toAccountId: 's1',
      date: TODAY,
      amount: 40,
      name: 'Transfer to Savings',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Transfer' })).toBeNull());
  });

  it('is not offered with one account', async () => {
    const api = fakeApiClient();
    api.getDeposits.mockResolvedValue(NO_DEPOSITS);
    api.getExpenses.mockResolvedValue(NO_EXPENSES);
    renderView(api, listing({}, accountsAnswer({ accounts: [CHECKING] })), <PlanView />);
    // Add Account is enabled once the accounts have arrived: only then is the absence of Add Transfer the answer.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add Account' })).toBeEnabled());
    expect(screen.queryByRole('button', { name: 'Add Transfer' })).toBeNull();
  });
});
