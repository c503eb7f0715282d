/**
 * Issue 14 end to end: the samples' OFX 1 statement imported through the Import Statement dialog
 * into the samples' matching ledger (Acme's $1,000 every other Friday from the 1st, Rent $1,200 on
 * the 1st, Phone $50.55 on the 15th, one January, $500 now): four rows matched, four added, and the
 * ledger reconciled with the bank. The statement is the samples' with its year moved from 2027 to
 * 2055 (28 years on, the same weekdays), so its month stays after today whenever this runs.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { expectView, settled } from './dashboard-actions.js';
import { ledgerRows, ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';
import { sampleStatementIn2055 } from './sample-statement.js';

const STATEMENT = sampleStatementIn2055();

/** What each preview line's select says will happen, in the file's order. */
async function chosenActions(dialog: Locator): Promise<string[]> {
  return dialog
    .getByRole('combobox', { name: /^What happens to / })
    .evaluateAll((selects) => selects.map((select) => (select as HTMLSelectElement).selectedOptions[0]?.text ?? ''));
}

test('imports the OFX sample through the dialog: four rows matched, four added, reconciled with the bank', async ({ page }) => {
  await openSignedIn(page, 'stella-statement');
  await expect(page.getByRole('button', { name: 'New Ledger' })).toBeVisible();
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'Friday', amount: 1000, startDate: '2055-01-01', frequency: 'BW' }],
    expenses: [
      { name: 'Rent', type: 'Bill', day: 1, amount: 1200 },
      { name: 'Phone', type: 'Bill', day: 15, amount: 50.55 },
    ],
    ledger: { startDate: '2055-01-01', endDate: '2055-01-31', currentBalance: 500 },
  });
  await page.goto('/ledger');
  await expectView(page, 'Ledger');
  await expect(page.getByText('5 transactions.')).toBeVisible();

  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Statement' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Statement file').setInputFiles(STATEMENT);

  const preview = dialog.getByRole('region', { name: 'Preview' });
  await expect(preview).toBeVisible();
  await expect(preview.getByText('After import: Bank balance $1,177.37 · Leftover $1,177.37 · Difference $0.00')).toBeVisible();
  await expect(preview.getByRole('row')).toHaveCount(9);
  await expect(preview.getByRole('row').nth(1)).toContainText('Fri, Jan 1, 2055');
  await expect(preview.getByRole('row').nth(1)).toContainText('ACME CORP PAYROLL');
  await expect(preview.getByRole('row').nth(1)).toContainText('$1,000.00');
  expect(await chosenActions(dialog)).toEqual([
    'Matches Acme Paycheck (Fri, Jan 1, 2055)',
    'Matches Rent (Fri, Jan 1, 2055)',
    'New',
    'New',
    'New',
    'New',
    'Matches Acme Paycheck (Fri, Jan 15, 2055)',
    'Matches Phone (Fri, Jan 15, 2055)',
  ]);

  // The open dialog, preview and all, passes axe.
  const results = await new AxeBuilder({ page }).include('.modal').analyze();
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toBeHidden();
  await settled(page);

  await expect(page.getByRole('status').filter({ hasText: 'Reconciled with the bank on Sat, Jan 16, 2055' })).toBeVisible();
  await expect(page.getByText('9 transactions.')).toBeVisible();
  await ledgerTable(page).scrollIntoViewIfNeeded();
  const rows = ledgerRows(page);
  await expect(rows).toHaveCount(9);
  // Four matched (the paychecks, Rent a day late, Phone a day late) and four added, every one cleared.
  await expect(
    rows
      .filter({ has: page.locator('.ledger-row__name', { hasText: /^(Acme Paycheck|Rent|Phone)$/ }) })
      .and(page.locator('.ledger-row--cleared')),
  ).toHaveCount(4);
  const added = rows.filter({ has: page.locator('.ledger-row__name', { hasText: /WAL-MART|STARBUCKS|SHELL OIL|ZELLE FROM JOHN DOE/ }) });
  await expect(added).toHaveCount(4);
  await expect(added.and(page.locator('.ledger-row--cleared'))).toHaveCount(4);
  await expect(rows.filter({ hasText: 'Rent' })).toContainText('Sat, Jan 2, 2055');
  await expect(rows.filter({ hasText: 'Phone' })).toContainText('Sat, Jan 16, 2055');
  // The one row the bank has not seen yet stays open.
  await expect(rows.and(page.locator('.ledger-row--pending'))).toHaveCount(1);
  await expect(page.getByTestId('current-balance')).toHaveText('$1,177.37');
});
