/**
 * Issue 25 on the page (decision 0044), end to end: a Savings account added in Plan gets its own
 * ledger, chosen in the Ledger view by the Account select and kept in the address; an expense
 * charged to it in the Add Expense dialog's Account select shows its account in Plan, projects
 * there and not into Checking; Home lists both accounts' balances; it is renamed, then deleted by
 * typing its name.
 */
import { expect, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { addExpense, createLedger, openView, settled } from './dashboard-actions.js';
import { openSignedIn } from './sign-in.js';
import { isoDay } from './machine-day.js';

const USER = `accounts-${process.pid}`;

test('a Savings account has its own ledger: add it, charge it, open it, rename it, delete it', async ({ page }) => {
  await openSignedIn(page, USER, '/plan');
  await expect(page.getByRole('button', { name: 'Add Account' })).toBeEnabled();
  await seedThroughApi(page, {
    deposits: [],
    expenses: [{ name: 'Rent', type: 'Housing', day: 1, amount: 1200 }],
    ledger: { startDate: isoDay(), endDate: isoDay(90), currentBalance: 1500 },
  });
  await page.reload();
  await settled(page);

  // Plan: Accounts comes first; add Savings.
  const accounts = page.getByRole('table').first();
  await expect(accounts.getByRole('rowheader', { name: 'Checking Primary' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Account' }).click();
  const adding = page.getByRole('dialog', { name: 'Add Account' });
  await adding.getByLabel('Name').fill('Savings');
  await adding.getByLabel('Kind').selectOption('Savings');
  await adding.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(adding).toBeHidden();
  await expect(accounts.getByRole('row', { name: /Savings/ })).toContainText('Savings$0.00');

  // Ledger: choose Savings; the address keeps it; give it a ledger.
  await openView(page, 'Ledger');
  const account = page.getByRole('combobox', { name: 'Account' });
  await expect(account).toHaveValue(/.+/);
  await account.selectOption({ label: 'Savings' });
  await expect(page).toHaveURL(/\/ledger\?account=/);
  await createLedger(page, { startDate: isoDay(), endDate: isoDay(90), currentBalance: '250' });

  // Plan: charge Gym to Savings in the Add Expense dialog; the Expenses table names each one's account.
  await openView(page, 'Plan');
  await addExpense(page, { name: 'Gym', type: 'Health', day: '15', amount: '40', account: 'Savings' });
  const expenses = page.getByRole('table').last();
  await expect(expenses.getByRole('columnheader', { name: 'Account' })).toBeVisible();
  await expect(expenses.getByRole('row', { name: /^Gym / }).getByRole('cell', { name: 'Savings' })).toBeVisible();
  await expect(expenses.getByRole('row', { name: /^Rent / }).getByRole('cell', { name: 'Checking' })).toBeVisible();

  // Home: the Summary lists both accounts' current balances.
  await openView(page, 'Home');
  const balances = page.getByRole('list', { name: 'Accounts' });
  await expect(balances.getByRole('listitem')).toHaveText(['Checking$1,500.00', 'Savings$250.00']);

  // Ledger: Savings, kept in the address across a reload, has Gym and not Rent.
  await openView(page, 'Ledger');
  await page.getByRole('combobox', { name: 'Account' }).selectOption({ label: 'Savings' });
  await expect(page).toHaveURL(/\/ledger\?account=/);
  await settled(page);
  await page.reload();
  await settled(page);
  await expect(page.getByRole('combobox', { name: 'Account' })).toHaveValue(/.+/);
  await expect(page.getByRole('combobox', { name: 'Account' }).locator('option:checked')).toHaveText('Savings');
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: 'Pay Gym' }).first()).toBeVisible();
  await expect(main.getByRole('button', { name: 'Pay Rent' })).toHaveCount(0);

  // Checking's ledger has Rent and not Gym; Back returns to Savings.
  await page.getByRole('combobox', { name: 'Account' }).selectOption({ label: 'Checking' });
  await expect(main.getByRole('button', { name: 'Pay Rent' }).first()).toBeVisible();
  await expect(main.getByRole('button', { name: 'Pay Gym' })).toHaveCount(0);
  await page.goBack();
  await expect(main.getByRole('button', { name: 'Pay Gym' }).first()).toBeVisible();

  // Plan: rename it, then delete it by typing its name.
  await openView(page, 'Plan');
  await page.getByRole('button', { name: 'Rename Savings' }).click();
  const renaming = page.getByRole('dialog', { name: 'Rename Account' });
  await renaming.getByLabel('Name').fill('Rainy day');
  await renaming.getByRole('button', { name: 'Save' }).click();
  await expect(renaming).toBeHidden();
  await expect(accounts.getByRole('rowheader', { name: 'Rainy day' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete Rainy day' }).click();
  const deleting = page.getByRole('dialog', { name: 'Delete Account' });
  await deleting.getByLabel("Type the account's name to confirm").fill('Rainy day');
  await deleting.getByRole('button', { name: 'Delete' }).click();
  await expect(deleting).toBeHidden();
  await expect(accounts.getByRole('rowheader', { name: 'Rainy day' })).toHaveCount(0);
  // Its Gym moved to the primary account (decision 0042).
  await expect(page.getByRole('button', { name: 'Edit Gym' })).toBeVisible();
});
