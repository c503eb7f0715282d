import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiCallError } from '../../api/api-client.js';
import { isoDate } from '../../../domain/calendar-date.js';
import { fakeApiClient } from '../../test-support/fake-api-client.js';
import { ledgerInfo, renderLedger, setWindowWidth, transaction } from './ledger-test-support.js';

const JSDOM_WIDTH = window.innerWidth;

beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

const rent = () => transaction({ id: 'rent', name: 'Rent', date: '2026-03-01', type: 'D', amount: 1200, balance: 2300, status: 'PENDING' });
const paycheck = () =>
  transaction({ id: 'pay', name: 'Acme Paycheck', date: '2026-03-01', type: 'C', amount: 1500, balance: 3500, status: 'PAID' });
const groceries = () =>
  transaction({ id: 'groceries', name: 'Kroger', date: '2026-03-03', type: 'D', amount: 85.5, balance: 2214.5, status: 'CLEARED' });

function rowOf(name: string): HTMLElement {
  const row = screen.getByRole('cell', { name: new RegExp(`^${name}`) }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

describe('LedgerSection without a ledger', () => {
  it('shows only the New Ledger button and a short line', () => {
    renderLedger({ ledger: null });
    expect(screen.getAllByRole('button')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'New Ledger' })).toBeVisible();
    expect(screen.getByText(/No ledger yet/)).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('offers New Ledger too while the ledger has not loaded', () => {
    renderLedger(null);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['New Ledger']);
    expect(screen.getByText('The ledger has not loaded.')).toBeVisible();
  });
});

describe('LedgerSection header', () => {
  it('shows both balances and the five buttons', () => {
    renderLedger(ledgerInfo([rent()], { currentBalance: 1234.5, pendingBalance: -20 }));
    expect(screen.getByRole('definition', { name: 'Current Balance' })).toHaveTextContent('$1,234.50');
    expect(screen.getByRole('definition', { name: 'Pending Balance' })).toHaveTextContent('-$20.00');
    for (const name of ['New Ledger', 'Extend', 'Add Transaction', 'Refresh', 'Filter']) {
      expect(screen.getByRole('button', { name })).toBeEnabled();
    }
  });

  it('Export CSV downloads the ledger under its dates, and a failed download goes to the shell', async () => {
    const user = userEvent.setup();
    const api = fakeApiClient();
    const csv = new Blob(['Date,Name,Type,Debit,Credit,Balance,Status\n']);
    api.exportLedgerCsv.mockResolvedValueOnce(csv).mockRejectedValueOnce(new ApiCallError('exportLedgerCsvPrimary', 0, 'Offline.'));
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:ledger');
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function saved(this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { onError } = renderLedger(ledgerInfo([rent()], { startDate: '2026-03-01', endDate: '2026-12-31' }), api);

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toEqual(['leftover-ledger-2026-03-01-to-2026-12-31.csv']));
    expect(createObjectURL).toHaveBeenCalledWith(csv);

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(names).toHaveLength(1);
    click.mockRestore();
    createObjectURL.mockRestore();
  });

  it('Refresh asks the shell to reload the ledger', async () => {
    const user = userEvent.setup();
    const { onRefresh } = renderLedger(ledgerInfo([rent()]));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(onRefresh).toHaveBeenCalledTimes(1);
  });
});

describe('LedgerSection table (1100 px and wider)', () => {
  it('has the six columns and a row per transaction with debit, credit and balance', () => {
    renderLedger(ledgerInfo([paycheck(), rent(), groceries()]));
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Date', 'Name', 'Debit', 'Credit', 'Balance', 'Actions']);
    expect(
      within(rowOf('Rent'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Sun, Mar 1, 2026', 'Rent ○Unpaid', '$1,200.00', '', '$2,300.00', 'EditPayClearDelete']);
    // People read the date in US style; the machine-readable date stays with it.
    expect(within(rowOf('Rent')).getByText('Sun, Mar 1, 2026')).toHaveAttribute('datetime', '2026-03-01');
    expect(within(rowOf('Acme Paycheck')).getAllByRole('cell')[3]).toHaveTextContent('$1,500.00');
  });

  it('marks paycheck rows with a divider and paid or cleared rows with words, not colour alone', () => {
    renderLedger(ledgerInfo([paycheck(), rent(), groceries()]));
    expect(rowOf('Acme Paycheck')).toHaveClass('ledger-row--paycheck');
    expect(rowOf('Rent')).not.toHaveClass('ledger-row--paycheck');
    expect(within(rowOf('Acme Paycheck')).getByText('Paid')).toBeVisible();
    expect(within(rowOf('Kroger')).getByText('Cleared')).toBeVisible();
    expect(within(rowOf('Rent')).getByText('Unpaid')).toBeVisible();
    expect(rowOf('Kroger')).toHaveClass('ledger-row--cleared');
  });

  it('enables Edit, Pay, Clear and Delete by status', () => {
    renderLedger(ledgerInfo([paycheck(), rent(), groceries()]));
    const enabled = (name: string) =>
      ['Edit', 'Pay', 'Clear', 'Delete'].map((action) => screen.getByRole('button', { name: `${action} ${name}` }).matches(':enabled'));
    expect(enabled('Rent')).toEqual([true, true, true, true]);
    expect(enabled('Acme Paycheck')).toEqual([false, false, true, false]);
    expect(enabled('Kroger')).toEqual([false, false, false, false]);
  });
});

describe('LedgerSection status moves', () => {
  it('Pay sends the row (its balance is derived, so not sent) with status PAID and hands the answer to the shell', async () => {
    const user = userEvent.setup();
    const answer = ledgerInfo([{ ...rent(), status: 'PAID' }], { pendingBalance: 800 });
    const shown = ledgerInfo([rent()]);
    const view = renderLedger(shown);
    view.api.updateTransaction.mockResolvedValue(answer);

    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));

    expect(view.api.updateTransaction).toHaveBeenCalledWith(
      {
        id: 'rent',
        date: '2026-03-01',
        name: 'Rent',
        type: 'D',
        amount: 1200,
        status: 'PAID',
      },
      expect.any(Function),
      'Paid Rent.',
    );
    await waitFor(() => expect(view.onChange).toHaveBeenCalledWith(answer));
    expect(view.onError).not.toHaveBeenCalled();
    // The changes of the next write apply to the ledger the section holds: the answer it just took,
    // before the shell has drawn it (decision 0030).
    const heldLedger = view.api.updateTransaction.mock.calls[0]?.[1];
    expect(heldLedger?.()).toBe(answer.ledger);
    // A ledger the shell hands over (a reload) replaces it.
    const reloaded = ledgerInfo([{ ...rent(), status: 'PAID' }], { pendingBalance: 800 });
    view.rerender(reloaded);
    expect(heldLedger?.()).toBe(reloaded.ledger);
  });

  it('moves focus from the disabled Pay button to Clear once the row is paid', async () => {
    const user = userEvent.setup();
    const answer = ledgerInfo([{ ...rent(), status: 'PAID' }]);
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.updateTransaction.mockResolvedValue(answer);

    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));
    await waitFor(() => expect(view.onChange).toHaveBeenCalledWith(answer));
    view.rerender(answer);

    expect(screen.getByRole('button', { name: 'Pay Rent' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Clear Rent' })).toHaveFocus();
  });

  it('Clear sends status CLEARED, from unpaid and from paid', async () => {
    const user = userEvent.setup();
    const view = renderLedger(ledgerInfo([rent(), paycheck()]));
    view.api.updateTransaction.mockResolvedValue(ledgerInfo([]));

    await user.click(screen.getByRole('button', { name: 'Clear Rent' }));
    await user.click(screen.getByRole('button', { name: 'Clear Acme Paycheck' }));

    expect(view.api.updateTransaction.mock.calls.map(([update]) => [update.id, update.status])).toEqual([
      ['rent', 'CLEARED'],
      ['pay', 'CLEARED'],
    ]);
  });

  it('sends nothing when a move would not change the row', async () => {
    const user = userEvent.setup();
    // Disabled buttons cannot be pressed, so open the Edit dialog and save it untouched instead.
    const view = renderLedger(ledgerInfo([rent()]));
    await user.click(screen.getByRole('button', { name: 'Edit Rent' }));
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(view.api.updateTransaction).not.toHaveBeenCalled();
    expect(view.onChange).not.toHaveBeenCalled();
  });

  it('sends a status move once, however often the button is pressed while it is on its way', async () => {
    const user = userEvent.setup();
    const answer = ledgerInfo([{ ...rent(), status: 'PAID' }]);
    let answerNow: (info: typeof answer) => void = () => undefined;
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.updateTransaction.mockReturnValue(new Promise((resolve) => (answerNow = resolve)));

    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));
    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));
    answerNow(answer);

    await waitFor(() => expect(view.onChange).toHaveBeenCalledWith(answer));
    expect(view.api.updateTransaction).toHaveBeenCalledTimes(1);
  });

  it('reports a failed move to the shell and hands it back the row as it was', async () => {
    const user = userEvent.setup();
    const failure = new ApiCallError('updateTransactionPrimary', 409, 'A cleared row cannot be paid.');
    const shown = ledgerInfo([rent()]);
    const view = renderLedger(shown);
    view.api.updateTransaction.mockRejectedValue(failure);

    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));

    await waitFor(() => expect(view.onError).toHaveBeenCalledWith(failure));
    // Painted paid at the click (painted-status-moves.test.tsx), then the very ledger it had.
    await waitFor(() => expect(view.onChange.mock.lastCall?.[0]).toBe(shown));
    expect(view.onChange.mock.calls[0]?.[0].ledger?.transactions[0]?.status).toBe('PAID');
    expect(screen.getByRole('button', { name: 'Pay Rent' })).toBeEnabled();
  });
});

