/**
 * Issue 12 end to end: a twice-a-month payday and a yearly bill, added through the dialogs, land on
 * their dates in a new ledger. Dates are in 2031, years after any day this runs on.
 */
import { expect, test } from '@playwright/test';
import { addDeposit, addExpense, createLedger, expectView, openView } from './dashboard-actions.js';
import { depositsTable, expectLedgerRows, expensesTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';

test('a twice-a-month deposit and a yearly bill, added through the dialogs, fall on their dates in a new ledger', async ({ page }) => {
  await openSignedIn(page, 'sam');
  await expectView(page, 'Home');
  await openView(page, 'Plan');

  // A twice-a-month deposit has no weekday: the Day says N/A before a date is even picked.
  await page.getByRole('button', { name: 'Add Deposit' }).click();
  const depositDialog = page.getByRole('dialog', { name: 'Add Deposit' });
  await depositDialog.getByLabel('Frequency').selectOption('SM');
  await expect(depositDialog.getByLabel('Day')).toHaveValue('N/A');
  await expect(depositDialog.getByLabel('Day')).toBeDisabled();
  await depositDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(depositDialog).toBeHidden();

  await addDeposit(page, { name: 'Acme', type: 'Direct Deposit', amount: '1000', startDate: '2031-01-01', frequency: 'SM' });
  await expect(depositsTable(page).getByRole('row', { name: /Acme/ })).toContainText('SM – Twice a month (15th and last day)');
  await expect(page.getByText('Total Monthly Deposits: $2,000.00')).toBeVisible();

  // A yearly bill asks for its first due date, not a day of the month.
  await page.getByRole('button', { name: 'Add Expense' }).click();
  const expenseDialog = page.getByRole('dialog', { name: 'Add Expense' });
  await expect(expenseDialog.getByLabel('Frequency')).toHaveValue('M');
  await expenseDialog.getByLabel('Frequency').selectOption('Y');
  await expect(expenseDialog.getByLabel('Day')).toHaveCount(0);
  await expenseDialog.getByLabel('Name').fill('Car Insurance');
  await expenseDialog.getByLabel('Type').fill('Car');
  await expenseDialog.getByLabel('Amount').fill('600');
  await expenseDialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(expenseDialog.getByText('Start Date is required for a yearly bill: it is the first due date.')).toBeVisible();
  await expenseDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(expenseDialog).toBeHidden();

  await addExpense(page, { name: 'Car Insurance', type: 'Car', frequency: 'Y', startDate: '2031-03-15', amount: '600' });
  const insurance = expensesTable(page).getByRole('row', { name: /Car Insurance/ });
  await expect(insurance).toContainText('Yearly');
  await expect(insurance).toContainText('Mar 15');
  // 600 a year is 50 a month.
  await expect(page.getByText('Total Monthly Expenses: $50.00')).toBeVisible();
  await openView(page, 'Home');
  await expect(page.getByText('You will have $1,950.00 left over each month!')).toBeVisible();

  await openView(page, 'Ledger');
  await createLedger(page, { startDate: '2031-01-01', endDate: '2031-03-31', currentBalance: '100' });
  // Paid on the 15th and the last day, or the Friday before a weekend (Feb 15 and Mar 15, 2031
  // are Saturdays); the bill falls due on its own date, Saturday or not.
  await expectLedgerRows(page, [
    ['2031-01-15', 'Acme Paycheck', '$1,100.00'],
    ['2031-01-31', 'Acme Paycheck', '$2,100.00'],
    ['2031-02-14', 'Acme Paycheck', '$3,100.00'],
    ['2031-02-28', 'Acme Paycheck', '$4,100.00'],
    ['2031-03-14', 'Acme Paycheck', '$5,100.00'],
    ['2031-03-15', 'Car Insurance', '$4,500.00'],
    ['2031-03-31', 'Acme Paycheck', '$5,500.00'],
  ]);
});
