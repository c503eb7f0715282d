import { expect, type Locator, type Page, test } from '@playwright/test';
import { addDeposit, addExpense, createLedger, settled } from './dashboard-actions.js';
import { signInAs } from './sign-in.js';

function ledgerTable(page: Page): Locator {
  return page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Credit' }) });
}

async function expectRows(page: Page, rows: readonly (readonly [string, string, string])[]): Promise<void> {
  const bodyRows = ledgerTable(page).locator('tbody tr');
  await expect(bodyRows).toHaveCount(rows.length);
  for (const [index, [date, name, balance]] of rows.entries()) {
    const row = bodyRows.nth(index);
    await expect(row).toContainText(date);
    await expect(row).toContainText(name);
    await expect(row).toContainText(balance);
  }
}

async function expectBalances(page: Page, current: string, pending: string): Promise<void> {
  await expect(page.getByTestId('current-balance')).toHaveText(current);
  await expect(page.getByTestId('pending-balance')).toHaveText(pending);
}

test('the ledger projects paychecks and bills, and follows pay, clear, filter, add, edit and reload', async ({ page }) => {
  await page.goto('/');
  await signInAs(page, 'gina');
  await settled(page);
  // With no ledger only New Ledger shows.
  await expect(page.getByRole('button', { name: 'New Ledger' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Transaction' })).toHaveCount(0);

  await addDeposit(page, { name: 'Acme', type: 'Direct Deposit', amount: '1500', startDate: '2026-12-04', frequency: 'BW' });
  await addExpense(page, { name: 'Rent', type: 'Housing', day: '4', amount: '1200' });
  await addExpense(page, { name: 'Phone', type: 'Utilities', day: '20', amount: '80.50' });
  await createLedger(page, { startDate: '2026-12-01', endDate: '2026-12-31', currentBalance: '500' });

  // On 12-04 the paycheck comes before the rent it pays.
  await expectRows(page, [
    ['2026-12-04', 'Acme Paycheck', '$2,000.00'],
    ['2026-12-04', 'Rent', '$800.00'],
    ['2026-12-18', 'Acme Paycheck', '$2,300.00'],
    ['2026-12-20', 'Phone', '$2,219.50'],
  ]);
  await expectBalances(page, '$500.00', '$500.00');

  // Pay the rent: pending follows, current waits for the bank.
  const rentRow = ledgerTable(page).getByRole('row', { name: /Rent/ });
  await rentRow.getByRole('button', { name: /^Pay/ }).click();
  await expectBalances(page, '$500.00', '-$700.00');
  await expect(rentRow.getByRole('button', { name: /^Pay/ })).toBeDisabled();
  await expect(rentRow.getByRole('button', { name: /^Edit/ })).toBeDisabled();
  await expect(rentRow.getByRole('button', { name: /^Clear/ })).toBeEnabled();

  const firstPaycheck = ledgerTable(page).locator('tbody tr').first();
  await firstPaycheck.getByRole('button', { name: /^Clear/ }).click();
  await expectBalances(page, '$2,000.00', '$800.00');
  await rentRow.getByRole('button', { name: /^Clear/ }).click();
  await expectBalances(page, '$800.00', '$800.00');
  await expect(rentRow.getByRole('button', { name: /^Clear/ })).toBeDisabled();

  // Filter: hide cleared rows, then bring them back.
  await page.getByRole('button', { name: 'Filter' }).click();
  const filter = page.getByRole('dialog', { name: 'Filter By' });
  for (const name of ['Not Cleared', 'Paid', 'Cleared']) await expect(filter.getByLabel(name, { exact: true })).toBeChecked();
  await filter.getByLabel('Cleared', { exact: true }).uncheck();
  await page.keyboard.press('Escape');
  await expect(ledgerTable(page).locator('tbody tr')).toHaveCount(2);
  await expect(ledgerTable(page).getByRole('row', { name: /Rent/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByRole('dialog', { name: 'Filter By' }).getByLabel('Cleared', { exact: true }).check();
  await page.keyboard.press('Escape');
  await expect(ledgerTable(page).locator('tbody tr')).toHaveCount(4);

  // Add a transaction, picking the name from the suggestions with the keyboard.
  await page.getByRole('button', { name: 'Add Transaction' }).click();
  const add = page.getByRole('dialog', { name: 'Add Transaction' });
  await add.getByLabel('Date').fill('2026-12-10');
  await add.getByLabel('Name').fill('sta');
  await expect(add.getByRole('option', { name: 'Starbucks' })).toBeVisible();
  await add.getByLabel('Name').press('ArrowDown');
  await add.getByLabel('Name').press('Enter');
  await expect(add.getByLabel('Name')).toHaveValue('Starbucks');
  await expect(add.getByRole('listbox')).toHaveCount(0);
  await add.getByLabel('Type').selectOption('D');
  await add.getByLabel('Amount').fill('5.25');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await expectRows(page, [
    ['2026-12-04', 'Acme Paycheck', '$2,000.00'],
    ['2026-12-04', 'Rent', '$800.00'],
    ['2026-12-10', 'Starbucks', '$794.75'],
    ['2026-12-18', 'Acme Paycheck', '$2,294.75'],
    ['2026-12-20', 'Phone', '$2,214.25'],
  ]);

  // Edit the unpaid row: 0.75 more spent moves every later balance down by 0.75.
  await ledgerTable(page).getByRole('row', { name: /Starbucks/ }).getByRole('button', { name: /^Edit/ }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Transaction' });
  await edit.getByLabel('Amount').fill('6');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(ledgerTable(page).getByRole('row', { name: /Phone/ })).toContainText('$2,213.50');

  await page.reload();
  await settled(page);
  await expectRows(page, [
    ['2026-12-04', 'Acme Paycheck', '$2,000.00'],
    ['2026-12-04', 'Rent', '$800.00'],
    ['2026-12-10', 'Starbucks', '$794.00'],
    ['2026-12-18', 'Acme Paycheck', '$2,294.00'],
    ['2026-12-20', 'Phone', '$2,213.50'],
  ]);
  await expectBalances(page, '$800.00', '$800.00');

  // Under 1100 px the rows turn compact: no table columns, still name, date, amount and balance.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(page.getByRole('columnheader', { name: 'Debit' })).toHaveCount(0);
  const compactPhone = page.getByTestId('ledger-compact-row').filter({ hasText: 'Phone' });
  await expect(compactPhone).toContainText('2026-12-20');
  await expect(compactPhone).toContainText('$80.50');
  await expect(compactPhone).toContainText('$2,213.50');
});

test('a failed load names what failed, and RETRY recovers it', async ({ page }) => {
  await page.goto('/');
  await signInAs(page, 'hank');
  await settled(page);
  await createLedger(page, { startDate: '2026-12-01', endDate: '2026-12-31', currentBalance: '42' });
  await expectBalances(page, '$42.00', '$42.00');

  // The network drops the next ledger request once.
  await page.route('**/api/ledger/retrieve-ledger', (route) => route.abort('connectionfailed'), { times: 1 });
  await page.reload();
  const whoops = page.getByRole('dialog', { name: 'Whoops!' });
  await expect(whoops).toContainText('Failed to get ledger!');
  await expect(whoops).not.toContainText('Failed to get deposits!');
  // What loaded still shows.
  await expect(page.getByText('Total Monthly Deposits: $0.00').or(page.getByRole('button', { name: 'Add Deposit' }))).toBeVisible();
  await whoops.getByRole('button', { name: 'RETRY' }).click();
  await expect(whoops).toBeHidden();
  await expectBalances(page, '$42.00', '$42.00');
});
