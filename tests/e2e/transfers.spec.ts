/**
 * Issue 25 items 3 and 6 end to end (decisions 0046 and 0050): a Savings account made in Plan, a
 * transfer added through the Add Transfer dialog beside Add Transaction, and both sides seen in
 * each account's ledger, with Undo offered; a recurring transfer added through Add Expense's To
 * field; and the samples' OFX statement imported into a second account through the Import
 * Statement dialog's Account field, which the next file of that bank account then preselects.
 */
import { expect, type Page, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { addExpense, createLedger, openView, settled } from './dashboard-actions.js';
import { ledgerRows } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';
import { isoDay } from './machine-day.js';
import { sampleStatementIn2055 } from './sample-statement.js';

const STATEMENT = sampleStatementIn2055();

/** Adds an account in Plan's Accounts section through its dialog. */
async function addAccount(page: Page, name: string, kind: string): Promise<void> {
  await openView(page, 'Plan');
  await page.getByRole('button', { name: 'Add Account' }).click();
  const adding = page.getByRole('dialog', { name: 'Add Account' });
  await adding.getByLabel('Name').fill(name);
  await adding.getByLabel('Kind').selectOption(kind);
  await adding.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(adding).toBeHidden();
  await expect(page.getByRole('table').first().getByRole('rowheader', { name })).toBeVisible();
}

/** The Ledger view showing that account's ledger. */
async function showAccount(page: Page, name: string): Promise<void> {
  await openView(page, 'Ledger');
  const account = page.getByRole('combobox', { name: 'Account' });
  await account.selectOption({ label: name });
  await expect(account.locator('option:checked')).toHaveText(name);
  await settled(page);
}

test('a transfer added through the dialog shows as a debit in Checking and a credit in Savings', async ({ page }) => {
  await openSignedIn(page, `transfers-${process.pid}`, '/plan');
  await expect(page.getByRole('button', { name: 'Add Account' })).toBeEnabled();
  await seedThroughApi(page, { deposits: [], expenses: [], ledger: { startDate: isoDay(-5), endDate: isoDay(60), currentBalance: 1500 } });
  await page.reload();
  await settled(page);
  await addAccount(page, 'Savings', 'Savings');
  await showAccount(page, 'Savings');
  await createLedger(page, { startDate: isoDay(-5), endDate: isoDay(60), currentBalance: '250' });

  // From Checking's ledger: Add Transfer beside Add Transaction, from Checking to Savings.
  await showAccount(page, 'Checking');
  await page.getByRole('button', { name: 'Add Transfer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Transfer' });
  await expect(dialog.getByLabel('From')).toHaveValue(/.+/);
  await expect(dialog.getByLabel('From').locator('option:checked')).toHaveText('Checking');
  await expect(dialog.getByLabel('To').locator('option:checked')).toHaveText('Savings');
  await expect(dialog.getByLabel('Name')).toHaveValue('Transfer to Savings');
  await expect(dialog.getByLabel('Date')).toHaveValue(isoDay());
  await dialog.getByLabel('Amount').fill('100');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();

  // Checking shows its side at once (the answer is From's ledger): a $100.00 debit.
  const transferRow = ledgerRows(page).filter({ hasText: 'Transfer to Savings' });
  await expect(transferRow).toHaveCount(1);
  await expect(transferRow.getByRole('cell').nth(2)).toHaveText('$100.00');
  await expect(transferRow.getByRole('cell').nth(3)).toHaveText('');
  await expect(page.locator('.undo-region')).toContainText('Added Transfer to Savings.');
  await expect(page.locator('.undo-region').getByRole('button', { name: 'Undo' })).toBeVisible();

  // Savings has the other side: a $100.00 credit.
  await showAccount(page, 'Savings');
  await expect(transferRow).toHaveCount(1);
  await expect(transferRow.getByRole('cell').nth(2)).toHaveText('');
  await expect(transferRow.getByRole('cell').nth(3)).toHaveText('$100.00');
  await expect(page.getByText('1 transaction.')).toBeVisible();
  // Its Edit Transaction dialog says that an edit or a delete reaches the other side.
  await transferRow.getByRole('button', { name: 'Edit Transfer to Savings' }).click();
  const editing = page.getByRole('dialog', { name: 'Edit Transaction' });
  await expect(
    editing.getByText(
      'A transfer from Checking: changing its date, amount or name changes its other side in Checking too, and deleting it deletes both.',
    ),
  ).toBeVisible();
  await editing.getByRole('button', { name: 'Cancel' }).click();
  await expect(editing).toBeHidden();

  // Undo takes back both sides.
  await page.locator('.undo-region').getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('.undo-region')).toContainText('Undone: Added Transfer to Savings.');
  await settled(page);
  await expect(transferRow).toHaveCount(0);
  await showAccount(page, 'Checking');
  await expect(page.getByText('This ledger has no transactions yet.')).toBeVisible();

  // A recurring transfer through Add Expense's To field: each month a debit in Checking and a
  // credit in Savings, paired, and Plan names both accounts.
  await openView(page, 'Plan');
  await addExpense(page, {
    name: 'Monthly to Savings',
    type: 'Saving',
    day: String(Number(isoDay(10).slice(8))),
    amount: '75',
    account: 'Checking',
    to: 'Savings',
  });
  await expect(page.getByRole('row', { name: /^Monthly to Savings / }).getByRole('cell', { name: 'Checking to Savings' })).toBeVisible();
  await showAccount(page, 'Checking');
  const monthly = ledgerRows(page).filter({ hasText: 'Monthly to Savings' });
  await expect(monthly.first().getByRole('cell').nth(2)).toHaveText('$75.00');
  await expect(monthly.first().getByRole('cell').nth(3)).toHaveText('');
  const months = await monthly.count();
  expect(months).toBeGreaterThanOrEqual(2);
  await showAccount(page, 'Savings');
  await expect(monthly).toHaveCount(months);
  await expect(monthly.first().getByRole('cell').nth(2)).toHaveText('');
  await expect(monthly.first().getByRole('cell').nth(3)).toHaveText('$75.00');
});