describe('LedgerSection row deletion', () => {
  it('asks first, and Cancel sends nothing', async () => {
    const user = userEvent.setup();
    const view = renderLedger(ledgerInfo([rent(), paycheck()]));

    await user.click(screen.getByRole('button', { name: 'Delete Rent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Transaction' });
    expect(dialog).toHaveTextContent('Delete the transaction Rent? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(view.api.deleteTransaction).not.toHaveBeenCalled();
  });

  it('says that deleting a side of a transfer deletes both sides', async () => {
    const user = userEvent.setup();
    renderLedger(ledgerInfo([{ ...rent(), name: 'Transfer to Savings', transfer: { id: 'other', accountId: 's1' } }, paycheck()]));

    await user.click(screen.getByRole('button', { name: 'Delete Transfer to Savings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Transaction' });
    expect(dialog).toHaveTextContent('Delete both sides of the transfer Transfer to Savings? This cannot be undone.');
  });

  it('deletes the confirmed row and hands the answer to the shell', async () => {
    const user = userEvent.setup();
    const answer = ledgerInfo([paycheck()]);
    const view = renderLedger(ledgerInfo([rent(), paycheck()]));
    view.api.deleteTransaction.mockResolvedValue(answer);

    await user.click(screen.getByRole('button', { name: 'Delete Rent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Transaction' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(view.api.deleteTransaction).toHaveBeenCalledWith('rent', expect.any(Function), 'Rent');
    await waitFor(() => expect(view.onChange).toHaveBeenCalledWith(answer));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the question open and reports a failed deletion to the shell', async () => {
    const user = userEvent.setup();
    const failure = new ApiCallError(
      'deleteTransactionPrimary',
      409,
      'A PAID transaction cannot be deleted: only PENDING transactions can.',
    );
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.deleteTransaction.mockRejectedValue(failure);

    await user.click(screen.getByRole('button', { name: 'Delete Rent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Transaction' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(view.onError).toHaveBeenCalledWith(failure));
    expect(view.onChange).not.toHaveBeenCalled();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(dialog).toHaveClass('show');
  });
});

describe('LedgerSection filter', () => {
  it('starts with every box on; each box hides and shows its rows', async () => {
    const user = userEvent.setup();
    renderLedger(ledgerInfo([paycheck(), rent(), groceries()]));
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filter By' });
    const box = (name: string) => within(dialog).getByRole('checkbox', { name });
    expect([box('Not Cleared'), box('Paid'), box('Cleared')].every((checkbox) => checkbox.matches(':checked'))).toBe(true);

    await user.click(box('Not Cleared'));
    expect(screen.queryByRole('button', { name: 'Pay Rent' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Clear Acme Paycheck' })).toBeInTheDocument();
    expect(screen.getByText('Showing 2 of 3 transactions.')).toBeInTheDocument();

    await user.click(box('Paid'));
    await user.click(box('Cleared'));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No transactions match the filter.')).toBeInTheDocument();

    await user.click(box('Cleared'));
    expect(screen.getByRole('button', { name: 'Clear Kroger' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear Acme Paycheck' })).toBeNull();

    await user.click(box('Not Cleared'));
    await user.click(box('Paid'));
    // The header, the pay period's line and the three rows.
    expect(screen.getAllByRole('row')).toHaveLength(5);
  });
});

describe('LedgerSection search', () => {
  it('shows only the rows whose name contains the typed text, in any case, with the count shown', async () => {
    const user = userEvent.setup();
    renderLedger(ledgerInfo([paycheck(), rent(), groceries()]));
    const search = screen.getByRole('searchbox', { name: 'Search' });

    await user.type(search, 'KRO');
    expect(screen.getByRole('button', { name: 'Edit Kroger' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Rent' })).toBeNull();
    expect(screen.getByText('Showing 1 of 3 transactions.')).toBeInTheDocument();

    await user.clear(search);
    await user.type(search, 'zzz');
    expect(screen.getByText('No transactions match the filter.')).toBeInTheDocument();

    await user.clear(search);
    expect(screen.getByText('3 transactions.')).toBeInTheDocument();
  });

  it('combines with the status filter', async () => {
    const user = userEvent.setup();
    renderLedger(
      ledgerInfo([paycheck(), rent(), groceries(), transaction({ id: 'rent2', name: 'Rent', date: '2026-04-01', status: 'CLEARED' })]),
    );
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'rent');
    expect(screen.getByText('Showing 2 of 4 transactions.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filter By' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Cleared' }));
    expect(screen.getByText('Showing 1 of 4 transactions.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay Rent' })).toBeEnabled();
  });
});

describe('LedgerSection warning before zero', () => {
  const dip = () => [
    transaction({ id: 'rent', name: 'Rent', date: '2027-01-01', type: 'D', amount: 1200, balance: -100 }),
    transaction({ id: 'pay', name: 'Acme Paycheck', date: '2027-01-08', type: 'C', amount: 1000, balance: 900 }),
  ];

  it('stays in view in the sticky header, in words, when a row ahead goes below $0', () => {
    renderLedger(ledgerInfo(dip(), { startDate: '2027-01-01', endDate: '2027-01-31' }), undefined, undefined, isoDate('2026-12-01'));
    // The bill's name is isolated in a <bdi>, so the sentence is matched as the paragraph's whole text.
    const warning = screen.getByText(
      (_, element) =>
        element?.tagName === 'P' && element.textContent === 'Your balance goes below $0 on Fri, Jan 1, 2027, when Rent is due.',
    );
    expect(warning.querySelector('bdi')?.textContent).toBe('Rent');
    expect(warning.closest('.ledger-header')).not.toBeNull();
    // The Summary announces it; here it is not a live region nor an alert.
    expect(warning.closest('[role="status"], [role="alert"], [aria-live]')).toBeNull();
  });

  it('says nothing when the dip is behind today', () => {
    renderLedger(ledgerInfo(dip(), { startDate: '2027-01-01', endDate: '2027-01-31' }), undefined, undefined, isoDate('2027-01-02'));
    expect(screen.getByRole('button', { name: 'Pay Rent' })).toBeInTheDocument();
    expect(screen.queryByText(/goes below \$0/)).toBeNull();
  });

  it('says nothing before the server has said which day it is', () => {
    renderLedger(ledgerInfo(dip(), { startDate: '2027-01-01', endDate: '2027-01-31' }));
    expect(screen.getByRole('button', { name: 'Pay Rent' })).toBeInTheDocument();
    expect(screen.queryByText(/goes below \$0/)).toBeNull();
  });
});

describe('LedgerSection compact layout (under 1100 px)', () => {
  it('switches to compact rows with name, date, amount and balance when the window narrows', () => {
    renderLedger(ledgerInfo([rent(), paycheck()]));
    expect(screen.getByRole('table')).toBeInTheDocument();

    setWindowWidth(800);

    expect(screen.queryByRole('table')).toBeNull();
    const list = screen.getByRole('list', { name: 'Transactions' });
    const [periodLine, rentRow, paycheckRow] = within(list).getAllByRole('listitem');
    expect(within(periodLine ?? list).getByRole('heading', { level: 3 })).toHaveTextContent(/^Pay period Sun, Mar 1, 2026 – /);
    expect(rentRow).toHaveTextContent('Rent');
    expect(rentRow).toHaveTextContent('Sun, Mar 1, 2026');
    expect(within(rentRow ?? list).getByText('Sun, Mar 1, 2026')).toHaveAttribute('datetime', '2026-03-01');
    expect(rentRow).toHaveTextContent('Debit -$1,200.00');
    expect(rentRow).toHaveTextContent('Balance $2,300.00');
    expect(paycheckRow).toHaveTextContent('Credit +$1,500.00');
    expect(paycheckRow).toHaveClass('ledger-row--paycheck');
    expect(within(paycheckRow ?? list).getByRole('button', { name: 'Pay Acme Paycheck' })).toBeDisabled();
    expect(within(paycheckRow ?? list).getByRole('button', { name: 'Delete Acme Paycheck' })).toBeDisabled();
    expect(within(rentRow ?? list).getByRole('button', { name: 'Delete Rent' })).toBeEnabled();

    setWindowWidth(1100);
    expect(screen.getByRole('table')).toBeInTheDocument();
  });
});
