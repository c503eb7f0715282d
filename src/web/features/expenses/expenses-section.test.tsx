import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Expense, ExpensesInfo } from '../../../contract/expenses.js';
import { ApiCallError, type ApiClient } from '../../api/api-client.js';
import { expensesAnswer } from '../../test-support/answers.js';
import { findOpenDialog, waitForDialogToClose } from '../../test-support/dialog-queries.js';
import { fakeApiClient } from '../../test-support/fake-api-client.js';
import { renderSection } from '../../test-support/render-section.js';
import { EXPENSE_SORT_STORAGE_KEY } from './expense-sort-preference.js';
import { ExpensesSection } from './expenses-section.js';

// In the server's default order: day, then name.
const RENT: Expense = { id: 'e1', name: 'Rent', type: 'Housing', frequency: 'M', day: 1, amount: 1500, startDate: null, endDate: null };
const INTERNET: Expense = {
  id: 'e2',
  name: 'Internet',
  type: 'Utilities',
  frequency: 'M',
  day: 10,
  amount: 59.99,
  startDate: null,
  endDate: '2099-12-31',
};
const CAR_LOAN: Expense = {
  id: 'e3',
  name: 'Car Loan',
  type: 'Transport',
  frequency: 'M',
  day: 28,
  amount: 320.5,
  startDate: null,
  endDate: '2001-01-31',
};
const THREE_EXPENSES: ExpensesInfo = { expenses: [RENT, INTERNET, CAR_LOAN], totalExpenses: 1559.99 };
const NO_EXPENSES: ExpensesInfo = { expenses: [], totalExpenses: 0 };

const renderExpenses = (info: ExpensesInfo | null, client?: ApiClient) =>
  renderSection(ExpensesSection, info && expensesAnswer(info), client);

async function openAddDialog(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Add Expense' }));
  return await screen.findByRole('dialog', { name: 'Add Expense' });
}

async function fillExpense(
  user: UserEvent,
  dialog: HTMLElement,
  values: { name: string; type: string; frequency?: string; day?: string; startDate?: string; amount: string; endDate?: string },
) {
  await user.type(within(dialog).getByLabelText('Name'), values.name);
  await user.type(within(dialog).getByLabelText('Type'), values.type);
  if (values.frequency) await user.selectOptions(within(dialog).getByLabelText('Frequency'), values.frequency);
  if (values.day) await user.type(within(dialog).getByLabelText('Day'), values.day);
  if (values.startDate) await user.type(within(dialog).getByLabelText('Start Date'), values.startDate);
  await user.type(within(dialog).getByLabelText('Amount'), values.amount);
  if (values.endDate) await user.type(within(dialog).getByLabelText('End Date'), values.endDate);
}

const rowNames = () => screen.getAllByRole('rowheader').map((cell) => cell.textContent);

