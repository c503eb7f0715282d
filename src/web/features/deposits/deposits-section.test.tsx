import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Deposit, DepositsInfo } from '../../../contract/deposits.js';
import { ApiCallError, type ApiClient } from '../../api/api-client.js';
import { depositsAnswer } from '../../test-support/answers.js';
import { findOpenDialog, waitForDialogToClose } from '../../test-support/dialog-queries.js';
import { fakeApiClient } from '../../test-support/fake-api-client.js';
import { renderSection } from '../../test-support/render-section.js';
import { DepositsSection } from './deposits-section.js';

const PAYCHECK: Deposit = {
  id: 'd1',
  name: 'Paycheck',
  type: 'Direct Deposit',
  day: 'Friday',
  amount: 1500,
  startDate: '2026-01-02',
  frequency: 'BW',
};
const RENT_SHARE: Deposit = {
  id: 'd2',
  name: 'Rent Share',
  type: 'Check',
  day: 'N/A',
  amount: 250.5,
  startDate: '2026-01-30',
  frequency: 'EOM',
};
const TWO_DEPOSITS: DepositsInfo = { deposits: [PAYCHECK, RENT_SHARE], totalDeposits: 3500.5 };
const NO_DEPOSITS: DepositsInfo = { deposits: [], totalDeposits: 0 };

const renderDeposits = (info: DepositsInfo | null, client?: ApiClient) =>
  renderSection(DepositsSection, info && depositsAnswer(info), client);

async function openAddDialog(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Add Deposit' }));
  return await screen.findByRole('dialog', { name: 'Add Deposit' });
}

async function fillDeposit(
  user: UserEvent,
  dialog: HTMLElement,
  values: { name: string; type: string; amount: string; startDate: string; frequency: string },
) {
  await user.type(within(dialog).getByLabelText('Name'), values.name);
  await user.selectOptions(within(dialog).getByLabelText('Type'), values.type);
  await user.type(within(dialog).getByLabelText('Amount'), values.amount);
  await user.type(within(dialog).getByLabelText('Start Date'), values.startDate);
  await user.selectOptions(within(dialog).getByLabelText('Frequency'), values.frequency);
}

