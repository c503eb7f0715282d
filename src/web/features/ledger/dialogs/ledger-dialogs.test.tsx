import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { type UserEvent, userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerTransaction, RowSourceInfo } from '../../../../contract/ledger.js';
import { ApiCallError } from '../../../api/api-client.js';
import { LedgerReloadError } from '../../../api/ledger-reload-error.js';
import { fakeApiClient } from '../../../test-support/fake-api-client.js';
import { ledgerInfo, renderLedger, setWindowWidth, transaction } from '../ledger-test-support.js';
import type { ScheduleNames } from '../row-source.js';

const JSDOM_WIDTH = window.innerWidth;

beforeEach(() => setWindowWidth(1280));
afterEach(() => {
  setWindowWidth(JSDOM_WIDTH);
  vi.useRealTimers();
});

const rent = () => transaction({ id: 'rent', name: 'Rent', date: '2026-03-01', type: 'D', amount: 1200, balance: 800, status: 'PENDING' });

async function openDialog(buttonName: string, title: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: buttonName }));
  const dialog = await screen.findByRole('dialog', { name: title });
  return { user, dialog };
}

/** Fills every field of Add Transaction and presses Add. */
async function addTransaction(user: UserEvent, dialog: HTMLElement, row: { date: string; name: string; type: string; amount: string }) {
  await user.type(within(dialog).getByLabelText('Date'), row.date);
  await user.type(within(dialog).getByLabelText('Name'), row.name);
  await user.selectOptions(within(dialog).getByLabelText('Type'), row.type);
  await user.type(within(dialog).getByLabelText('Amount'), row.amount);
  await user.click(within(dialog).getByRole('button', { name: 'Add' }));
}