test('an OFX statement goes into the account chosen in the Account field, which its next file preselects', async ({ page }) => {
  await openSignedIn(page, `statement-accounts-${process.pid}`, '/plan');
  await expect(page.getByRole('button', { name: 'Add Account' })).toBeEnabled();
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'Friday', amount: 1000, startDate: '2055-01-01', frequency: 'BW' }],
    expenses: [{ name: 'Rent', type: 'Bill', day: 1, amount: 1200 }],
    ledger: { startDate: '2055-01-01', endDate: '2055-01-31', currentBalance: 500 },
  });
  await page.reload();
  await settled(page);
  await addAccount(page, 'Joint', 'Checking');
  await showAccount(page, 'Joint');
  await createLedger(page, { startDate: '2055-01-01', endDate: '2055-01-31', currentBalance: '500' });

  // From Checking's ledger, import into Joint.
  await showAccount(page, 'Checking');
  await expect(page.getByText('4 transactions.')).toBeVisible();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  let dialog = page.getByRole('dialog', { name: 'Import Statement' });
  const account = dialog.getByRole('combobox', { name: 'Account' });
  await expect(account.locator('option:checked')).toHaveText('Checking');
  await account.selectOption({ label: 'Joint' });
  await dialog.getByLabel('Statement file').setInputFiles(STATEMENT);
  const preview = dialog.getByRole('region', { name: 'Preview' });
  await expect(preview).toBeVisible();
  await expect(account).toHaveAccessibleDescription(
    'This file is for account …6789. The account you import it into will be chosen for it next time.',
  );
  // Joint's ledger has no rows: nothing of Checking's is offered as a match.
  await expect(dialog.getByRole('combobox', { name: /^What happens to / })).toHaveCount(8);
  for (const select of await dialog.getByRole('combobox', { name: /^What happens to / }).all()) {
    await expect(select.locator('option:checked')).toHaveText('New');
  }
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toBeHidden();

  // Joint's ledger is shown now, with its eight new rows, reconciled with the bank.
  await expect(page).toHaveURL(/\/ledger\?account=/);
  await expect(page.getByRole('combobox', { name: 'Account' }).locator('option:checked')).toHaveText('Joint');
  await expect(page.getByText('8 transactions.')).toBeVisible();
  await expect(page.getByText('Reconciled with the bank on Sat, Jan 16, 2055')).toBeVisible();

  // Checking's rows are as they were: nothing cleared.
  await showAccount(page, 'Checking');
  await expect(page.getByText('4 transactions.')).toBeVisible();
  await expect(ledgerRows(page).and(page.locator('.ledger-row--cleared'))).toHaveCount(0);

  // The next file of that bank account, from Checking's ledger, goes to Joint: already imported there.
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  dialog = page.getByRole('dialog', { name: 'Import Statement' });
  await dialog.getByLabel('Statement file').setInputFiles(STATEMENT);
  await expect(dialog.getByRole('combobox', { name: 'Account' }).locator('option:checked')).toHaveText('Joint');
  await expect(dialog.getByRole('combobox', { name: 'Account' })).toHaveAccessibleDescription(
    'This file is for account …6789, imported into Joint before.',
  );
  await expect(dialog.getByRole('region', { name: 'Preview' }).getByText('Already imported')).toHaveCount(8);
});
