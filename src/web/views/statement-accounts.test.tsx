/**
 * Statements into the right account (issue 25 item 6, decision 0046), as the Ledger view composes
 * the Import Statement dialog: an "Account" field with more than one account, starting at the
 * account shown; an OFX file whose bank account went into another account before preselects it
 * (unless the user chose); the preview, the rows it may match and the import all go to the chosen
 * account's calls; and after an import into another account, that account's ledger is shown.
 */
import type { ReactElement } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerInfoView } from '../../contract/codecs.js';
import type { StatementImportView } from '../../contract/statement-codecs.js';
import type { StatementPreview, StatementRowInfo } from '../../contract/statements.js';
import { isoDate } from '../../domain/calendar-date.js';
import { cents } from '../../domain/money.js';
import { AccountsApiProvider, type AccountsApi } from '../api/account-calls.js';
import type { Endpoints } from '../api/api-client.js';
import { ApiClientProvider } from '../api/api-context.js';
import { ledgerInfo, setWindowWidth, transaction } from '../features/ledger/ledger-test-support.js';
import { accountInfo, accountsAnswer, depositsAnswer, expensesAnswer, statementPreviewAnswer } from '../test-support/answers.js';
import { fakeAccountsApi, fakeApiClient, type FakeApiClient } from '../test-support/fake-api-client.js';
import { LedgerView } from './ledger-view.js';

const NO_DEPOSITS = depositsAnswer({ deposits: [], totalDeposits: 0 });
const NO_EXPENSES = expensesAnswer({ expenses: [], totalExpenses: 0 });
const CHECKING = accountInfo({ id: 'c1', name: 'Checking', primary: true });
const SAVINGS = accountInfo({ id: 's1', name: 'Savings', kind: 'SAVINGS' });
const CASH = accountInfo({ id: 'k1', name: 'Cash', kind: 'CASH' });
const ACCOUNTS = accountsAnswer({ accounts: [CHECKING, SAVINGS, CASH] });

const CHECKING_RENT = transaction({ id: 'c-rent', name: 'Rent', date: '2026-03-01', amount: 1200 });
const SAVINGS_RENT = transaction({ id: 's-rent', name: 'Rent share', date: '2026-03-01', amount: 1200 });
const CASH_RENT = transaction({ id: 'k-rent', name: 'Rent in cash', date: '2026-03-01', amount: 1200 });

function row(fields: Partial<StatementRowInfo> & Pick<StatementRowInfo, 'index' | 'action'>): StatementRowInfo {
  return { date: '2026-03-02', description: 'OAKWOOD APTS', type: 'D', amount: 1200, ...fields };
}

/** A preview of the same one-row file, matched in the account whose rent row is given. */
function previewMatching(matchId: string, fileAccount?: StatementPreview['fileAccount']): StatementPreview {
  return {
    format: 'ofx',
    needsMapping: false,
    rows: [row({ index: 0, action: 'match', matchId })],
    bank: { balance: 800, date: '2026-03-02' },
    reconciliation: null,
    ...(fileAccount && { fileAccount }),
  };
}

/** Each account's ledger calls, as the view gets them: the primary through the client itself, the others through withEndpoints. */
function threeAccounts() {
  const clients: Record<string, FakeApiClient> = {};
  const clientWith = (info: LedgerInfoView) => {
    const client = fakeApiClient();
    client.getDeposits.mockResolvedValue(NO_DEPOSITS);
    client.getExpenses.mockResolvedValue(NO_EXPENSES);
    client.getLedger.mockResolvedValue(info);
    return client;
  };
  const api = clientWith(ledgerInfo([CHECKING_RENT]));
  clients.c1 = clientWith(ledgerInfo([CHECKING_RENT]));
  clients.s1 = clientWith(ledgerInfo([SAVINGS_RENT]));
  clients.k1 = clientWith(ledgerInfo([CASH_RENT]));
  api.withEndpoints.mockImplementation((at: Endpoints) => {
    const id = /\/api\/accounts\/([^/]+)\//.exec(at('getLedger').path)?.[1] ?? '';
    const client = clients[id];
    if (!client) throw new Error(`no client for ${id}`);
    return client;
  });
  return { api, savings: clients.s1, cash: clients.k1 };
}

function renderView(api: FakeApiClient, accounts: AccountsApi, view: ReactElement) {
  render(
    <ApiClientProvider client={api}>
      <AccountsApiProvider value={accounts}>{view}</AccountsApiProvider>
    </ApiClientProvider>,
  );
  return userEvent.setup();
}

const listing = (answer = ACCOUNTS) => fakeAccountsApi({ listAccounts: vi.fn(() => Promise.resolve(answer)) });
const statementFile = () => new File(['OFXHEADER:100\n<OFX>'], 'checking.ofx', { type: 'application/octet-stream' });
const FILE_REQUEST = { fileName: 'checking.ofx', content: 'OFXHEADER:100\n<OFX>' };

async function openImport(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByText('Rent');
  await user.click(screen.getByRole('button', { name: 'Import' }));
  return screen.findByRole('dialog', { name: 'Import Statement' });
}

const oakwood = (dialog: HTMLElement) =>
  within(dialog).findByRole('combobox', { name: 'What happens to OAKWOOD APTS on Mon, Mar 2, 2026' });