async function waitForDialogToClose() {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

describe('New Ledger dialog', () => {
  it('marks End Date and sends nothing when it is before Start Date', async () => {
    const view = renderLedger({ ledger: null });
    const { user, dialog } = await openDialog('New Ledger', 'New Ledger');

    await user.type(within(dialog).getByLabelText('Start Date'), '2026-06-01');
    await user.type(within(dialog).getByLabelText('End Date'), '2026-05-31');
    await user.type(within(dialog).getByLabelText('Current Balance'), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const endDate = within(dialog).getByLabelText('End Date');
    expect(endDate).toHaveAttribute('aria-invalid', 'true');
    expect(endDate).toHaveAccessibleDescription('End Date must be on or after Start Date.');
    expect(within(dialog).getByLabelText('Start Date')).not.toHaveAttribute('aria-invalid');
    expect(view.api.createLedger).not.toHaveBeenCalled();
  });

  it('warns that creating replaces the current ledger, and only when there is one', async () => {
    const first = renderLedger(ledgerInfo([rent()]));
    let { dialog } = await openDialog('New Ledger', 'New Ledger');
    expect(
      within(dialog).getByText(/replaces your current ledger \(Sun, Mar 1, 2026 to Thu, Dec 31, 2026\) and its 1 transaction\./),
    ).toBeVisible();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitForDialogToClose();
    first.rerender({ ledger: null });
    ({ dialog } = await openDialog('New Ledger', 'New Ledger'));
    expect(within(dialog).queryByText(/replaces/)).toBeNull();
  });

  it('creates a ledger with a negative opening balance, hands the answer over and closes', async () => {
    const answer = ledgerInfo([]);
    const view = renderLedger({ ledger: null });
    view.api.createLedger.mockResolvedValue(answer);
    const { user, dialog } = await openDialog('New Ledger', 'New Ledger');

    await user.type(within(dialog).getByLabelText('Start Date'), '2026-03-01');
    await user.type(within(dialog).getByLabelText('End Date'), '2026-12-31');
    await user.type(within(dialog).getByLabelText('Current Balance'), '-50.25');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(view.api.createLedger).toHaveBeenCalledWith({
      ledger: { startDate: '2026-03-01', endDate: '2026-12-31', currentBalance: -50.25 },
    });
    await waitFor(() => expect(view.onChange).toHaveBeenCalledWith(answer));
    await waitForDialogToClose();
  });

  it('keeps the values and marks the field the server refused when the call fails', async () => {
    const failure = new ApiCallError('createLedgerPrimary', 400, 'Some fields need attention.', { 'ledger.endDate': 'Too far out.' });
    const view = renderLedger({ ledger: null });
    view.api.createLedger.mockRejectedValue(failure);
    const { user, dialog } = await openDialog('New Ledger', 'New Ledger');

    await user.type(within(dialog).getByLabelText('Start Date'), '2026-03-01');
    await user.type(within(dialog).getByLabelText('End Date'), '2026-12-31');
    await user.type(within(dialog).getByLabelText('Current Balance'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(view.onError).toHaveBeenCalledWith(failure));
    expect(view.onChange).not.toHaveBeenCalled();
    expect(await screen.findByRole('dialog', { name: 'New Ledger' })).toBeVisible();
    expect(within(dialog).getByLabelText('Start Date')).toHaveValue('2026-03-01');
    expect(within(dialog).getByLabelText('Current Balance')).toHaveValue(0);
    expect(within(dialog).getByLabelText('End Date')).toHaveAccessibleDescription('Too far out.');
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeEnabled();
  });
});

describe('New Ledger dialog over an existing ledger', () => {
  const rows = (paid: number, cleared: number, pending: number): LedgerTransaction[] =>
    [
      ...Array.from({ length: paid }, () => 'PAID' as const),
      ...Array.from({ length: cleared }, () => 'CLEARED' as const),
      ...Array.from({ length: pending }, () => 'PENDING' as const),
    ].map((status, index) => transaction({ id: `row-${index}`, name: `Bill ${index}`, status }));

  it.each([
    [rows(0, 0, 2), 'Replacing your ledger deletes its 0 paid or cleared transactions.'],
    [rows(0, 1, 2), 'Replacing your ledger deletes its 1 paid or cleared transaction.'],
    [rows(1000, 234, 66), 'Replacing your ledger deletes its 1,234 paid or cleared transactions.'],
  ])('counts the paid and cleared rows it would delete (%#)', async (transactions, sentence) => {
    renderLedger(ledgerInfo(transactions));
    const { dialog } = await openDialog('New Ledger', 'New Ledger');
    expect(within(dialog).getByText(sentence)).toBeVisible();
    expect(within(dialog).getByText(/Creating a new ledger replaces your current ledger/)).toBeVisible();
  });

  it('offers Extend Instead, which closes New Ledger and opens Extend Ledger', async () => {
    renderLedger(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('New Ledger', 'New Ledger');

    await user.click(within(dialog).getByRole('button', { name: 'Extend Instead' }));

    const extend = await screen.findByRole('dialog', { name: 'Extend Ledger' });
    expect(within(extend).getByLabelText('End Date')).toHaveValue('2027-03-31');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Ledger' })).toBeNull());
  });
});

describe('Extend Ledger dialog', () => {
  it('opens three months after the current end, sends the End Date and hands the answer over', async () => {
    const answer = ledgerInfo([rent()], { endDate: '2027-03-31' });
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.extendLedger.mockResolvedValue(answer);
    const { user, dialog } = await openDialog('Extend', 'Extend Ledger');

    expect(within(dialog).getByText(/Your ledger runs from Sun, Mar 1, 2026 to Thu, Dec 31, 2026\./)).toBeVisible();
    expect(within(dialog).getByLabelText('End Date')).toHaveValue('2027-03-31');
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));

    expect(view.api.extendLedger).toHaveBeenCalledWith({ endDate: '2027-03-31' });
    await waitFor(() => expect(view.onChange).toHaveBeenCalledWith(answer));
    await waitForDialogToClose();
  });

  it.each([
    ['2026-12-31', "End Date must be after the ledger's current end date, 2026-12-31."],
    ['2026-06-30', "End Date must be after the ledger's current end date, 2026-12-31."],
    ['2031-03-02', 'A ledger spans at most 5 years: End Date must be on or before 2031-03-01.'],
    ['', 'End Date must be a real date (YYYY-MM-DD).'],
  ])('refuses %j with the rule the server applies, sending nothing', async (endDate, message) => {
    const view = renderLedger(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('Extend', 'Extend Ledger');

    const field = within(dialog).getByLabelText('End Date');
    await user.clear(field);
    if (endDate) await user.type(field, endDate);
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));

    expect(field).toHaveAccessibleDescription(message);
    expect(field).toHaveFocus();
    expect(view.api.extendLedger).not.toHaveBeenCalled();
  });

  it('accepts the last day five years after the start', async () => {
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.extendLedger.mockResolvedValue(ledgerInfo([rent()], { endDate: '2031-03-01' }));
    const { user, dialog } = await openDialog('Extend', 'Extend Ledger');

    const field = within(dialog).getByLabelText('End Date');
    await user.clear(field);
    await user.type(field, '2031-03-01');
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));

    expect(view.api.extendLedger).toHaveBeenCalledWith({ endDate: '2031-03-01' });
    await waitForDialogToClose();
  });

  it("keeps the typed date, shows the server's message on End Date and reports the failure", async () => {
    const failure = new ApiCallError('extendLedgerPrimary', 400, 'Some fields need attention.', {
      endDate: 'The server refuses this date.',
    });
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.extendLedger.mockRejectedValue(failure);
    const { user, dialog } = await openDialog('Extend', 'Extend Ledger');

    const field = within(dialog).getByLabelText('End Date');
    await user.clear(field);
    await user.type(field, '2027-06-30');
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));

    await waitFor(() => expect(view.onError).toHaveBeenCalledWith(failure));
    expect(view.onChange).not.toHaveBeenCalled();
    expect(await screen.findByRole('dialog', { name: 'Extend Ledger' })).toBeVisible();
    expect(field).toHaveValue('2027-06-30');
    expect(field).toHaveAccessibleDescription('The server refuses this date.');
    expect(within(dialog).getByRole('button', { name: 'Extend' })).toBeEnabled();
  });
});

