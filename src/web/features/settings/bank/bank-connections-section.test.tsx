/**
 * Bank connections in Settings (issue 37) as a user meets it: connect with a Setup Token (and the
 * issue's words for one claimed before), each bridge account with its balance, linked to an
 * account, a new one or nothing, one in another currency never linkable; the connection's state,
 * last sync, Sync now with the server's words when it refuses, and Disconnect. The network is
 * stubbed at the page's calls only (Settings', the accounts' and the bank's).
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AccountView } from '../../../../contract/account-codecs.js';
import { DOLLARS_ONLY, NOT_YOUR_BANK_CONNECTION, SETUP_TOKEN_ALREADY_USED } from '../../../../contract/bank-connections.js';
import type { NotificationSettings } from '../../../../contract/notifications.js';
import { cents } from '../../../../domain/money.js';
import { AccountsApiProvider } from '../../../api/account-calls.js';
import { ApiCallError } from '../../../api/api-client.js';
import { ApiClientProvider } from '../../../api/api-context.js';
import { type BankApi, BankApiProvider, type BankConnectionView } from '../../../api/bank-calls.js';
import { SettingsApiProvider } from '../../../api/settings-calls.js';
import { findOpenDialog } from '../../../test-support/dialog-queries.js';
import { fakeAccountsApi, fakeApiClient, type FakeBankApi, fakeBankApi, fakeSettingsApi } from '../../../test-support/fake-api-client.js';
import { SettingsButton } from '../settings-button.js';

const SETTINGS: NotificationSettings = {
  timeZone: 'Pacific/Niue',
  hour: 8,
  belowZero: true,
  billsDue: false,
  channels: [],
  available: ['WEBHOOK'],
};

const CHECKING: AccountView = {
  id: 'a1',
  name: 'Everyday',
  kind: 'CHECKING',
  currentBalance: cents(100_000),
  pendingBalance: cents(100_000),
  primary: true,
  card: null,
};

const CONNECTION: BankConnectionView = {
  id: 'conn-1',
  yours: true,
  madeBy: 'Sam',
  status: { state: 'Connected', reason: null, scheduled: true },
  lastSync: null,
  accounts: [
    {
      id: 'ACT-1234',
      institution: 'Simple Bank',
      name: 'Checking',
      last4: '1234',
      balance: cents(10_050),
      currency: 'USD',
      accountId: null,
    },
    {
      id: 'ACT-9876',
      institution: 'Simple Bank',
      name: 'Euro Savings',
      last4: '9876',
      balance: cents(120_000),
      currency: 'EUR',
      accountId: null,
    },
  ],
};

const linkedTo = (connection: BankConnectionView, accountId: string | null): BankConnectionView => ({
  ...connection,
  accounts: connection.accounts.map((account) => (account.id === 'ACT-1234' ? { ...account, accountId } : account)),
});

async function openBankConnections(stubs: Partial<FakeBankApi> = {}, accounts: readonly AccountView[] = [CHECKING]) {
  const bank = fakeBankApi({ listConnections: vi.fn(async () => ({ connections: [] })), ...stubs });
  const accountsApi = fakeAccountsApi({ listAccounts: vi.fn(async () => ({ accounts: [...accounts] })) });
  const settings = fakeSettingsApi({
    getNotifications: vi.fn(async () => SETTINGS),
    updateTimeZone: vi.fn(async (timeZone: string) => ({ subject: 'me', name: null, timeZone, buffer: 0, everydaySpending: null })),
  });
  render(
    <ApiClientProvider client={fakeApiClient()}>
      <SettingsApiProvider value={settings}>
        <AccountsApiProvider value={accountsApi}>
          <BankApiProvider value={bank}>
            <SettingsButton />
          </BankApiProvider>
        </AccountsApiProvider>
      </SettingsApiProvider>
    </ApiClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Settings' }));
  const dialog = await findOpenDialog('Settings');
  const section = (await within(dialog).findByRole('heading', { name: 'Bank connections' })).closest('section');
  if (!section) throw new Error('Bank connections is not a section');
  // The form shows once the connections are read.
  await within(section).findByRole('button', { name: 'Connect with SimpleFIN' });
  return { bank, accountsApi, user, section };
}

async function connectionItem(section: HTMLElement, name = 'Simple Bank'): Promise<HTMLElement> {
  return within(section).findByRole('listitem', { name });
}

describe('Bank connections', () => {
  it("shows another member's connection with its links, Sync now and Disconnect disabled, saying why (decision 0100)", async () => {
    const { section } = await openBankConnections({
      listConnections: vi.fn(async () => ({ connections: [{ ...linkedTo(CONNECTION, 'a1'), yours: false, madeBy: 'Alex' }] })),
    });
    const connection = await connectionItem(section);
    expect(within(connection).getByText('Connected by Alex')).toBeVisible();
    expect(within(connection).getByText(NOT_YOUR_BANK_CONNECTION)).toBeVisible();
    for (const name of ['Sync now', 'Disconnect']) {
      const button = within(connection).getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(NOT_YOUR_BANK_CONNECTION);
    }
    const checking = within(connection).getByRole('listitem', { name: 'Checking …1234' });
    expect(within(checking).getByRole('combobox', { name: 'Link to' })).toBeDisabled();
    expect(within(checking).getByRole('combobox', { name: 'Link to' })).toHaveDisplayValue('Everyday');
  });

  it('connects with a pasted Setup Token and lists the bridge accounts with institution, last four, balance and currency', async () => {
    const { bank, user, section } = await openBankConnections({ connect: vi.fn(async () => CONNECTION) });
    expect(within(section).getByText('No banks connected yet.')).toBeInTheDocument();

    await user.type(within(section).getByRole('textbox', { name: 'Setup Token' }), '  aHR0cHM6Ly9icmlkZ2UuZXhhbXBsZS9jbGFpbQ==  ');
    await user.click(within(section).getByRole('button', { name: 'Connect with SimpleFIN' }));

    expect(bank.connect).toHaveBeenCalledWith('aHR0cHM6Ly9icmlkZ2UuZXhhbXBsZS9jbGFpbQ==');
    expect(
      await within(section).findByText('Connected. Link each account to one of yours below; Leftover syncs the linked ones.'),
    ).toHaveAttribute('role', 'status');
    expect(within(section).getByRole('textbox', { name: 'Setup Token' })).toHaveValue('');

    const connection = await connectionItem(section);
    expect(within(connection).getByText('Connected')).toBeInTheDocument();
    expect(within(connection).getByText('Last sync: not yet.')).toBeInTheDocument();
    const checking = within(connection).getByRole('listitem', { name: 'Checking …1234' });
    expect(checking).toHaveTextContent('Simple Bank');
    expect(checking).toHaveTextContent('$100.50 USD');
    expect(within(checking).getByRole('combobox', { name: 'Link to' })).toHaveDisplayValue('Not linked');

    // Another currency: listed with its balance, and nothing to link it with.
    const euros = within(connection).getByRole('listitem', { name: 'Euro Savings …9876' });
    expect(euros).toHaveTextContent('€1,200.00 EUR');
    expect(within(euros).getByText(DOLLARS_ONLY)).toBeInTheDocument();
    expect(within(euros).queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('says, beside the field, the issue’s words for a Setup Token claimed before, and keeps what was pasted', async () => {
    const { user, section } = await openBankConnections({
      connect: vi.fn(async () => {
        throw new ApiCallError('connectBank', 400, SETUP_TOKEN_ALREADY_USED, { setupToken: SETUP_TOKEN_ALREADY_USED });
      }),
    });
    const token = within(section).getByRole('textbox', { name: 'Setup Token' });
    await user.type(token, 'dXNlZA==');
    await user.click(within(section).getByRole('button', { name: 'Connect with SimpleFIN' }));

    await waitFor(() => expect(token).toHaveAttribute('aria-invalid', 'true'));
    expect(token).toHaveAccessibleDescription(expect.stringContaining(SETUP_TOKEN_ALREADY_USED));
    expect(token).toHaveValue('dXNlZA==');
    expect(within(section).queryByRole('listitem')).not.toBeInTheDocument();
  });

  it('asks for a Setup Token before sending an empty one', async () => {
    const { bank, user, section } = await openBankConnections();
    await user.click(within(section).getByRole('button', { name: 'Connect with SimpleFIN' }));
    const token = within(section).getByRole('textbox', { name: 'Setup Token' });
    await waitFor(() => expect(token).toHaveAttribute('aria-invalid', 'true'));
    expect(token).toHaveAccessibleDescription(expect.stringContaining('Setup Token is required'));
    expect(bank.connect).not.toHaveBeenCalled();
  });

  it('links a bridge account to an existing account, to a new one of a chosen kind, and unlinks it', async () => {
    const { bank, accountsApi, user, section } = await openBankConnections({
      listConnections: vi.fn(async () => ({ connections: [CONNECTION] })),
      linkAccount: vi.fn<BankApi['linkAccount']>(async (_id, _remoteId, link) =>
        linkedTo(CONNECTION, 'newAccount' in link && link.newAccount ? 'a2' : (link.accountId ?? null)),
      ),
    });
    const connection = await connectionItem(section);
    const checking = within(connection).getByRole('listitem', { name: 'Checking …1234' });
    const choice = within(checking).getByRole('combobox', { name: 'Link to' });
    await waitFor(() => expect(within(choice).getByRole('option', { name: 'Everyday' })).toBeInTheDocument());

    await user.selectOptions(choice, 'Everyday');
    await user.click(within(checking).getByRole('button', { name: 'Save link' }));
    expect(bank.linkAccount).toHaveBeenLastCalledWith('conn-1', 'ACT-1234', { accountId: 'a1' });
    expect(await within(checking).findByText('Linked to Everyday.')).toBeInTheDocument();

    // A new account: named after the bridge's account unless changed, of the kind chosen.
    accountsApi.listAccounts.mockResolvedValue({
      accounts: [CHECKING, { ...CHECKING, id: 'a2', name: 'Bank savings', kind: 'SAVINGS', primary: false }],
    });
    await user.selectOptions(choice, 'A new account…');
    const name = within(checking).getByRole('textbox', { name: "New account's name" });
    expect(name).toHaveValue('Checking');
    await user.clear(name);
    await user.type(name, 'Bank savings');
    await user.selectOptions(within(checking).getByRole('combobox', { name: 'Kind' }), 'Savings');
    await user.click(within(checking).getByRole('button', { name: 'Save link' }));
    expect(bank.linkAccount).toHaveBeenLastCalledWith('conn-1', 'ACT-1234', { newAccount: { name: 'Bank savings', kind: 'SAVINGS' } });
    expect(await within(checking).findByText('Linked to a new account, Bank savings.')).toBeInTheDocument();
    // The accounts are read again, and the choice is the new account.
    await waitFor(() => expect(choice).toHaveDisplayValue('Bank savings'));

    await user.selectOptions(choice, 'Not linked');
    await user.click(within(checking).getByRole('button', { name: 'Save link' }));
    expect(bank.linkAccount).toHaveBeenLastCalledWith('conn-1', 'ACT-1234', { accountId: null });
    expect(await within(checking).findByText('Not linked: Leftover does not sync it.')).toBeInTheDocument();
  });

  it('shows "Needs attention" with the reason, the last sync with its figures, warnings and balance checks', async () => {
    const troubled: BankConnectionView = {
      ...linkedTo(CONNECTION, 'a1'),
      status: { state: 'Needs attention', reason: 'The bridge answered 402: its subscription needs paying.', scheduled: false },
      lastSync: {
        at: '2026-11-21T19:00:00.000Z',
        trigger: 'schedule',
        added: 3,
        matched: 2,
        replaced: 1,
        flagged: 0,
        warnings: ['Euro Savings is not in dollars: not synced.'],
        failure: null,
        balances: [{ remoteId: 'ACT-1234', text: "Matches the bank's balance of $100.50 on Sat, Nov 21, 2026" }],
      },
    };
    const { section } = await openBankConnections({ listConnections: vi.fn(async () => ({ connections: [troubled] })) });
    const connection = await connectionItem(section);
    expect(within(connection).getByText('Needs attention')).toBeInTheDocument();
    expect(within(connection).getByText('The bridge answered 402: its subscription needs paying.')).toBeInTheDocument();
    expect(within(connection).getByText(/Leftover no longer syncs it on its own/)).toBeInTheDocument();
    // When, in the user's zone: 19:00 UTC is 8:00 AM in Niue (UTC-11).
    expect(
      within(connection).getByText(
        'Last sync: Nov 21, 2026, 8:00 AM (scheduled): 3 added, 2 matched, 1 replaced, 0 no longer at the bank.',
      ),
    ).toBeInTheDocument();
    expect(within(connection).getByRole('list', { name: 'Warnings of the last sync of Simple Bank' })).toHaveTextContent(
      'Euro Savings is not in dollars: not synced.',
    );
    expect(within(connection).getByText("Checking: Matches the bank's balance of $100.50 on Sat, Nov 21, 2026")).toBeInTheDocument();
  });

  it('syncs now and says what it did; a refusal (once a minute, the bridge failing) says the server’s words', async () => {
    const tooSoon = 'Sync now works once a minute for each connection. Try again in a minute.';
    const failed = 'The bridge answered 403: the access was revoked. Connect again with a new Setup Token.';
    const syncNow = vi
      .fn<BankApi['syncNow']>()
      .mockResolvedValueOnce({ added: 2, matched: 1, replaced: 0, flagged: 0, warnings: ['Savings was skipped by the bank.'] })
      .mockRejectedValueOnce(new ApiCallError('syncBankConnection', 429, tooSoon))
      .mockRejectedValueOnce(new ApiCallError('syncBankConnection', 409, failed));
    const { bank, user, section } = await openBankConnections({
      listConnections: vi.fn(async () => ({ connections: [linkedTo(CONNECTION, 'a1')] })),
      syncNow,
    });
    const connection = await connectionItem(section);
    const result = within(connection).getAllByRole('status').at(-1);
    const press = () => user.click(within(connection).getByRole('button', { name: 'Sync now' }));

    await press();
    await waitFor(() =>
      expect(result).toHaveTextContent(
        'Synced: 2 added, 1 matched, 0 replaced, 0 no longer at the bank. 1 warning: Savings was skipped by the bank.',
      ),
    );
    await press();
    await waitFor(() => expect(result).toHaveTextContent(`Failed to sync with the bank! ${tooSoon}`));
    await press();
    await waitFor(() => expect(result).toHaveTextContent(`Failed to sync with the bank! ${failed}`));
    expect(syncNow.mock.calls).toEqual([['conn-1'], ['conn-1'], ['conn-1']]);
    // Each press reads the connection again: its state and last sync as the server now has them.
    expect(bank.listConnections).toHaveBeenCalledTimes(4);
  });

  it('disconnects only once asked again, and lists what is left', async () => {
    const { bank, user, section } = await openBankConnections({
      listConnections: vi.fn(async () => ({ connections: [CONNECTION] })),
      disconnect: vi.fn(async () => ({ connections: [] })),
    });
    const connection = await connectionItem(section);
    await user.click(within(connection).getByRole('button', { name: 'Disconnect' }));
    const asked = within(connection).getByRole('group', { name: 'Disconnect Simple Bank?' });
    expect(within(asked).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    await user.click(within(asked).getByRole('button', { name: 'Keep it' }));
    expect(bank.disconnect).not.toHaveBeenCalled();

    await user.click(within(connection).getByRole('button', { name: 'Disconnect' }));
    await user.click(within(connection).getByRole('button', { name: 'Yes, disconnect' }));
    expect(bank.disconnect).toHaveBeenCalledWith('conn-1');
    await waitFor(() => expect(within(section).queryByRole('listitem', { name: 'Simple Bank' })).not.toBeInTheDocument());
    expect(within(section).getByText('No banks connected yet.')).toBeInTheDocument();
  });
});
