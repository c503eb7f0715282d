/** The Accounts section (issue 25, decision 0044) over stubbed accounts' calls. */
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AccountsInfoView, AccountView } from '../../../contract/account-codecs.js';
import type { AccountInfo } from '../../../contract/accounts.js';
import { AccountsApiProvider } from '../../api/account-calls.js';
import { ApiCallError } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { accountInfo, accountsAnswer } from '../../test-support/answers.js';
import { findOpenDialog, waitForDialogToClose } from '../../test-support/dialog-queries.js';
import { type FakeAccountsApi, fakeAccountsApi, fakeApiClient } from '../../test-support/fake-api-client.js';
import { AccountsSection } from './accounts-section.js';

const CHECKING = accountInfo({ id: 'c1', name: 'Checking', primary: true, currentBalance: 1234.5 });
const SAVINGS = accountInfo({ id: 's1', name: 'Savings', kind: 'SAVINGS', currentBalance: 300 });
const VISA = accountInfo({
  id: 'v1',
  name: 'Visa',
  kind: 'CARD',
  currentBalance: -80,
  card: { closingDay: 20, dueDay: 15, payFromAccountId: 'c1', rule: 'STATEMENT', amount: null, creditLimit: null },
});

/** The account as the page holds it (balances in cents). */
function accountView(account: AccountInfo): AccountView {
  const [view] = accountsAnswer({ accounts: [account] }).accounts;
  if (!view) throw new Error('no account');
  return view;
}
const savingsView = accountView(SAVINGS);

function rowAt(rows: HTMLElement[], index: number): HTMLElement {
  const row = rows[index];
  if (!row) throw new Error(`no row ${index}`);
  return row;
}

function renderAccounts(accounts: FakeAccountsApi, info: AccountsInfoView | null) {
  const onError = vi.fn();
  function Shell() {
    const [current, setCurrent] = useState(info);
    return <AccountsSection info={current} onChange={setCurrent} onError={onError} />;
  }
  render(
    <ApiClientProvider client={fakeApiClient()}>
      <AccountsApiProvider value={accounts}>
        <Shell />
      </AccountsApiProvider>
    </ApiClientProvider>,
  );
  return { user: userEvent.setup(), onError };
}

