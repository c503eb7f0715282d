/**
 * Issue 15 end to end: a user downloads the ledger as CSV and everything as one JSON file through
 * the page, a second user restores that file and sees the same dashboard, then deletes it all.
 * Dates are in 2031, years after any day this runs on.
 */
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { addDeposit, addExpense, createLedger, expectView, openView, settled } from './dashboard-actions.js';
import { depositsTable, expensesTable, ledgerRows, ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';

/** What the ledger shows, row by row: the text of each transaction row. */
async function ledgerTexts(page: Page): Promise<string[]> {
  await ledgerTable(page).scrollIntoViewIfNeeded();
  return ledgerRows(page).evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
}

test('the ledger as CSV and everything as JSON come out through the page, and the JSON restores into another user', async ({ browser }) => {
  const first = await browser.newContext();
  const ivy = await first.newPage();
  await openSignedIn(ivy, 'ivy-exporter');
  await expectView(ivy, 'Home');
  // 2031-01-03 is a Friday: paychecks on Jan 3, 17 and 31.
  await openView(ivy, 'Plan');
  await addDeposit(ivy, { name: 'Acme', type: 'Direct Deposit', amount: '1000', startDate: '2031-01-03', frequency: 'BW' });
  await addExpense(ivy, { name: '=Rent', type: 'Housing', day: '5', amount: '1200' });
  await openView(ivy, 'Ledger');
  await createLedger(ivy, { startDate: '2031-01-01', endDate: '2031-01-31', currentBalance: '100' });
  await settled(ivy);
  await ledgerRows(ivy).first().getByRole('button', { name: /^Pay/ }).click();
  await settled(ivy);

  // The register as CSV: the same rows and balances, a formula-like name kept as text.
  const csvDownload = ivy.waitForEvent('download');
  await ivy.getByRole('button', { name: 'Export CSV' }).click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toBe('leftover-ledger-2031-01-01-to-2031-01-31.csv');
  const csv = fs
    .readFileSync(await csvFile.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv).toEqual([
    'Date,Name,Type,Debit,Credit,Balance,Status,Bank',
    '2031-01-03,Acme Paycheck,C,,1000.00,1100.00,PAID,',
    "2031-01-05,'=Rent,D,1200.00,,-100.00,PENDING,",
    '2031-01-17,Acme Paycheck,C,,1000.00,900.00,PENDING,',
    '2031-01-31,Acme Paycheck,C,,1000.00,1900.00,PENDING,',
  ]);

  // Everything as one JSON document, from the "Your data" menu.
  await ivy.getByRole('button', { name: 'Your data' }).click();
  const jsonDownload = ivy.waitForEvent('download');
  await ivy.getByRole('button', { name: 'Download my data' }).click();
  const jsonFile = await jsonDownload;
  const jsonPath = await jsonFile.path();
  const document = JSON.parse(fs.readFileSync(jsonPath, 'utf8')) as { format: string; deposits: unknown[]; ledger: unknown };
  expect(document.format).toBe('leftover-export');
  expect(document.deposits).toHaveLength(1);
  expect(JSON.stringify(document)).not.toContain('ivy-exporter');
  const ivyRows = await ledgerTexts(ivy);

  // A second user restores it in the Ledger and sees the same ledger, deposits and expenses.
  const second = await browser.newContext();
  const jo = await second.newPage();
  await openSignedIn(jo, 'jo-restorer', '/ledger');
  await expectView(jo, 'Ledger');
  await expect(jo.getByRole('button', { name: 'New Ledger' })).toBeVisible();
  await jo.getByRole('button', { name: 'Your data' }).click();
  await jo.getByRole('button', { name: 'Restore from file' }).click();
  const restore = jo.getByRole('dialog', { name: 'Restore From File' });
  await restore.getByLabel('Backup file').setInputFiles(jsonPath);
  await expect(restore).toContainText('1 deposit, 1 expense and a ledger of 4 transactions');
  await restore.getByRole('button', { name: 'Replace my data' }).click();
  await expect(restore).toBeHidden();
  await settled(jo);
  await expect(jo.getByTestId('pending-balance')).toHaveText(await ivy.getByTestId('pending-balance').innerText());
  expect(await ledgerTexts(jo)).toEqual(ivyRows);
  await openView(jo, 'Plan');
  await expect(depositsTable(jo).getByRole('row', { name: /Acme/ })).toBeVisible();
  await expect(expensesTable(jo).getByRole('row', { name: /=Rent/ })).toBeVisible();

  // And deletes it all: every view as for a new user; the first user's data is untouched.
  await jo.getByRole('button', { name: 'Your data' }).click();
  await jo.getByRole('button', { name: 'Delete all my data' }).click();
  const remove = jo.getByRole('dialog', { name: 'Delete All My Data' });
  const confirm = remove.getByRole('button', { name: 'Delete all my data' });
  await expect(confirm).toBeDisabled();
  await remove.getByLabel('Type DELETE to confirm').fill('DELETE');
  await confirm.click();
  await expect(remove).toBeHidden();
  await settled(jo);
  await expect(jo.getByText('No deposits yet. Add your pay to see what is left over each month.')).toBeVisible();
  await expect(depositsTable(jo)).toHaveCount(0);
  await expect(expensesTable(jo)).toHaveCount(0);
  await openView(jo, 'Home');
  await expect(jo.getByText(/No ledger yet/)).toBeVisible();
  await expect(jo.getByText('Please add deposits and/or expenses!')).toBeVisible();
  await openView(jo, 'Ledger');
  await expect(jo.getByText(/No ledger yet/)).toBeVisible();
  await ivy.reload();
  await expectView(ivy, 'Ledger');
  expect(await ledgerTexts(ivy)).toEqual(ivyRows);
  await first.close();
  await second.close();
});