describe('ExpensesSection', () => {
  it('shows only the Add Expense button when there are no expenses', () => {
    renderExpenses(NO_EXPENSES);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Add Expense']);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });

  it('shows only the Add Expense button when the expenses are not loaded', () => {
    renderExpenses(null);
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Add Expense']);
  });

  it('lists expenses in US dollars under the monthly total, with "No end" for an empty end date', () => {
    renderExpenses(THREE_EXPENSES);
    expect(screen.getByRole('heading', { name: 'Total Monthly Expenses: $1,559.99' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Expense' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sort' })).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(table).toHaveClass('table-striped', 'table-bordered', 'table-hover');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Type', 'Frequency', 'Day', 'Amount', 'End Date', 'Actions']);
    expect(rowNames()).toEqual(['Rent', 'Internet', 'Car Loan']);
    const rent = screen.getByRole('row', { name: /^Rent/ });
    expect(within(rent).getByText('$1,500.00')).toBeInTheDocument();
    expect(within(rent).getByText('No end')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /^Internet/ })).getByText('Thu, Dec 31, 2099')).toHaveAttribute('datetime', '2099-12-31');
    // An end date in the past is marked: the total leaves that expense out.
    expect(within(screen.getByRole('row', { name: /^Car Loan/ })).getByText('Ended')).toBeInTheDocument();
    expect(within(rent).queryByText('Ended')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Rent' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Car Loan' })).toBeInTheDocument();
  });

  it('opens the add dialog with the labelled fields of a monthly bill', async () => {
    const { user } = renderExpenses(NO_EXPENSES);
    const dialog = await openAddDialog(user);
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('type', 'text');
    expect(within(dialog).getByLabelText('Type')).toHaveAttribute('type', 'text');
    expect(within(dialog).getByLabelText('Frequency')).toHaveValue('M');
    expect(within(dialog).getByLabelText('Day')).toHaveAttribute('type', 'number');
    expect(within(dialog).getByLabelText('Start Date')).toHaveAttribute('type', 'date');
    expect(within(dialog).getByLabelText('Start Date')).toHaveValue('');
    expect(within(dialog).getByLabelText('Amount')).toHaveAttribute('type', 'number');
    expect(within(dialog).getByLabelText('End Date')).toHaveAttribute('type', 'date');
    for (const name of ['Add', 'Cancel', 'Close']) expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
  });

  it('adds an expense with no end date: sends the payload, shows the answer and closes', async () => {
    const answer = expensesAnswer({ expenses: [INTERNET], totalExpenses: 59.99 });
    const addExpense = vi.fn<ApiClient['addExpense']>().mockResolvedValue(answer);
    const { user, onChange, onError } = renderExpenses(NO_EXPENSES, fakeApiClient({ addExpense }));
    const dialog = await openAddDialog(user);
    await fillExpense(user, dialog, { name: ' Internet ', type: 'Utilities', day: '10', amount: '59.99' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(addExpense).toHaveBeenCalledExactlyOnceWith({
      name: 'Internet',
      type: 'Utilities',
      frequency: 'M',
      day: 10,
      startDate: null,
      amount: 59.99,
      endDate: null,
    });
    expect(onChange).toHaveBeenCalledExactlyOnceWith(answer);
    expect(onError).not.toHaveBeenCalled();
    await waitForDialogToClose('Add Expense');
    expect(screen.getByRole('heading', { name: 'Total Monthly Expenses: $59.99' })).toBeInTheDocument();
    expect(rowNames()).toEqual(['Internet']);
  });

  it('sends the end date when one is picked, and opens empty again afterwards', async () => {
    const addExpense = vi.fn<ApiClient['addExpense']>().mockResolvedValue(expensesAnswer({ expenses: [INTERNET], totalExpenses: 59.99 }));
    const { user } = renderExpenses(NO_EXPENSES, fakeApiClient({ addExpense }));
    let dialog = await openAddDialog(user);
    await fillExpense(user, dialog, { name: 'Internet', type: 'Utilities', day: '10', amount: '59.99', endDate: '2099-12-31' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addExpense).toHaveBeenCalledWith(expect.objectContaining({ endDate: '2099-12-31' }));
    await waitForDialogToClose('Add Expense');

    dialog = await openAddDialog(user);
    for (const label of ['Name', 'Type', 'End Date']) expect(within(dialog).getByLabelText(label)).toHaveValue('');
    expect(within(dialog).getByLabelText('Day')).toHaveValue(null);
  });

  it('marks wrong fields with the contract messages and sends nothing', async () => {
    const addExpense = vi.fn<ApiClient['addExpense']>();
    const { user } = renderExpenses(NO_EXPENSES, fakeApiClient({ addExpense }));
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText('Day'), '32');
    await user.type(within(dialog).getByLabelText('Amount'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveClass('is-invalid');
    expect(name).toHaveAccessibleDescription('Name is required.');
    expect(name).toHaveFocus();
    expect(within(dialog).getByLabelText('Type')).toHaveAccessibleDescription(expect.stringContaining('Type is required.'));
    expect(within(dialog).getByLabelText('Day')).toHaveAccessibleDescription(
      expect.stringContaining('Day must be a whole number from 1 to 31.'),
    );
    expect(within(dialog).getByLabelText('Amount')).toHaveAccessibleDescription('Amount must be greater than 0.');
    expect(within(dialog).getByLabelText('End Date')).not.toHaveAttribute('aria-invalid');
    expect(addExpense).not.toHaveBeenCalled();
  });

  it('keeps the dialog open with its values when the call fails, and reports the error', async () => {
    const failure = new ApiCallError('addExpense', 400, 'Amount must be at most $99,999,999.99.', {
      amount: 'Amount must be at most $99,999,999.99.',
    });
    const addExpense = vi.fn<ApiClient['addExpense']>().mockRejectedValue(failure);
    const { user, onChange, onError } = renderExpenses(NO_EXPENSES, fakeApiClient({ addExpense }));
    const dialog = await openAddDialog(user);
    await fillExpense(user, dialog, { name: 'Mortgage', type: 'Housing', day: '5', amount: '2000', endDate: '2040-06-30' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
    expect(onChange).not.toHaveBeenCalled();
    const stillOpen = await findOpenDialog('Add Expense');
    expect(within(stillOpen).getByLabelText('Name')).toHaveValue('Mortgage');
    expect(within(stillOpen).getByLabelText('Type')).toHaveValue('Housing');
    expect(within(stillOpen).getByLabelText('Day')).toHaveValue(5);
    expect(within(stillOpen).getByLabelText('Amount')).toHaveValue(2000);
    expect(within(stillOpen).getByLabelText('End Date')).toHaveValue('2040-06-30');
    const amount = within(stillOpen).getByLabelText('Amount');
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription('Amount must be at most $99,999,999.99.');
  });

  it('edits an expense in the same form, titled Edit Expense, and saves it', async () => {
    const answer = expensesAnswer({ expenses: [RENT, { ...INTERNET, amount: 65 }, CAR_LOAN], totalExpenses: 1565 });
    const updateExpense = vi.fn<ApiClient['updateExpense']>().mockResolvedValue(answer);
    const { user, onChange } = renderExpenses(THREE_EXPENSES, fakeApiClient({ updateExpense }));

    await user.click(screen.getByRole('button', { name: 'Edit Internet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Expense' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Internet');
    expect(within(dialog).getByLabelText('Type')).toHaveValue('Utilities');
    expect(within(dialog).getByLabelText('Frequency')).toHaveValue('M');
    expect(within(dialog).getByLabelText('Day')).toHaveValue(10);
    expect(within(dialog).getByLabelText('Start Date')).toHaveValue('');
    expect(within(dialog).getByLabelText('Amount')).toHaveValue(59.99);
    expect(within(dialog).getByLabelText('End Date')).toHaveValue('2099-12-31');
    const amount = within(dialog).getByLabelText('Amount');
    await user.clear(amount);
    await user.type(amount, '65');
    await user.clear(within(dialog).getByLabelText('End Date'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(updateExpense).toHaveBeenCalledExactlyOnceWith('e2', {
      name: 'Internet',
      type: 'Utilities',
      frequency: 'M',
      day: 10,
      startDate: null,
      amount: 65,
      endDate: null,
    });
    expect(onChange).toHaveBeenCalledExactlyOnceWith(answer);
    await waitForDialogToClose('Edit Expense');
    expect(screen.getByRole('heading', { name: 'Total Monthly Expenses: $1,565.00' })).toBeInTheDocument();
  });

  it('deletes an expense only after confirmation', async () => {
    const answer = expensesAnswer({ expenses: [INTERNET, CAR_LOAN], totalExpenses: 59.99 });
    const deleteExpense = vi.fn<ApiClient['deleteExpense']>().mockResolvedValue(answer);
    const { user, onChange } = renderExpenses(THREE_EXPENSES, fakeApiClient({ deleteExpense }));

    await user.click(screen.getByRole('button', { name: 'Delete Rent' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Expense' });
    expect(dialog).toHaveTextContent('Rent');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitForDialogToClose('Delete Expense');
    expect(deleteExpense).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Delete Rent' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Expense' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(deleteExpense).toHaveBeenCalledExactlyOnceWith('e1', 'Rent');
    expect(onChange).toHaveBeenCalledExactlyOnceWith(answer);
    await waitForDialogToClose('Delete Expense');
    expect(rowNames()).toEqual(['Internet', 'Car Loan']);
  });

  it('reports a failed delete and keeps the confirmation open', async () => {
    const failure = new ApiCallError('deleteExpense', 404, 'Expense not found.');
    const deleteExpense = vi.fn<ApiClient['deleteExpense']>().mockRejectedValue(failure);
    const { user, onError } = renderExpenses(THREE_EXPENSES, fakeApiClient({ deleteExpense }));
    await user.click(screen.getByRole('button', { name: 'Delete Rent' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete Expense' })).getByRole('button', { name: 'Delete' }));
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
    await findOpenDialog('Delete Expense');
    expect(rowNames()).toEqual(['Rent', 'Internet', 'Car Loan']);
  });

  describe('frequencies', () => {
    const expenseOf = (fields: Partial<Expense> & Pick<Expense, 'id' | 'name' | 'frequency' | 'day'>): Expense => ({
      type: 'Bills',
      amount: 120,
      startDate: null,
      endDate: null,
      ...fields,
    });
    // 2031-03-03 is a Monday.
    const SUBSCRIPTIONS: Expense[] = [
      expenseOf({ id: 'm', name: 'Rent', frequency: 'M', day: 15 }),
      expenseOf({ id: 'w', name: 'Groceries', frequency: 'W', day: 3, startDate: '2031-03-03' }),
      expenseOf({ id: 'bw', name: 'Cleaner', frequency: 'BW', day: 3, startDate: '2031-03-03' }),
      expenseOf({ id: 'q', name: 'Water', frequency: 'Q', day: 15, startDate: '2031-03-15' }),
      expenseOf({ id: 'y', name: 'Insurance', frequency: 'Y', day: 15, startDate: '2031-03-15' }),
    ];
    const INSURANCE = SUBSCRIPTIONS[4] as Expense;

    it('offers the five frequencies by name, Monthly chosen, with nothing to leave unchosen', async () => {
      const { user } = renderExpenses(NO_EXPENSES);
      const dialog = await openAddDialog(user);
      const frequency = within(dialog).getByLabelText('Frequency');
      expect(frequency).toHaveValue('M');
      expect(
        within(frequency)
          .getAllByRole('option')
          .map((option) => [option.getAttribute('value'), option.textContent]),
      ).toEqual([
        ['M', 'Monthly'],
        ['W', 'Weekly'],
        ['BW', 'Every 2 weeks'],
        ['Q', 'Every 3 months'],
        ['Y', 'Yearly'],
      ]);
    });

    it('shows only what each frequency needs: a Day for a monthly bill, a Start Date as the first due date for the others', async () => {
      const { user } = renderExpenses(NO_EXPENSES);
      const dialog = await openAddDialog(user);
      const frequency = within(dialog).getByLabelText('Frequency');
      const startDate = () => within(dialog).getByLabelText('Start Date');
      expect(within(dialog).getByLabelText('Day')).toBeInTheDocument();
      expect(startDate()).toHaveAccessibleDescription('Optional: the month it first falls due. Leave empty when it already does.');

      for (const [code, help] of [
        ['W', 'The first due date; then every 7 days.'],
        ['BW', 'The first due date; then every 14 days.'],
        ['Q', 'The first due date; then every 3 months on its day (the last day in shorter months).'],
        ['Y', 'The first due date; then every year on that date (Feb 28 when there is no Feb 29).'],
      ] as const) {
        await user.selectOptions(frequency, code);
        expect(within(dialog).queryByLabelText('Day')).not.toBeInTheDocument();
        expect(startDate()).toHaveAccessibleDescription(help);
      }

      await user.selectOptions(frequency, 'Monthly');
      expect(within(dialog).getByLabelText('Day')).toBeInTheDocument();
    });

    it('adds a yearly bill: sends its frequency and start date, and the day the contract derives rather than one typed before', async () => {
      const answer = expensesAnswer({ expenses: [INSURANCE], totalExpenses: 10 });
      const addExpense = vi.fn<ApiClient['addExpense']>().mockResolvedValue(answer);
      const { user, onChange } = renderExpenses(NO_EXPENSES, fakeApiClient({ addExpense }));
      const dialog = await openAddDialog(user);
      await user.type(within(dialog).getByLabelText('Day'), '10');
      await fillExpense(user, dialog, { name: 'Insurance', type: 'Bills', frequency: 'Yearly', startDate: '2031-03-15', amount: '120' });
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));

      expect(addExpense).toHaveBeenCalledExactlyOnceWith({
        name: 'Insurance',
        type: 'Bills',
        frequency: 'Y',
        day: 15,
        startDate: '2031-03-15',
        amount: 120,
        endDate: null,
      });
      expect(onChange).toHaveBeenCalledExactlyOnceWith(answer);
      await waitForDialogToClose('Add Expense');
    });

    it('marks a missing Start Date of a bill that is not monthly with the contract message, and sends nothing', async () => {
      const addExpense = vi.fn<ApiClient['addExpense']>();
      const { user } = renderExpenses(NO_EXPENSES, fakeApiClient({ addExpense }));
      const dialog = await openAddDialog(user);
      await fillExpense(user, dialog, { name: 'Water', type: 'Utilities', frequency: 'Q', amount: '90' });
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));

      const startDate = within(dialog).getByLabelText('Start Date');
      expect(startDate).toHaveAttribute('aria-invalid', 'true');
      expect(startDate).toHaveAccessibleDescription(
        expect.stringContaining('Start Date is required for an every-3-months bill: it is the first due date.'),
      );
      expect(startDate).toHaveFocus();
      expect(addExpense).not.toHaveBeenCalled();
      await findOpenDialog('Add Expense');
    });

    it('sends a monthly bill with its own day and the first month it falls due', async () => {
      const addExpense = vi.fn<ApiClient['addExpense']>().mockResolvedValue(expensesAnswer(NO_EXPENSES));
      const { user } = renderExpenses(NO_EXPENSES, fakeApiClient({ addExpense }));
      const dialog = await openAddDialog(user);
      await fillExpense(user, dialog, { name: 'Gym', type: 'Health', day: '20', startDate: '2031-04-01', amount: '40' });
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      expect(addExpense).toHaveBeenCalledExactlyOnceWith({
        name: 'Gym',
        type: 'Health',
        frequency: 'M',
        day: 20,
        startDate: '2031-04-01',
        amount: 40,
        endDate: null,
      });
    });

    it('opens Edit Expense at the stored frequency and start date, and saves them', async () => {
      const updateExpense = vi
        .fn<ApiClient['updateExpense']>()
        .mockResolvedValue(expensesAnswer({ expenses: [INSURANCE], totalExpenses: 10 }));
      const { user } = renderExpenses({ expenses: [INSURANCE], totalExpenses: 10 }, fakeApiClient({ updateExpense }));
      await user.click(screen.getByRole('button', { name: 'Edit Insurance' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit Expense' });
      expect(within(dialog).getByLabelText('Frequency')).toHaveValue('Y');
      expect(within(dialog).getByLabelText('Start Date')).toHaveValue('2031-03-15');
      expect(within(dialog).queryByLabelText('Day')).not.toBeInTheDocument();
      const startDate = within(dialog).getByLabelText('Start Date');
      await user.clear(startDate);
      await user.type(startDate, '2031-04-30');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(updateExpense).toHaveBeenCalledExactlyOnceWith('y', {
        name: 'Insurance',
        type: 'Bills',
        frequency: 'Y',
        day: 30,
        startDate: '2031-04-30',
        amount: 120,
        endDate: null,
      });
    });

    it('names each frequency in the table and says in words when each bill falls due', () => {
      renderExpenses({ expenses: SUBSCRIPTIONS, totalExpenses: 400 });
      const frequencyAndDay = (name: string) =>
        within(screen.getByRole('row', { name: new RegExp(`^${name} `) }))
          .getAllByRole('cell')
          .slice(1, 3)
          .map((cell) => cell.textContent);
      expect(frequencyAndDay('Rent')).toEqual(['Monthly', '15']);
      expect(frequencyAndDay('Groceries')).toEqual(['Weekly', 'Mondays']);
      expect(frequencyAndDay('Cleaner')).toEqual(['Every 2 weeks', 'Every other Monday']);
      expect(frequencyAndDay('Water')).toEqual(['Every 3 months', 'Mar 15, Jun 15, Sep 15, Dec 15']);
      expect(frequencyAndDay('Insurance')).toEqual(['Yearly', 'Mar 15']);
    });

    it('says beside the total how bills that are not monthly count', () => {
      renderExpenses({ expenses: SUBSCRIPTIONS, totalExpenses: 400 });
      const explanation = screen.getByText(/ended bills/);
      expect(explanation).toHaveTextContent(
        'A month counts weekly bills × 52 ÷ 12, every 2 weeks × 26 ÷ 12, every 3 months ÷ 3, yearly ÷ 12; ended bills not at all.',
      );
    });
  });

  describe('sorting', () => {
    async function chooseSort(user: UserEvent, sort: string) {
      await user.click(screen.getByRole('button', { name: 'Sort' }));
      const dialog = await screen.findByRole('dialog', { name: 'Sort Expenses' });
      await user.selectOptions(within(dialog).getByLabelText('Sort By'), sort);
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitForDialogToClose('Sort Expenses');
    }

    it('offers the eight sorts by their codes, starting at -- Please Select --', async () => {
      const { user } = renderExpenses(THREE_EXPENSES);
      await user.click(screen.getByRole('button', { name: 'Sort' }));
      const dialog = await screen.findByRole('dialog', { name: 'Sort Expenses' });
      const sortBy = within(dialog).getByLabelText('Sort By');
      expect(sortBy).toHaveValue('');
      const options = within(sortBy).getAllByRole('option');
      expect(options[0]).toHaveTextContent('-- Please Select --');
      expect(options.map((option) => option.getAttribute('value'))).toEqual([
        '',
        'NameAsc',
        'NameDesc',
        'TypeAsc',
        'TypeDesc',
        'DayAsc',
        'DayDesc',
        'AmountAsc',
        'AmountDesc',
      ]);
      for (const name of ['Save', 'Cancel', 'Close']) expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
    });

    it('reorders the table and remembers the choice across a reload', async () => {
      const first = renderExpenses(THREE_EXPENSES);
      await chooseSort(first.user, 'AmountDesc');
      expect(rowNames()).toEqual(['Rent', 'Car Loan', 'Internet']);
      expect(window.localStorage.getItem(EXPENSE_SORT_STORAGE_KEY)).toBe('AmountDesc');
      first.unmount();

      const second = renderExpenses(THREE_EXPENSES);
      expect(rowNames()).toEqual(['Rent', 'Car Loan', 'Internet']);
      await second.user.click(screen.getByRole('button', { name: 'Sort' }));
      expect(within(await screen.findByRole('dialog', { name: 'Sort Expenses' })).getByLabelText('Sort By')).toHaveValue('AmountDesc');
    });

    it('goes back to day, then name when -- Please Select -- is saved', async () => {
      window.localStorage.setItem(EXPENSE_SORT_STORAGE_KEY, 'NameAsc');
      const { user } = renderExpenses(THREE_EXPENSES);
      expect(rowNames()).toEqual(['Car Loan', 'Internet', 'Rent']);
      await chooseSort(user, '');
      expect(rowNames()).toEqual(['Rent', 'Internet', 'Car Loan']);
      expect(window.localStorage.getItem(EXPENSE_SORT_STORAGE_KEY)).toBeNull();
    });

    it('leaves the order alone on Cancel', async () => {
      const { user } = renderExpenses(THREE_EXPENSES);
      await user.click(screen.getByRole('button', { name: 'Sort' }));
      const dialog = await screen.findByRole('dialog', { name: 'Sort Expenses' });
      await user.selectOptions(within(dialog).getByLabelText('Sort By'), 'NameDesc');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitForDialogToClose('Sort Expenses');
      expect(rowNames()).toEqual(['Rent', 'Internet', 'Car Loan']);
      expect(window.localStorage.getItem(EXPENSE_SORT_STORAGE_KEY)).toBeNull();
    });

    it('ignores a stored value that is not a sort', () => {
      window.localStorage.setItem(EXPENSE_SORT_STORAGE_KEY, 'Random');
      renderExpenses(THREE_EXPENSES);
      expect(rowNames()).toEqual(['Rent', 'Internet', 'Car Loan']);
    });

    it('keeps the chosen order when the server answers a new list', async () => {
      const answer = expensesAnswer({
        expenses: [RENT, INTERNET, { ...CAR_LOAN, id: 'e4', name: 'Alarm' }, CAR_LOAN],
        totalExpenses: 1880.49,
      });
      const addExpense = vi.fn<ApiClient['addExpense']>().mockResolvedValue(answer);
      const { user } = renderExpenses(THREE_EXPENSES, fakeApiClient({ addExpense }));
      await chooseSort(user, 'NameAsc');
      const dialog = await openAddDialog(user);
      await fillExpense(user, dialog, { name: 'Alarm', type: 'Transport', day: '28', amount: '320.50' });
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      await waitForDialogToClose('Add Expense');
      expect(rowNames()).toEqual(['Alarm', 'Car Loan', 'Internet', 'Rent']);
    });
  });
});

describe('ExpensesSection with several accounts (issue 25)', () => {
  const ACCOUNTS = [
    { id: 'c1', name: 'Checking', primary: true },
    { id: 's1', name: 'Savings', primary: false },
  ];
  const GYM: Expense = { ...INTERNET, id: 'e4', name: 'Gym', type: 'Health', day: 15, amount: 40, accountId: 's1' };
  const WITH_ACCOUNTS: ExpensesInfo = { expenses: [{ ...RENT, accountId: 'c1' }, GYM], totalExpenses: 1540 };
  const renderWithAccounts = (info: ExpensesInfo, client?: ApiClient, accounts = ACCOUNTS) =>
    renderSection((props) => <ExpensesSection {...props} accounts={accounts} />, expensesAnswer(info), client);

  it("names each expense's account in an Account column", () => {
    renderWithAccounts(WITH_ACCOUNTS);
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Type', 'Frequency', 'Day', 'Amount', 'End Date', 'Account', 'Actions']);
    expect(within(screen.getByRole('row', { name: /^Rent / })).getByRole('cell', { name: 'Checking' })).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /^Gym / })).getByRole('cell', { name: 'Savings' })).toBeInTheDocument();
  });

  it('adds an expense to the primary account by default, or to the one chosen', async () => {
    const addExpense = vi.fn<ApiClient['addExpense']>().mockResolvedValue(expensesAnswer(WITH_ACCOUNTS));
    const { user } = renderWithAccounts(WITH_ACCOUNTS, fakeApiClient({ addExpense }));
    let dialog = await openAddDialog(user);
    const account = within(dialog).getByRole('combobox', { name: 'Account' });
    expect(
      within(account)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Checking', 'Savings']);
    expect(account).toHaveDisplayValue('Checking');
    await fillExpense(user, dialog, { name: 'Water', type: 'Utilities', day: '3', amount: '30' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addExpense).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'Water', accountId: 'c1' }));
    await waitForDialogToClose('Add Expense');

    dialog = await openAddDialog(user);
    await fillExpense(user, dialog, { name: 'Climbing', type: 'Health', day: '4', amount: '25' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Account' }), 'Savings');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addExpense).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'Climbing', accountId: 's1' }));
  });

  it("opens Edit Expense at the expense's own account and sends it; moving it sends the new one", async () => {
    const updateExpense = vi.fn<ApiClient['updateExpense']>().mockResolvedValue(expensesAnswer(WITH_ACCOUNTS));
    const { user } = renderWithAccounts(WITH_ACCOUNTS, fakeApiClient({ updateExpense }));
    await user.click(screen.getByRole('button', { name: 'Edit Gym' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit Expense' });
    expect(within(dialog).getByRole('combobox', { name: 'Account' })).toHaveDisplayValue('Savings');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(updateExpense).toHaveBeenLastCalledWith('e4', expect.objectContaining({ accountId: 's1' }));
    await waitForDialogToClose('Edit Expense');

    await user.click(screen.getByRole('button', { name: 'Edit Gym' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit Expense' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Account' }), 'Checking');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(updateExpense).toHaveBeenLastCalledWith('e4', expect.objectContaining({ accountId: 'c1' }));
  });

  it('makes an expense a recurring transfer with To, names both accounts in the table, and makes it a bill again with None', async () => {
    const TO_SAVINGS: Expense = {
      ...RENT,
      id: 'e5',
      name: 'To savings',
      type: 'Saving',
      day: 1,
      amount: 100,
      accountId: 'c1',
      toAccountId: 's1',
    };
    const answer = expensesAnswer({ expenses: [TO_SAVINGS, GYM], totalExpenses: 40 });
    const addExpense = vi.fn<ApiClient['addExpense']>().mockResolvedValue(answer);
    const updateExpense = vi.fn<ApiClient['updateExpense']>().mockResolvedValue(answer);
    const { user } = renderWithAccounts(WITH_ACCOUNTS, fakeApiClient({ addExpense, updateExpense }));
    const countedWords = 'Transfers to your other accounts are not counted.';
    expect(screen.queryByText(countedWords, { exact: false })).not.toBeInTheDocument();
    const dialog = await openAddDialog(user);
    const to = within(dialog).getByRole('combobox', { name: 'To' });
    // Paid from Checking: To offers None and every other account, None chosen.
    expect(
      within(to)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['None', 'Savings']);
    expect(to).toHaveDisplayValue('None');
    await fillExpense(user, dialog, { name: 'To savings', type: 'Saving', day: '1', amount: '100' });
    await user.selectOptions(to, 'Savings');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addExpense).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'To savings', accountId: 'c1', toAccountId: 's1' }));
    await waitForDialogToClose('Add Expense');
    expect(
      within(screen.getByRole('row', { name: /^To savings / })).getByRole('cell', { name: 'Checking to Savings' }),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /^Gym / })).getByRole('cell', { name: 'Savings' })).toBeInTheDocument();
    // The monthly total leaves it out (the server's sum), and says so.
    expect(screen.getByText(countedWords, { exact: false })).toHaveTextContent(
      /ended bills not at all\. Transfers to your other accounts are not counted\. Sorted by/,
    );

    // Paid from the account it pays into: the server's words, and nothing is sent.
    await user.click(screen.getByRole('button', { name: 'Edit To savings' }));
    let edit = await screen.findByRole('dialog', { name: 'Edit Expense' });
    expect(within(edit).getByRole('combobox', { name: 'To' })).toHaveDisplayValue('Savings');
    await user.selectOptions(within(edit).getByRole('combobox', { name: 'Account' }), 'Savings');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(within(edit).getByRole('combobox', { name: 'To' })).toHaveAccessibleDescription(
      /To must be another account than the one the expense is paid from\./,
    );
    expect(updateExpense).not.toHaveBeenCalled();
    await user.click(within(edit).getByRole('button', { name: 'Cancel' }));
    await waitForDialogToClose('Edit Expense');

    // None sends null: the server makes it a bill again (leaving toAccountId out would keep the transfer).
    await user.click(screen.getByRole('button', { name: 'Edit To savings' }));
    edit = await screen.findByRole('dialog', { name: 'Edit Expense' });
    await user.selectOptions(within(edit).getByRole('combobox', { name: 'To' }), 'None');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(updateExpense).toHaveBeenLastCalledWith('e5', expect.objectContaining({ accountId: 'c1', toAccountId: null }));
  });

  it('with one account shows no Account column or select, and sends no accountId', async () => {
    const addExpense = vi.fn<ApiClient['addExpense']>().mockResolvedValue(expensesAnswer(THREE_EXPENSES));
    const { user } = renderWithAccounts(THREE_EXPENSES, fakeApiClient({ addExpense }), ACCOUNTS.slice(0, 1));
    expect(screen.queryByRole('columnheader', { name: 'Account' })).not.toBeInTheDocument();
    const dialog = await openAddDialog(user);
    expect(within(dialog).queryByRole('combobox', { name: 'Account' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox', { name: 'To' })).not.toBeInTheDocument();
    await fillExpense(user, dialog, { name: 'Water', type: 'Utilities', day: '3', amount: '30' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addExpense.mock.calls[0]?.[0]).not.toHaveProperty('accountId');
    expect(addExpense.mock.calls[0]?.[0]).not.toHaveProperty('toAccountId');
  });
});