describe('Accounts section', () => {
  it('lists each account with its kind in words, its current balance and the primary marker', () => {
    renderAccounts(fakeAccountsApi(), accountsAnswer({ accounts: [CHECKING, SAVINGS, VISA] }));
    const rows = screen.getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 2)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Checking', '$1,234.50'],
      ['Savings', '$300.00'],
      ['Credit card', '-$80.00'],
    ]);
    expect(within(rowAt(rows, 0)).getByRole('rowheader')).toHaveTextContent('Checking Primary');
    expect(within(rowAt(rows, 1)).getByRole('rowheader')).not.toHaveTextContent('Primary');
    // The primary account cannot be made primary again, nor a card (the server refuses it).
    expect(screen.queryByRole('button', { name: 'Make Checking primary' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Make Visa primary' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Make Savings primary' })).toBeInTheDocument();
  });

  it('adds a savings account and reads the list again', async () => {
    const accounts = fakeAccountsApi({
      addAccount: vi.fn(() => Promise.resolve(savingsView)),
      listAccounts: vi.fn(() => Promise.resolve(accountsAnswer({ accounts: [CHECKING, SAVINGS] }))),
    });
    const { user } = renderAccounts(accounts, accountsAnswer({ accounts: [CHECKING] }));
    await user.click(screen.getByRole('button', { name: 'Add Account' }));
    const dialog = await findOpenDialog('Add Account');
    await user.type(within(dialog).getByLabelText('Name'), 'Savings');
    await user.selectOptions(within(dialog).getByLabelText('Kind'), 'Savings');
    expect(within(dialog).queryByLabelText('Closing day')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitForDialogToClose('Add Account');
    expect(accounts.addAccount).toHaveBeenCalledWith({ name: 'Savings', kind: 'SAVINGS' });
    expect(await screen.findByRole('rowheader', { name: 'Savings' })).toBeInTheDocument();
  });

  it("asks a card's settings, checks them before sending, and shows the server's field messages", async () => {
    const refusal = new ApiCallError('addAccount', 400, 'Some fields need attention.', {
      'card.payFromAccountId': 'Pay From must be the id of one of your accounts that is not a card.',
    });
    const accounts = fakeAccountsApi({ addAccount: vi.fn(() => Promise.reject(refusal)) });
    const { user, onError } = renderAccounts(accounts, accountsAnswer({ accounts: [CHECKING, SAVINGS] }));
    await user.click(screen.getByRole('button', { name: 'Add Account' }));
    const dialog = await findOpenDialog('Add Account');
    await user.type(within(dialog).getByLabelText('Name'), 'Visa');
    await user.selectOptions(within(dialog).getByLabelText('Kind'), 'Credit card');
    await user.type(within(dialog).getByLabelText('Closing day'), '40');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByLabelText('Closing day')).toHaveAccessibleDescription(
      expect.stringContaining('Closing Day must be a whole number from 1 to 31.'),
    );
    expect(within(dialog).getByLabelText('Payment due day')).toHaveAccessibleDescription('Due Day is required.');
    expect(accounts.addAccount).not.toHaveBeenCalled();

    expect(within(dialog).getByLabelText('Pay from')).toHaveDisplayValue('Checking');
    await user.clear(within(dialog).getByLabelText('Closing day'));
    await user.type(within(dialog).getByLabelText('Closing day'), '20');
    await user.type(within(dialog).getByLabelText('Payment due day'), '15');
    await user.selectOptions(within(dialog).getByLabelText('Payment rule'), 'Minimum of');
    await user.type(within(dialog).getByLabelText('Payment amount'), '35');
    await user.type(within(dialog).getByLabelText('Credit limit (optional)'), '1000');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(accounts.addAccount).toHaveBeenCalledWith({
        name: 'Visa',
        kind: 'CARD',
        card: { closingDay: 20, dueDay: 15, payFromAccountId: 'c1', rule: 'MINIMUM', amount: 35, creditLimit: 1000 },
      }),
    );
    expect(onError).toHaveBeenCalledWith(refusal);
    expect(await within(dialog).findByText('Pay From must be the id of one of your accounts that is not a card.')).toBeInTheDocument();
  });

  it("shows a card's settings as stored, sends the changed ones, and shows the server's field messages", async () => {
    const card = { closingDay: 20, dueDay: 15, payFromAccountId: 'c1' } as const;
    const minimum = accountInfo({ ...VISA, card: { ...card, rule: 'MINIMUM', amount: 35, creditLimit: 1000 } });
    const changed = accountInfo({
      ...VISA,
      card: { ...card, closingDay: 25, dueDay: 18, rule: 'FIXED', amount: 120.5, creditLimit: 1000 },
    });
    const refusal = new ApiCallError('updateAccount', 400, 'Some fields need attention.', {
      'card.payFromAccountId': 'Pay From must be the id of one of your accounts that is not a card.',
    });
    const accounts = fakeAccountsApi({
      updateCard: vi.fn<FakeAccountsApi['updateCard']>().mockRejectedValueOnce(refusal).mockResolvedValueOnce(accountView(changed)),
      listAccounts: vi.fn(() => Promise.resolve(accountsAnswer({ accounts: [CHECKING, SAVINGS, changed] }))),
    });
    const { user, onError } = renderAccounts(accounts, accountsAnswer({ accounts: [CHECKING, SAVINGS, minimum] }));
    // Only a card has card settings.
    expect(screen.queryByRole('button', { name: 'Card settings of Savings' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Card settings of Visa' }));
    const dialog = await findOpenDialog('Visa Card Settings');
    expect(within(dialog).getByLabelText('Closing day')).toHaveValue('20');
    expect(within(dialog).getByLabelText('Payment due day')).toHaveValue('15');
    expect(within(dialog).getByLabelText('Pay from')).toHaveDisplayValue('Checking');
    expect(within(dialog).getByLabelText('Payment rule')).toHaveDisplayValue('Minimum of');
    expect(within(dialog).getByLabelText('Payment amount')).toHaveDisplayValue('35.00');
    expect(within(dialog).getByLabelText('Credit limit (optional)')).toHaveDisplayValue('1000.00');

    await user.clear(within(dialog).getByLabelText('Closing day'));
    await user.type(within(dialog).getByLabelText('Closing day'), '32');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByLabelText('Closing day')).toHaveAccessibleDescription(
      expect.stringContaining('Closing Day must be a whole number from 1 to 31.'),
    );
    expect(accounts.updateCard).not.toHaveBeenCalled();

    await user.clear(within(dialog).getByLabelText('Closing day'));
    await user.type(within(dialog).getByLabelText('Closing day'), '25');
    await user.clear(within(dialog).getByLabelText('Payment due day'));
    await user.type(within(dialog).getByLabelText('Payment due day'), '18');
    await user.selectOptions(within(dialog).getByLabelText('Payment rule'), 'FIXED');
    await user.clear(within(dialog).getByLabelText('Payment amount'));
    await user.type(within(dialog).getByLabelText('Payment amount'), '120.50');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const sent = { closingDay: 25, dueDay: 18, payFromAccountId: 'c1', rule: 'FIXED', amount: 120.5, creditLimit: 1000 };
    await waitFor(() => expect(accounts.updateCard).toHaveBeenCalledWith('v1', sent));
    expect(onError).toHaveBeenCalledWith(refusal);
    expect(await within(dialog).findByText('Pay From must be the id of one of your accounts that is not a card.')).toBeInTheDocument();

    // The same values again, now accepted: the dialog closes and the accounts are read again.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitForDialogToClose('Visa Card Settings');
    expect(accounts.updateCard).toHaveBeenCalledTimes(2);
    expect(accounts.listAccounts).toHaveBeenCalledTimes(1);
  });

  it('renames an account and makes another primary', async () => {
    const renamed = accountInfo({ ...SAVINGS, name: 'Rainy day' });
    const renamedView = accountView(renamed);
    const accounts = fakeAccountsApi({
      renameAccount: vi.fn(() => Promise.resolve(renamedView)),
      makePrimary: vi.fn(() => Promise.resolve(renamedView)),
      listAccounts: vi
        .fn<FakeAccountsApi['listAccounts']>()
        .mockResolvedValueOnce(accountsAnswer({ accounts: [CHECKING, renamed] }))
        .mockResolvedValueOnce(
          accountsAnswer({
            accounts: [
              { ...CHECKING, primary: false },
              { ...renamed, primary: true },
            ],
          }),
        ),
    });
    const { user } = renderAccounts(accounts, accountsAnswer({ accounts: [CHECKING, SAVINGS] }));
    await user.click(screen.getByRole('button', { name: 'Rename Savings' }));
    const dialog = await findOpenDialog('Rename Account');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Savings');
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Rainy day');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitForDialogToClose('Rename Account');
    expect(accounts.renameAccount).toHaveBeenCalledWith('s1', 'Rainy day');

    await user.click(await screen.findByRole('button', { name: 'Make Rainy day primary' }));
    expect(accounts.makePrimary).toHaveBeenCalledWith('s1');
    expect(await screen.findByRole('rowheader', { name: 'Rainy day Primary' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Make Checking primary' })).toBeInTheDocument();
  });

  it('deletes an account only once its name is typed, and answers the accounts left', async () => {
    const accounts = fakeAccountsApi({ removeAccount: vi.fn(() => Promise.resolve(accountsAnswer({ accounts: [CHECKING] }))) });
    const { user } = renderAccounts(accounts, accountsAnswer({ accounts: [CHECKING, SAVINGS] }));
    await user.click(screen.getByRole('button', { name: 'Delete Savings' }));
    const dialog = await findOpenDialog('Delete Account');
    expect(dialog).toHaveTextContent('Delete the account Savings and its ledger? This cannot be undone.');
    const confirm = within(dialog).getByLabelText("Type the account's name to confirm");
    await user.type(confirm, 'Saving');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveAccessibleDescription('Type Savings to delete it.');
    expect(accounts.removeAccount).not.toHaveBeenCalled();
    await user.type(confirm, 's');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitForDialogToClose('Delete Account');
    expect(accounts.removeAccount).toHaveBeenCalledWith('s1', 'Savings');
    expect(screen.queryByRole('rowheader', { name: 'Savings' })).not.toBeInTheDocument();
    // The last account cannot be deleted: no Delete is offered.
    expect(screen.queryByRole('button', { name: 'Delete Checking' })).not.toBeInTheDocument();
  });
});