describe('DepositsSection', () => {
  it('shows only the Add Deposit button and a short line when there are no deposits', () => {
    renderDeposits(NO_DEPOSITS);
    expect(screen.getByRole('button', { name: 'Add Deposit' })).toBeInTheDocument();
    expect(screen.getByText(/No deposits yet/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });

  it('says the deposits are not loaded when the shell has none', () => {
    renderDeposits(null);
    expect(screen.getByText('Deposits are not loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Deposit' })).toBeInTheDocument();
  });

  it('lists deposits in US dollars under the monthly total and explains bi-weekly', () => {
    renderDeposits(TWO_DEPOSITS);
    expect(screen.getByRole('heading', { name: 'Total Monthly Deposits: $3,500.50' })).toBeInTheDocument();
    expect(screen.getByText(/amount × 26 ÷ 12/)).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(table).toHaveClass('table-striped', 'table-bordered', 'table-hover');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Type', 'Day', 'Amount', 'Start Date', 'Frequency', 'Actions']);
    const paycheckRow = screen.getByRole('row', { name: /Paycheck/ });
    expect(within(paycheckRow).getByRole('rowheader', { name: 'Paycheck' })).toBeInTheDocument();
    expect(within(paycheckRow).getByText('$1,500.00')).toBeInTheDocument();
    expect(within(paycheckRow).getByText('Friday')).toBeInTheDocument();
    expect(within(paycheckRow).getByText('Fri, Jan 2, 2026')).toHaveAttribute('datetime', '2026-01-02');
    expect(within(paycheckRow).getByText(/Bi-weekly/)).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Rent Share/ })).getByText('$250.50')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Paycheck' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Rent Share' })).toBeInTheDocument();
  });

  it('explains how a month counts each of the five frequencies beside the total', () => {
    renderDeposits(TWO_DEPOSITS);
    expect(screen.getByText(/amount × 26 ÷ 12/)).toHaveTextContent(
      'A month counts weekly (W) amount × 52 ÷ 12, bi-weekly (BW) amount × 26 ÷ 12, twice a month (SM) × 2, monthly (M) and end of month (EOM) once.',
    );
  });

  it('names the frequency of every code in the table', () => {
    const codes = ['W', 'BW', 'SM', 'M', 'EOM'] as const;
    const deposits = codes.map((frequency, index): Deposit => ({ ...RENT_SHARE, id: `d${index}`, name: `Pay ${frequency}`, frequency }));
    renderDeposits({ deposits, totalDeposits: 1 });
    const frequencyCell = (code: string) => within(screen.getByRole('row', { name: new RegExp(`^Pay ${code} `) })).getAllByRole('cell')[4];
    expect(frequencyCell('W')).toHaveTextContent('W – Weekly');
    expect(frequencyCell('BW')).toHaveTextContent('BW – Bi-weekly (every 14 days)');
    expect(frequencyCell('SM')).toHaveTextContent('SM – Twice a month (15th and last day)');
    expect(frequencyCell('M')).toHaveTextContent('M – Monthly');
    expect(frequencyCell('EOM')).toHaveTextContent('EOM – End of month');
  });

  it('lists the five frequencies by code and label, in the domain order', async () => {
    const { user } = renderDeposits(NO_DEPOSITS);
    const dialog = await openAddDialog(user);
    const options = within(within(dialog).getByLabelText('Frequency')).getAllByRole('option');
    expect(options.map((option) => [option.getAttribute('value'), option.textContent])).toEqual([
      ['', '-- Please Select --'],
      ['W', 'W – Weekly'],
      ['BW', 'BW – Bi-weekly (every 14 days)'],
      ['SM', 'SM – Twice a month (15th and last day)'],
      ['M', 'M – Monthly'],
      ['EOM', 'EOM – End of month'],
    ]);
  });

  it('sets the day from the frequency: the start weekday for W and BW, N/A for SM, M and EOM, saying why', async () => {
    const { user } = renderDeposits(NO_DEPOSITS);
    const dialog = await openAddDialog(user);
    const day = within(dialog).getByLabelText('Day');
    const frequency = within(dialog).getByLabelText('Frequency');
    expect(day).toBeEnabled();

    // 2031-01-06 is a Monday.
    await user.type(within(dialog).getByLabelText('Start Date'), '2031-01-06');
    await user.selectOptions(frequency, 'W');
    expect(day).toHaveValue('Monday');
    expect(day).toBeDisabled();
    expect(day).toHaveAccessibleDescription('Set by the start date: a weekly deposit is paid on its weekday.');
    await user.selectOptions(frequency, 'BW');
    expect(day).toHaveValue('Monday');
    expect(day).toHaveAccessibleDescription('Set by the start date: a bi-weekly deposit is paid on its weekday.');

    for (const [code, help] of [
      ['SM', 'N/A: paid on the 15th and the last day of each month, or the Friday before a weekend.'],
      ['M', "N/A: paid on the start date's day of each month, or the Friday before a weekend."],
      ['EOM', 'N/A: paid on the last day of each month, or the Friday before a weekend.'],
    ] as const) {
      await user.selectOptions(frequency, code);
      expect(day).toHaveValue('N/A');
      expect(day).toBeDisabled();
      expect(day).toHaveAccessibleDescription(help);
    }
  });

  it('sends a twice-a-month deposit with N/A, before a start date is even picked for the day', async () => {
    const addDeposit = vi.fn<ApiClient['addDeposit']>().mockResolvedValue(depositsAnswer(NO_DEPOSITS));
    const { user } = renderDeposits(NO_DEPOSITS, fakeApiClient({ addDeposit }));
    const dialog = await openAddDialog(user);
    await user.selectOptions(within(dialog).getByLabelText('Frequency'), 'SM');
    expect(within(dialog).getByLabelText('Day')).toHaveValue('N/A');
    await fillDeposit(user, dialog, { name: 'Acme', type: 'Direct Deposit', amount: '1200', startDate: '2031-01-15', frequency: 'SM' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addDeposit).toHaveBeenCalledExactlyOnceWith({
      name: 'Acme',
      type: 'Direct Deposit',
      day: 'N/A',
      amount: 1200,
      startDate: '2031-01-15',
      frequency: 'SM',
    });
  });

  it("opens Edit Deposit at a weekly deposit's frequency and weekday", async () => {
    const weekly: Deposit = { ...PAYCHECK, id: 'd3', name: 'Tips', day: 'Monday', startDate: '2031-01-06', frequency: 'W' };
    const { user } = renderDeposits({ deposits: [weekly], totalDeposits: 6500 });
    await user.click(screen.getByRole('button', { name: 'Edit Tips' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Deposit' });
    expect(within(dialog).getByLabelText('Frequency')).toHaveValue('W');
    expect(within(dialog).getByLabelText('Day')).toHaveValue('Monday');
    expect(within(dialog).getByLabelText('Day')).toBeDisabled();
  });

  it('opens the add dialog with labelled fields that start empty', async () => {
    const { user } = renderDeposits(NO_DEPOSITS);
    const dialog = await openAddDialog(user);
    expect(within(dialog).getByLabelText('Name')).toHaveValue('');
    for (const select of ['Type', 'Day', 'Frequency']) {
      const field = within(dialog).getByLabelText(select);
      expect(field).toHaveValue('');
      expect(within(field).getAllByRole('option')[0]).toHaveTextContent('-- Please Select --');
    }
    expect(within(dialog).getByLabelText('Amount')).toHaveAttribute('type', 'number');
    expect(within(dialog).getByLabelText('Amount')).toHaveAttribute('step', '0.01');
    expect(within(dialog).getByLabelText('Start Date')).toHaveAttribute('type', 'date');
    expect(within(dialog).getByRole('option', { name: 'Direct Deposit' })).toHaveValue('Direct Deposit');
    expect(within(dialog).getByRole('option', { name: 'N/A' })).toHaveValue('N/A');
    expect(within(dialog).getByRole('option', { name: /^BW/ })).toHaveValue('BW');
    expect(within(dialog).getByRole('option', { name: /^EOM/ })).toHaveValue('EOM');
    for (const name of ['Add', 'Cancel', 'Close']) expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
  });

  it('adds a deposit: sends the checked payload, shows the answer and closes', async () => {
    const answer = depositsAnswer({ deposits: [RENT_SHARE], totalDeposits: 250.5 });
    const addDeposit = vi.fn<ApiClient['addDeposit']>().mockResolvedValue(answer);
    const { user, onChange, onError } = renderDeposits(NO_DEPOSITS, fakeApiClient({ addDeposit }));
    const dialog = await openAddDialog(user);

    await fillDeposit(user, dialog, { name: '  Rent Share ', type: 'Check', amount: '250.50', startDate: '2026-01-30', frequency: 'EOM' });
    expect(within(dialog).getByLabelText('Day')).toHaveValue('N/A');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(addDeposit).toHaveBeenCalledExactlyOnceWith({
      name: 'Rent Share',
      type: 'Check',
      day: 'N/A',
      amount: 250.5,
      startDate: '2026-01-30',
      frequency: 'EOM',
    });
    expect(onChange).toHaveBeenCalledExactlyOnceWith(answer);
    expect(onError).not.toHaveBeenCalled();
    await waitForDialogToClose('Add Deposit');
    expect(screen.getByRole('heading', { name: 'Total Monthly Deposits: $250.50' })).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: 'Rent Share' })).toBeInTheDocument();
  });

  it('fills the day of a bi-weekly deposit from the start date, and keeps showing it', async () => {
    const { user } = renderDeposits(NO_DEPOSITS);
    const dialog = await openAddDialog(user);
    const day = within(dialog).getByLabelText('Day');
    const startDate = within(dialog).getByLabelText('Start Date');

    await user.selectOptions(within(dialog).getByLabelText('Frequency'), 'BW');
    expect(day).toHaveValue('');
    await user.type(startDate, '2026-01-02');
    expect(day).toHaveValue('Friday');
    expect(day).toBeVisible();
    await user.clear(startDate);
    await user.type(startDate, '2026-01-05');
    expect(day).toHaveValue('Monday');
    await user.selectOptions(within(dialog).getByLabelText('Frequency'), 'EOM');
    expect(day).toHaveValue('N/A');
  });

  it('sends the weekday of the start date for a bi-weekly deposit', async () => {
    const addDeposit = vi.fn<ApiClient['addDeposit']>().mockResolvedValue(depositsAnswer({ deposits: [PAYCHECK], totalDeposits: 3250 }));
    const { user } = renderDeposits(NO_DEPOSITS, fakeApiClient({ addDeposit }));
    const dialog = await openAddDialog(user);
    await fillDeposit(user, dialog, { name: 'Paycheck', type: 'Direct Deposit', amount: '1500', startDate: '2026-01-02', frequency: 'BW' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addDeposit).toHaveBeenCalledWith(expect.objectContaining({ day: 'Friday', frequency: 'BW', amount: 1500 }));
  });

  it('opens with an empty date and fields again after Cancel or Close', async () => {
    const { user } = renderDeposits(NO_DEPOSITS);
    let dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Paycheck');
    await user.type(within(dialog).getByLabelText('Start Date'), '2026-01-02');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitForDialogToClose('Add Deposit');

    dialog = await openAddDialog(user);
    expect(within(dialog).getByLabelText('Start Date')).toHaveValue('');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('');
    await user.type(within(dialog).getByLabelText('Start Date'), '2026-01-02');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitForDialogToClose('Add Deposit');

    dialog = await openAddDialog(user);
    expect(within(dialog).getByLabelText('Start Date')).toHaveValue('');
  });

  it('marks wrong fields with the contract messages and sends nothing', async () => {
    const addDeposit = vi.fn<ApiClient['addDeposit']>();
    const { user } = renderDeposits(NO_DEPOSITS, fakeApiClient({ addDeposit }));
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText('Amount'), '12.345');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveClass('is-invalid');
    expect(name).toHaveAccessibleDescription('Name is required.');
    expect(name).toHaveFocus();
    expect(within(dialog).getByLabelText('Type')).toHaveAccessibleDescription('Type must be Direct Deposit or Check.');
    expect(within(dialog).getByLabelText('Amount')).toHaveAccessibleDescription('Amount must have at most two decimal places.');
    expect(within(dialog).getByLabelText('Frequency')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText('Start Date')).toHaveAttribute('aria-invalid', 'true');
    expect(addDeposit).not.toHaveBeenCalled();
    await findOpenDialog('Add Deposit');
  });

  it('keeps the dialog open with its values when the call fails, and reports the error', async () => {
    const failure = new ApiCallError('addDeposit', 400, 'Amount must be at most $99,999,999.99.', {
      amount: 'Amount must be at most $99,999,999.99.',
    });
    const addDeposit = vi.fn<ApiClient['addDeposit']>().mockRejectedValue(failure);
    const { user, onChange, onError } = renderDeposits(NO_DEPOSITS, fakeApiClient({ addDeposit }));
    const dialog = await openAddDialog(user);
    await fillDeposit(user, dialog, { name: 'Bonus', type: 'Check', amount: '5000', startDate: '2026-03-31', frequency: 'EOM' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
    expect(onChange).not.toHaveBeenCalled();
    const stillOpen = await findOpenDialog('Add Deposit');
    expect(within(stillOpen).getByLabelText('Name')).toHaveValue('Bonus');
    expect(within(stillOpen).getByLabelText('Type')).toHaveValue('Check');
    expect(within(stillOpen).getByLabelText('Amount')).toHaveValue(5000);
    expect(within(stillOpen).getByLabelText('Start Date')).toHaveValue('2026-03-31');
    expect(within(stillOpen).getByLabelText('Frequency')).toHaveValue('EOM');
    const amount = within(stillOpen).getByLabelText('Amount');
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription('Amount must be at most $99,999,999.99.');
    expect(within(stillOpen).getByRole('button', { name: 'Add' })).toBeEnabled();
  });

  it("keeps a viewer's values when the server refuses the change, and reports its words (decision 0092)", async () => {
    const failure = new ApiCallError('addDeposit', 403, 'You can view this budget but not change it.');
    const addDeposit = vi.fn<ApiClient['addDeposit']>().mockRejectedValue(failure);
    const { user, onChange, onError } = renderDeposits(NO_DEPOSITS, fakeApiClient({ addDeposit }));
    const dialog = await openAddDialog(user);
    await fillDeposit(user, dialog, { name: 'Bonus', type: 'Check', amount: '5000', startDate: '2026-03-31', frequency: 'EOM' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    // The view's "Whoops!" says "Failed to add deposit! You can view this budget but not change it."
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
    expect(failure).toMatchObject({ message: 'Failed to add deposit!', detail: 'You can view this budget but not change it.' });
    expect(onChange).not.toHaveBeenCalled();
    const stillOpen = await findOpenDialog('Add Deposit');
    expect(within(stillOpen).getByLabelText('Name')).toHaveValue('Bonus');
    expect(within(stillOpen).getByLabelText('Amount')).toHaveValue(5000);
  });

  it('edits a deposit in the same form, titled Edit Deposit, and saves it', async () => {
    const answer = depositsAnswer({ deposits: [{ ...PAYCHECK, amount: 1600 }, RENT_SHARE], totalDeposits: 3717.17 });
    const updateDeposit = vi.fn<ApiClient['updateDeposit']>().mockResolvedValue(answer);
    const { user, onChange } = renderDeposits(TWO_DEPOSITS, fakeApiClient({ updateDeposit }));

    await user.click(screen.getByRole('button', { name: 'Edit Paycheck' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Deposit' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Paycheck');
    expect(within(dialog).getByLabelText('Type')).toHaveValue('Direct Deposit');
    expect(within(dialog).getByLabelText('Day')).toHaveValue('Friday');
    expect(within(dialog).getByLabelText('Amount')).toHaveValue(1500);
    expect(within(dialog).getByLabelText('Start Date')).toHaveValue('2026-01-02');
    expect(within(dialog).getByLabelText('Frequency')).toHaveValue('BW');
    const amount = within(dialog).getByLabelText('Amount');
    await user.clear(amount);
    await user.type(amount, '1600');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(updateDeposit).toHaveBeenCalledExactlyOnceWith('d1', {
      name: 'Paycheck',
      type: 'Direct Deposit',
      day: 'Friday',
      amount: 1600,
      startDate: '2026-01-02',
      frequency: 'BW',
    });
    expect(onChange).toHaveBeenCalledExactlyOnceWith(answer);
    await waitForDialogToClose('Edit Deposit');
    expect(screen.getByRole('heading', { name: 'Total Monthly Deposits: $3,717.17' })).toBeInTheDocument();

    // The next add starts empty, not with the deposit just edited.
    const addDialog = await openAddDialog(user);
    expect(within(addDialog).getByLabelText('Name')).toHaveValue('');
  });

  it('deletes a deposit only after confirmation', async () => {
    const answer = depositsAnswer({ deposits: [RENT_SHARE], totalDeposits: 250.5 });
    const deleteDeposit = vi.fn<ApiClient['deleteDeposit']>().mockResolvedValue(answer);
    const { user, onChange } = renderDeposits(TWO_DEPOSITS, fakeApiClient({ deleteDeposit }));

    await user.click(screen.getByRole('button', { name: 'Delete Paycheck' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Deposit' });
    expect(dialog).toHaveTextContent('Paycheck');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitForDialogToClose('Delete Deposit');
    expect(deleteDeposit).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Delete Paycheck' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Deposit' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(deleteDeposit).toHaveBeenCalledExactlyOnceWith('d1', 'Paycheck');
    expect(onChange).toHaveBeenCalledExactlyOnceWith(answer);
    await waitForDialogToClose('Delete Deposit');
    expect(screen.queryByRole('rowheader', { name: 'Paycheck' })).not.toBeInTheDocument();
  });

  it('opens each delete confirmation fresh: after one deletion worked, the next can be confirmed', async () => {
    const deleteDeposit = vi
      .fn<ApiClient['deleteDeposit']>()
      .mockResolvedValueOnce(depositsAnswer({ deposits: [RENT_SHARE], totalDeposits: 250.5 }))
      .mockResolvedValueOnce(depositsAnswer(NO_DEPOSITS));
    const { user } = renderDeposits(TWO_DEPOSITS, fakeApiClient({ deleteDeposit }));

    await user.click(screen.getByRole('button', { name: 'Delete Paycheck' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete Deposit' })).getByRole('button', { name: 'Delete' }));
    await waitForDialogToClose('Delete Deposit');

    await user.click(screen.getByRole('button', { name: 'Delete Rent Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Deposit' });
    expect(dialog).toHaveTextContent('Rent Share');
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(deleteDeposit).toHaveBeenLastCalledWith('d2', 'Rent Share');
    await waitForDialogToClose('Delete Deposit');
  });

  it('keeps the delete confirmation open and reports the error when deleting fails', async () => {
    const failure = new ApiCallError('deleteDeposit', 404, 'Deposit not found.');
    const deleteDeposit = vi.fn<ApiClient['deleteDeposit']>().mockRejectedValue(failure);
    const { user, onChange, onError } = renderDeposits(TWO_DEPOSITS, fakeApiClient({ deleteDeposit }));
    await user.click(screen.getByRole('button', { name: 'Delete Rent Share' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete Deposit' })).getByRole('button', { name: 'Delete' }));
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
    expect(onChange).not.toHaveBeenCalled();
    await findOpenDialog('Delete Deposit');
  });
});

describe('DepositsSection with several accounts (issue 25)', () => {
  const ACCOUNTS = [
    { id: 'c1', name: 'Checking', primary: true },
    { id: 's1', name: 'Savings', primary: false },
  ];
  const WITH_ACCOUNTS: DepositsInfo = { deposits: [PAYCHECK, { ...RENT_SHARE, accountId: 's1' }], totalDeposits: 3500.5 };
  const renderWithAccounts = (info: DepositsInfo, client?: ApiClient, accounts = ACCOUNTS) =>
    renderSection((props) => <DepositsSection {...props} accounts={accounts} />, depositsAnswer(info), client);

  it("names each deposit's account in an Account column; one naming none is the primary account's", () => {
    renderWithAccounts(WITH_ACCOUNTS);
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Type', 'Day', 'Amount', 'Start Date', 'Frequency', 'Account', 'Actions']);
    expect(within(screen.getByRole('row', { name: /Paycheck/ })).getByRole('cell', { name: 'Checking' })).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Rent Share/ })).getByRole('cell', { name: 'Savings' })).toBeInTheDocument();
  });

  it('adds a deposit to the account chosen, the primary one preselected', async () => {
    const addDeposit = vi.fn<ApiClient['addDeposit']>().mockResolvedValue(depositsAnswer(WITH_ACCOUNTS));
    const { user } = renderWithAccounts(WITH_ACCOUNTS, fakeApiClient({ addDeposit }));
    const dialog = await openAddDialog(user);
    const account = within(dialog).getByRole('combobox', { name: 'Account' });
    expect(account).toHaveDisplayValue('Checking');
    await fillDeposit(user, dialog, { name: 'Bonus', type: 'Check', amount: '100', startDate: '2031-01-31', frequency: 'EOM' });
    await user.selectOptions(account, 'Savings');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addDeposit).toHaveBeenCalledExactlyOnceWith({
      name: 'Bonus',
      type: 'Check',
      day: 'N/A',
      amount: 100,
      startDate: '2031-01-31',
      frequency: 'EOM',
      accountId: 's1',
    });
  });

  it("opens Edit Deposit at the deposit's own account", async () => {
    const updateDeposit = vi.fn<ApiClient['updateDeposit']>().mockResolvedValue(depositsAnswer(WITH_ACCOUNTS));
    const { user } = renderWithAccounts(WITH_ACCOUNTS, fakeApiClient({ updateDeposit }));
    await user.click(screen.getByRole('button', { name: 'Edit Rent Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Deposit' });
    expect(within(dialog).getByRole('combobox', { name: 'Account' })).toHaveDisplayValue('Savings');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(updateDeposit).toHaveBeenCalledExactlyOnceWith('d2', expect.objectContaining({ accountId: 's1' }));
  });

  it('with one account shows no Account column or select', async () => {
    const { user } = renderWithAccounts(TWO_DEPOSITS, undefined, ACCOUNTS.slice(0, 1));
    expect(screen.queryByRole('columnheader', { name: 'Account' })).not.toBeInTheDocument();
    const dialog = await openAddDialog(user);
    expect(within(dialog).queryByRole('combobox', { name: 'Account' })).not.toBeInTheDocument();
  });
});
