import { expect, test } from '@playwright/test';
import { addDeposit, addExpense, createLedger, expectView, openView } from './dashboard-actions.js';
import { expensesTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';

test('deposits and expenses: add, total, summarize, sort, edit, delete, and keep after a reload', async ({ page }) => {
  await openSignedIn(page, 'erin');
  await expectView(page, 'Home');
  await expect(page.getByText('Please add deposits and/or expenses!')).toBeVisible();
  await openView(page, 'Plan');
  // With no expenses only the add button shows.
  await expect(page.getByRole('button', { name: 'Sort' })).toHaveCount(0);

  // A bi-weekly deposit: the Day follows the start date (2054-11-20 is a Friday).
  await page.getByRole('button', { name: 'Add Deposit' }).click();
  const depositDialog = page.getByRole('dialog', { name: 'Add Deposit' });
  await depositDialog.getByLabel('Frequency').selectOption('BW');
  await depositDialog.getByLabel('Start Date').fill('2054-11-20');
  await expect(depositDialog.getByLabel('Day')).toHaveValue('Friday');
  await depositDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(depositDialog).toBeHidden();

  await addDeposit(page, { name: 'Acme', type: 'Direct Deposit', amount: '1500', startDate: '2054-11-20', frequency: 'BW' });
  // 1,500 x 26 / 12 = 3,250.00
  await expect(page.getByText('Total Monthly Deposits: $3,250.00')).toBeVisible();
  const depositRow = page.getByRole('row', { name: /Acme/ });
  await expect(depositRow).toContainText('Friday');
  await expect(depositRow).toContainText('$1,500.00');

  // The date field is empty again the next time the dialog opens.
  await page.getByRole('button', { name: 'Add Deposit' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Deposit' }).getByLabel('Start Date')).toHaveValue('');
  await page.getByRole('dialog', { name: 'Add Deposit' }).getByRole('button', { name: 'Close' }).click();

  await addExpense(page, { name: 'Rent', type: 'Housing', day: '1', amount: '1200' });
  await addExpense(page, { name: 'Internet', type: 'Utilities', day: '15', amount: '60.25' });
  await expect(page.getByText('Total Monthly Expenses: $1,260.25')).toBeVisible();
  // What is left over is Home's answer.
  await openView(page, 'Home');
  await expect(page.getByText('You will have $1,989.75 left over each month!')).toBeVisible();
  await openView(page, 'Plan');

  // Default order: day, then name.
  const expenseNames = expensesTable(page).locator('tbody tr');
  await expect(expenseNames.first()).toContainText('Rent');
  await page.getByRole('button', { name: 'Sort' }).click();
  await page.getByRole('dialog', { name: 'Sort Expenses' }).getByLabel('Sort By').selectOption('AmountAsc');
  await page.getByRole('dialog', { name: 'Sort Expenses' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog', { name: 'Sort Expenses' })).toBeHidden();
  await expect(expenseNames.first()).toContainText('Internet');

  // Edit an expense.
  await page.getByRole('button', { name: 'Edit Internet' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit Expense' });
  await editDialog.getByLabel('Amount').fill('70');
  await editDialog.getByRole('button', { name: 'Save' }).click();
  await expect(editDialog).toBeHidden();
  await expect(page.getByText('Total Monthly Expenses: $1,270.00')).toBeVisible();

  // Delete asks first.
  await page.getByRole('button', { name: 'Delete Rent' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Expense' });
  await expect(confirm).toContainText('Rent');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Total Monthly Expenses: $70.00')).toBeVisible();
  await openView(page, 'Home');
  await expect(page.getByText('You will have $3,180.00 left over each month!')).toBeVisible();
  await openView(page, 'Plan');

  // A bad amount is marked before anything is sent.
  await page.getByRole('button', { name: 'Add Expense' }).click();
  const badDialog = page.getByRole('dialog', { name: 'Add Expense' });
  await badDialog.getByLabel('Name').fill('Gym');
  await badDialog.getByLabel('Type').fill('Health');
  await badDialog.getByLabel('Day').fill('32');
  await badDialog.getByLabel('Amount').fill('1.234');
  await badDialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(badDialog.getByText('Day must be a whole number from 1 to 31.')).toBeVisible();
  await expect(badDialog.getByText('Amount must have at most two decimal places.')).toBeVisible();
  await badDialog.getByRole('button', { name: 'Cancel' }).click();

  await page.reload();
  await expectView(page, 'Plan');
  await expect(page.getByText('Total Monthly Deposits: $3,250.00')).toBeVisible();
  await expect(page.getByText('Total Monthly Expenses: $70.00')).toBeVisible();
  await expect(expenseNames).toHaveCount(1);
  // The chosen sort survives the reload.
  await page.getByRole('button', { name: 'Sort' }).click();
  await expect(page.getByRole('dialog', { name: 'Sort Expenses' }).getByLabel('Sort By')).toHaveValue('AmountAsc');
});

test('a short month is called out', async ({ page }) => {
  await openSignedIn(page, 'frank');
  await expectView(page, 'Home');
  await openView(page, 'Plan');
  await addDeposit(page, { name: 'Part-time', type: 'Check', amount: '900', startDate: '2054-11-30', frequency: 'EOM' });
  await addExpense(page, { name: 'Rent', type: 'Housing', day: '1', amount: '1000' });
  await openView(page, 'Home');
  await expect(page.getByText('You will be $100.00 short each month!')).toBeVisible();
});

test('long names never widen the page or break the rows: wide tables scroll in their own box, names end in an ellipsis', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openSignedIn(page, 'gail');
  await expectView(page, 'Home');
  await openView(page, 'Plan');
  // Dates years ahead, so the ledger lies after today whenever this runs, and the first row that takes
  // the balance below $0 is always the long-named one: the warning's sentence names it.
  await addDeposit(page, {
    name: 'Acme Manufacturing Company',
    type: 'Direct Deposit',
    amount: '1500',
    startDate: '2031-11-21',
    frequency: 'BW',
  });
  await addExpense(page, { name: 'Apartment Rent and Parking', type: 'Housing', day: '2', amount: '1200' });
  const longName = `Storage Unit ${'x'.repeat(87)}`;
  await addExpense(page, { name: longName, type: 'Storage', day: '1', amount: '300' });
  await expect(page.getByRole('cell', { name: 'Apartment Rent and Parking' })).toBeVisible();
  const pageOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await pageOverflow()).toBe(0);

  // The ledger shows as the compact list here; it fits too, its long names cut short.
  await openView(page, 'Ledger');
  await createLedger(page, { startDate: '2031-12-01', endDate: '2032-03-31', currentBalance: '250' });
  const list = page.getByRole('list', { name: 'Transactions' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  // The warning before $0 wraps the long name inside its alert.
  await expect(page.getByText(`Your balance goes below $0 on Mon, Dec 1, 2031, when ${longName} is due.`)).toBeVisible();
  expect(await pageOverflow()).toBe(0);

  // Every ledger row keeps the one height the windowed list and table place rows by.
  const rowHeights = (selector: string) =>
    page.evaluate(
      (rows) => [...document.querySelectorAll(rows)].map((row) => Math.round(row.getBoundingClientRect().height * 10) / 10),
      selector,
    );
  const longRow = (selector: string) => page.locator(selector).filter({ hasText: 'Storage Unit' }).first();
  await expect(longRow('li[aria-posinset]')).toBeVisible();
  expect(new Set(await rowHeights('li[aria-posinset]')).size).toBe(1);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(longRow('tbody tr[aria-rowindex]')).toBeVisible();
  expect(new Set(await rowHeights('tbody tr[aria-rowindex]')).size).toBe(1);
  // The name is cut short inside its own cell, the whole of it kept as the title.
  const name = longRow('tbody tr[aria-rowindex]').getByTitle(longName);
  await expect(name).toBeVisible();
  const fit = await name.evaluate((element) => ({
    cutShort: element.scrollWidth > element.clientWidth,
    insideCell: element.getBoundingClientRect().right <= (element.closest('td')?.getBoundingClientRect().right ?? 0),
  }));
  expect(fit).toEqual({ cutShort: true, insideCell: true });
});