describe('Add Transaction dialog', () => {
  it('fills today with the Today button and adds the transaction', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 15, 9, 30));
    const answer = ledgerInfo([rent()]);
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.addTransaction.mockResolvedValue(answer);
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');

    const type = within(dialog).getByRole('combobox', { name: 'Type' });
    expect(
      within(type)
        .getAllByRole('option')
        .map((option) => [option.getAttribute('value'), option.textContent]),
    ).toEqual([
      ['', '-- Please Select --'],
      ['D', 'Debit'],
      ['C', 'Credit'],
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'Today' }));
    expect(within(dialog).getByLabelText('Date')).toHaveValue('2026-03-15');
    await user.type(within(dialog).getByLabelText('Name'), 'Coffee beans');
    await user.selectOptions(type, 'D');
    await user.type(within(dialog).getByLabelText('Amount'), '12.5');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(view.api.addTransaction).toHaveBeenCalledWith(
      { date: '2026-03-15', name: 'Coffee beans', type: 'D', amount: 12.5 },
      expect.any(Function),
    );
    await waitFor(() => expect(view.onChange).toHaveBeenCalledWith(answer));
    await waitForDialogToClose();
  });

  it('marks missing fields and a date outside the ledger, sending nothing', async () => {
    const view = renderLedger(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');

    await user.type(within(dialog).getByLabelText('Date'), '2027-01-05');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(within(dialog).getByLabelText('Date')).toHaveAccessibleDescription('Date must be between 2026-03-01 and 2026-12-31.');
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('Name is required.');
    expect(within(dialog).getByLabelText('Type')).toHaveAccessibleDescription('Type must be D (debit) or C (credit).');
    expect(within(dialog).getByLabelText('Amount')).toHaveAttribute('aria-invalid', 'true');
    expect(view.api.addTransaction).not.toHaveBeenCalled();
  });

  it.each(['2026-03-01', '2026-07-15', '2026-12-31'])("accepts %s: the ledger's first and last days and those between", async (date) => {
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.addTransaction.mockResolvedValue(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');

    await addTransaction(user, dialog, { date, name: 'Coffee', type: 'D', amount: '4.5' });

    expect(view.api.addTransaction).toHaveBeenCalledWith({ date, name: 'Coffee', type: 'D', amount: 4.5 }, expect.any(Function));
    await waitForDialogToClose();
  });

  it.each(['2026-02-28', '2027-01-01'])(
    'refuses %s, outside the ledger, though the contract accepts it, and focuses Date',
    async (date) => {
      const view = renderLedger(ledgerInfo([rent()]));
      const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');

      await addTransaction(user, dialog, { date, name: 'Coffee', type: 'D', amount: '4.5' });

      const dateField = within(dialog).getByLabelText('Date');
      expect(dateField).toHaveAccessibleDescription('Date must be between 2026-03-01 and 2026-12-31.');
      expect(dateField).toHaveFocus();
      expect(within(dialog).getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
      expect(view.api.addTransaction).not.toHaveBeenCalled();
    },
  );

  it("leaves an empty date to the contract's own message", async () => {
    const view = renderLedger(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');

    await user.type(within(dialog).getByLabelText('Name'), 'Coffee');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(within(dialog).getByLabelText('Date')).toHaveAccessibleDescription('Date must be a real date (YYYY-MM-DD).');
    expect(view.api.addTransaction).not.toHaveBeenCalled();
  });

  it('keeps every value and calls onError when the add fails', async () => {
    const failure = new ApiCallError('addTransactionPrimary', 500, 'The server had a problem.');
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.addTransaction.mockRejectedValue(failure);
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');

    await addTransaction(user, dialog, { date: '2026-04-02', name: 'Bonus', type: 'C', amount: '300' });

    await waitFor(() => expect(view.onError).toHaveBeenCalledWith(failure));
    expect(view.onChange).not.toHaveBeenCalled();
    expect(await screen.findByRole('dialog', { name: 'Add Transaction' })).toBeVisible();
    expect(within(dialog).getByLabelText('Date')).toHaveValue('2026-04-02');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Bonus');
    expect(within(dialog).getByLabelText('Type')).toHaveValue('C');
    expect(within(dialog).getByLabelText('Amount')).toHaveValue(300);
  });

  it('closes when the add went through and only the reload after it failed, so the row is not sent twice', async () => {
    const failure = new LedgerReloadError('getLedger', 0, 'The server could not be reached. Check your connection and try again.');
    const shown = ledgerInfo([rent()]);
    const view = renderLedger(shown);
    view.api.addTransaction.mockRejectedValue(failure);
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');

    await addTransaction(user, dialog, { date: '2026-04-02', name: 'Bonus', type: 'C', amount: '300' });

    await waitFor(() => expect(view.onError).toHaveBeenCalledWith(failure));
    await waitForDialogToClose();
    expect(view.api.addTransaction).toHaveBeenCalledTimes(1);
    // The ledger shown stays as it was until a reload works; the shell's Whoops! offers it.
    expect(view.onChange).toHaveBeenCalledWith(shown);
  });

  it('starts empty again after Cancel', async () => {
    renderLedger(ledgerInfo([rent()]));
    let { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');
    await user.type(within(dialog).getByLabelText('Name'), 'Something');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitForDialogToClose();

    ({ user, dialog } = await openDialog('Add Transaction', 'Add Transaction'));
    expect(within(dialog).getByLabelText('Name')).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitForDialogToClose();
  });
});

describe('Name suggestions', () => {
  it('lists names by prefix, ignoring case, and hides the list on an exact match', async () => {
    renderLedger(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');
    const name = within(dialog).getByRole('combobox', { name: 'Name' });
    expect(name).toHaveAttribute('aria-expanded', 'false');

    await user.type(name, 'cas');
    const listbox = within(dialog).getByRole('listbox', { name: 'Suggestions' });
    expect(name).toHaveAttribute('aria-expanded', 'true');
    expect(name).toHaveAttribute('aria-controls', listbox.id);
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Cash Deposit', 'Cash App']);

    await user.type(name, 'h app');
    expect(within(dialog).queryByRole('listbox')).toBeNull();
    expect(name).toHaveAttribute('aria-expanded', 'false');
  });

  it('moves with the arrow keys and picks with Enter, without submitting the form', async () => {
    const view = renderLedger(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');
    const name = within(dialog).getByRole('combobox', { name: 'Name' });

    await user.type(name, 'c');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    const active = within(dialog).getByRole('option', { name: 'Chipotle' });
    expect(active).toHaveAttribute('aria-selected', 'true');
    expect(name).toHaveAttribute('aria-activedescendant', active.id);

    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(within(dialog).getByRole('option', { name: 'Cash App' })).toHaveAttribute('aria-selected', 'true');

    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(name).toHaveValue('Chipotle');
    expect(within(dialog).queryByRole('listbox')).toBeNull();
    expect(view.api.addTransaction).not.toHaveBeenCalled();
    expect(within(dialog).queryByText('Name is required.')).toBeNull();
  });

  it('closes the list on Escape and keeps the dialog open', async () => {
    renderLedger(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');
    const name = within(dialog).getByRole('combobox', { name: 'Name' });

    await user.type(name, 'ta');
    expect(within(dialog).getByRole('listbox')).toBeVisible();
    await user.keyboard('{Escape}');
    expect(within(dialog).queryByRole('listbox')).toBeNull();
    // A closing modal drops its "show" class at once, long before it leaves the page.
    expect(dialog).toHaveClass('show');
    expect(name).toHaveValue('ta');

    // ArrowDown brings the list back.
    await user.keyboard('{ArrowDown}');
    expect(within(dialog).getByRole('option', { name: 'Target' })).toHaveAttribute('aria-selected', 'true');

    // With the list closed, Escape is the dialog's again.
    await user.keyboard('{Escape}{Escape}');
    await waitForDialogToClose();
  });

  it('picks a suggestion by click', async () => {
    renderLedger(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('Add Transaction', 'Add Transaction');
    const name = within(dialog).getByRole('combobox', { name: 'Name' });

    await user.type(name, 'WHO');
    await user.click(within(dialog).getByRole('option', { name: 'Whole Foods' }));
    expect(name).toHaveValue('Whole Foods');
    expect(name).toHaveFocus();
    expect(within(dialog).queryByRole('listbox')).toBeNull();
  });
});

describe('Edit Transaction dialog', () => {
  it('sends the whole row with the changed fields', async () => {
    const answer = ledgerInfo([{ ...rent(), amount: 1250 }]);
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.updateTransaction.mockResolvedValue(answer);
    const { user, dialog } = await openDialog('Edit Rent', 'Edit Transaction');

    expect(within(dialog).getByLabelText('Date')).toHaveValue('2026-03-01');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Rent');
    const amount = within(dialog).getByLabelText('Amount');
    expect(amount).toHaveValue(1200);
    await user.clear(amount);
    await user.type(amount, '1250');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(view.api.updateTransaction).toHaveBeenCalledWith(
      {
        id: 'rent',
        date: '2026-03-01',
        name: 'Rent',
        type: 'D',
        amount: 1250,
        balance: 800,
        status: 'PENDING',
      },
      expect.any(Function),
    );
    await waitFor(() => expect(view.onChange).toHaveBeenCalledWith(answer));
    await waitForDialogToClose();
  });

  it("opens with the row's name without covering the form in suggestions", async () => {
    renderLedger(ledgerInfo([transaction({ id: 'cash', name: 'Cash', status: 'PENDING' })]));
    const { user, dialog } = await openDialog('Edit Cash', 'Edit Transaction');
    const name = within(dialog).getByRole('combobox', { name: 'Name' });
    expect(name).toHaveValue('Cash');
    expect(within(dialog).queryByRole('listbox')).toBeNull();

    await user.type(name, ' ');
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Cash Deposit', 'Cash App']);
  });

  it('keeps the edited values when the save fails', async () => {
    const failure = new ApiCallError('updateTransactionPrimary', 409, 'Only unpaid rows can be edited.');
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.updateTransaction.mockRejectedValue(failure);
    const { user, dialog } = await openDialog('Edit Rent', 'Edit Transaction');

    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Rent (March)');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.onError).toHaveBeenCalledWith(failure));
    expect(await screen.findByRole('dialog', { name: 'Edit Transaction' })).toBeVisible();
    expect(name).toHaveValue('Rent (March)');
  });

  it('refuses a date outside the ledger and sends nothing', async () => {
    const view = renderLedger(ledgerInfo([rent()]));
    const { user, dialog } = await openDialog('Edit Rent', 'Edit Transaction');

    const date = within(dialog).getByLabelText('Date');
    await user.clear(date);
    await user.type(date, '2027-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(date).toHaveAccessibleDescription('Date must be between 2026-03-01 and 2026-12-31.');
    expect(date).toHaveFocus();
    expect(view.api.updateTransaction).not.toHaveBeenCalled();
  });

  it('disables Save and Delete while the save is on its way', async () => {
    const view = renderLedger(ledgerInfo([rent()]));
    let answerNow: (info: ReturnType<typeof ledgerInfo>) => void = () => undefined;
    view.api.updateTransaction.mockReturnValue(new Promise((resolve) => (answerNow = resolve)));
    const { user, dialog } = await openDialog('Edit Rent', 'Edit Transaction');

    await user.type(within(dialog).getByLabelText('Name'), ' (March)');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeDisabled();
    answerNow(ledgerInfo([rent()]));
    await waitForDialogToClose();
  });

  it('deletes the row only after confirmation', async () => {
    const answer = ledgerInfo([]);
    const view = renderLedger(ledgerInfo([rent()]));
    view.api.deleteTransaction.mockResolvedValue(answer);
    const { user, dialog } = await openDialog('Edit Rent', 'Edit Transaction');

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(view.api.deleteTransaction).not.toHaveBeenCalled();
    const question = within(dialog).getByText(
      (_, element) => element?.tagName === 'P' && element.textContent === 'Delete Rent on Sun, Mar 1, 2026? This cannot be undone.',
    );
    expect(question).toBeVisible();
    // The name is isolated: a bidi override in it cannot reorder the question.
    expect(question.querySelector('bdi')?.textContent).toBe('Rent');

    await user.click(within(dialog).getByRole('button', { name: 'Keep It' }));
    expect(within(dialog).queryByText(/cannot be undone/)).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Delete' }));
    expect(view.api.deleteTransaction).toHaveBeenCalledWith('rent', expect.any(Function), 'Rent');
    await waitFor(() => expect(view.onChange).toHaveBeenCalledWith(answer));
    await waitForDialogToClose();
  });
});

describe('Edit Transaction dialog: where a row comes from', () => {
  const NAMES: ScheduleNames = { deposit: new Map([['d1', 'Acme']]), expense: new Map([['e1', 'Rent']]) };
  const generated = (source: RowSourceInfo | null) =>
    transaction({ id: 'row', name: 'Row', date: '2026-12-12', status: 'PENDING', type: source?.kind === 'deposit' ? 'C' : 'D', source });

  async function sourceLinesOf(source: RowSourceInfo | null, names: ScheduleNames = NAMES): Promise<string[]> {
    renderLedger(ledgerInfo([generated(source)]), fakeApiClient(), names);
    const { dialog } = await openDialog('Edit Row', 'Edit Transaction');
    return within(dialog)
      .queryAllByText(/^(From|Pays|You changed)/)
      .map((line) => line.textContent ?? '');
  }

  it.each<[string, RowSourceInfo | null, string[]]>([
    [
      'a deposit',
      { kind: 'deposit', id: 'd1', occurrence: '2026-12-11', edited: false },
      ['From your deposit Acme, paid on Fri, Dec 11, 2026.'],
    ],
    [
      'an expense',
      { kind: 'expense', id: 'e1', occurrence: '2026-12-01', edited: false },
      ['From your expense Rent, due on Tue, Dec 1, 2026.'],
    ],
    [
      'an edited row',
      { kind: 'deposit', id: 'd1', occurrence: '2026-12-11', edited: true },
      ['From your deposit Acme, paid on Fri, Dec 11, 2026.', 'You changed this row, so changes to Acme no longer reach it.'],
    ],
    [
      'a deleted deposit',
      { kind: 'deposit', id: 'gone', occurrence: '2026-12-11', edited: true },
      ['From a deposit you have since deleted, paid on Fri, Dec 11, 2026.'],
    ],
    [
      'a deleted expense',
      { kind: 'expense', id: 'gone', occurrence: '2026-12-01', edited: false },
      ['From an expense you have since deleted, due on Tue, Dec 1, 2026.'],
    ],
    [
      'a card payment (decision 0045)',
      { kind: 'card', id: 'v1', occurrence: '2026-11-15', edited: false },
      ["Pays your card's statement closing on Sun, Nov 15, 2026."],
    ],
    [
      'an edited card payment',
      { kind: 'card', id: 'v1', occurrence: '2026-11-15', edited: true },
      ["Pays your card's statement closing on Sun, Nov 15, 2026.", 'You changed this row, so changes to the card no longer reach it.'],
    ],
    ['a row added by hand', null, []],
  ])('says so for %s', async (_, source, lines) => {
    expect(await sourceLinesOf(source)).toEqual(lines);
  });

  it("says a transfer's edit and delete reach its other side, naming the other account", async () => {
    const names: ScheduleNames = {
      ...NAMES,
      accounts: new Map([
        ['s1', 'Savings'],
        ['c1', 'Checking'],
      ]),
    };
    const side = (type: 'D' | 'C', accountId: string) =>
      transaction({
        id: 'row',
        name: 'Row',
        date: '2026-12-12',
        status: 'PENDING',
        type,
        source: null,
        transfer: { id: 'other', accountId },
      });
    const linesOf = async (row: ReturnType<typeof side>, shown: ScheduleNames) => {
      renderLedger(ledgerInfo([row]), fakeApiClient(), shown);
      const { dialog } = await openDialog('Edit Row', 'Edit Transaction');
      const lines = within(dialog)
        .queryAllByText(/^A transfer/)
        .map((line) => line.textContent ?? '');
      cleanup();
      return lines;
    };
    expect(await linesOf(side('D', 's1'), names)).toEqual([
      'A transfer to Savings: changing its date, amount or name changes its other side in Savings too, and deleting it deletes both.',
    ]);
    expect(await linesOf(side('C', 'c1'), names)).toEqual([
      'A transfer from Checking: changing its date, amount or name changes its other side in Checking too, and deleting it deletes both.',
    ]);
    // The accounts not loaded: the account is not named, the warning stands.
    expect(await linesOf(side('D', 's1'), NAMES)).toEqual([
      'A transfer to another of your accounts: changing its date, amount or name changes its other side there too, and deleting it deletes both.',
    ]);
    // An ordinary row says nothing of it.
    expect(await sourceLinesOf(null, names)).toEqual([]);
  });

  it('does not call a schedule deleted while its list has not loaded', async () => {
    expect(await sourceLinesOf({ kind: 'expense', id: 'e9', occurrence: '2026-12-01', edited: true }, { ...NAMES, expense: null })).toEqual(
      ['From one of your expenses, due on Tue, Dec 1, 2026.', 'You changed this row, so changes to that expense no longer reach it.'],
    );
  });
});