function importAnswer(info: LedgerInfoView): StatementImportView {
  return { ...info, imported: { matched: 1, added: 0, duplicates: 0, outside: 0, skipped: 0 }, bank: null, reconciliation: null };
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

describe('Import Statement with more than one account', () => {
  it('asks for the Account, starting at the one shown, and previews and imports there when it is kept', async () => {
    const { api } = threeAccounts();
    api.previewStatement.mockResolvedValue(statementPreviewAnswer(previewMatching('c-rent', { ending: '6789', accountId: null })));
    api.importStatement.mockResolvedValue(importAnswer(ledgerInfo([{ ...CHECKING_RENT, status: 'CLEARED' }])));
    const user = renderView(api, listing(), <LedgerView />);
    const dialog = await openImport(user);

    const account = within(dialog).getByRole('combobox', { name: 'Account' });
    expect(account).toHaveDisplayValue('Checking');
    expect(
      within(account)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Checking', 'Savings', 'Cash']);
    expect(account).toHaveAccessibleDescription("The statement is matched against this account's ledger only.");

    await userEvent.upload(within(dialog).getByLabelText('Statement file'), statementFile());
    expect(await oakwood(dialog)).toHaveDisplayValue('Matches Rent (Sun, Mar 1, 2026)');
    expect(api.previewStatement).toHaveBeenCalledWith(FILE_REQUEST);
    // A bank account never imported before: shown by its ending, and the account stays as it was.
    expect(account).toHaveDisplayValue('Checking');
    expect(account).toHaveAccessibleDescription(
      'This file is for account …6789. The account you import it into will be chosen for it next time.',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(api.importStatement).toHaveBeenCalledWith(FILE_REQUEST);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import Statement' })).toBeNull());
    expect(window.location.search).toBe('');
  });

  it('preselects the account the file’s bank account went into before, previews against its rows, imports there and shows it', async () => {
    const { api, savings } = threeAccounts();
    api.previewStatement.mockResolvedValue(statementPreviewAnswer(previewMatching('c-rent', { ending: '6789', accountId: 's1' })));
    savings.previewStatement.mockResolvedValue(statementPreviewAnswer(previewMatching('s-rent', { ending: '6789', accountId: 's1' })));
    const cleared = ledgerInfo([{ ...SAVINGS_RENT, status: 'CLEARED' }], { openingBalance: 2000 });
    savings.importStatement.mockResolvedValue({ ...importAnswer(cleared), bank: { balance: cents(80_000), date: isoDate('2026-03-02') } });
    const user = renderView(api, listing(), <LedgerView />);
    const dialog = await openImport(user);
    await userEvent.upload(within(dialog).getByLabelText('Statement file'), statementFile());

    const account = within(dialog).getByRole('combobox', { name: 'Account' });
    await waitFor(() => expect(account).toHaveDisplayValue('Savings'));
    expect(account).toHaveAccessibleDescription('This file is for account …6789, imported into Savings before.');
    // The preview is Savings': its matches name Savings' rows, which are read for the choices.
    expect(await oakwood(dialog)).toHaveDisplayValue('Matches Rent share (Sun, Mar 1, 2026)');
    expect(savings.previewStatement).toHaveBeenCalledWith(FILE_REQUEST);
    expect(savings.getLedger).toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(savings.importStatement).toHaveBeenCalledWith(FILE_REQUEST);
    expect(api.importStatement).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import Statement' })).toBeNull());
    // Savings is shown now, with what the bank said.
    await waitFor(() => expect(window.location.search).toBe('?account=s1'));
    expect(await screen.findByText('Rent share')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Account' })).toHaveDisplayValue('Savings');
    // Its words load on demand (ledger-header.tsx).
    await waitFor(() => expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Bank balance $800.00 on Mon, Mar 2, 2026'));
  });

  it('keeps the account the user chose over the remembered one, and previews again in an account chosen later', async () => {
    const { api, savings, cash } = threeAccounts();
    cash.previewStatement.mockResolvedValue(statementPreviewAnswer(previewMatching('k-rent', { ending: '6789', accountId: 's1' })));
    savings.previewStatement.mockResolvedValue(statementPreviewAnswer(previewMatching('s-rent', { ending: '6789', accountId: 's1' })));
    const user = renderView(api, listing(), <LedgerView />);
    const dialog = await openImport(user);
    const account = within(dialog).getByRole('combobox', { name: 'Account' });
    await user.selectOptions(account, 'Cash');
    await userEvent.upload(within(dialog).getByLabelText('Statement file'), statementFile());

    expect(await oakwood(dialog)).toHaveDisplayValue('Matches Rent in cash (Sun, Mar 1, 2026)');
    expect(account).toHaveDisplayValue('Cash');
    expect(account).toHaveAccessibleDescription('This file is for account …6789, imported into Savings before.');
    expect(cash.previewStatement).toHaveBeenCalledWith(FILE_REQUEST);
    expect(savings.previewStatement).not.toHaveBeenCalled();
    expect(api.previewStatement).not.toHaveBeenCalled();

    // Choosing Savings now previews the file there, against Savings' rows.
    await user.selectOptions(account, 'Savings');
    await waitFor(async () => expect(await oakwood(dialog)).toHaveDisplayValue('Matches Rent share (Sun, Mar 1, 2026)'));
    expect(savings.previewStatement).toHaveBeenCalledWith(FILE_REQUEST);
  });

  it('asks nothing of a user with one account', async () => {
    const { api } = threeAccounts();
    api.previewStatement.mockResolvedValue(statementPreviewAnswer(previewMatching('c-rent')));
    const user = renderView(api, listing(accountsAnswer({ accounts: [CHECKING] })), <LedgerView />);
    const dialog = await openImport(user);
    expect(within(dialog).queryByRole('combobox', { name: 'Account' })).toBeNull();
    await userEvent.upload(within(dialog).getByLabelText('Statement file'), statementFile());
    expect(await oakwood(dialog)).toHaveDisplayValue('Matches Rent (Sun, Mar 1, 2026)');
    expect(api.withEndpoints).not.toHaveBeenCalled();
  });
});
