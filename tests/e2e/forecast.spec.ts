/**
 * Issue 13 end to end: "will I make it to payday?" on screen. A ledger that dips below zero shows
 * the warning with the day and the bill, the pay periods' lines with their figures, and the
 * forecast chart; lowering the bill takes the warning away. Dates are in 2031, years after any
 * day this runs on, so every row is ahead of the server's today.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { addDeposit, addExpense, createLedger, expectView, openView, settled } from './dashboard-actions.js';
import { expensesTable, ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';

const WARNING = 'Your balance goes below $0 on Sun, Jan 5, 2031, when Rent is due.';

/** The Summary section's body, on Home. */
function summary(page: Page) {
  return page.locator('.accordion-item').filter({ has: page.getByRole('heading', { name: 'Summary' }) });
}

async function expectNoBlockingViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 120)).join(' | ')}`)).toEqual([]);
}

test('a ledger that goes below zero warns on the right day, shows its pay periods and the chart, and the warning goes when the bill is lowered', async ({
  page,
}) => {
  await openSignedIn(page, 'fran');
  await expectView(page, 'Home');
  // 2031-01-03 is a Friday: paychecks on Jan 3, 17 and 31; rent on the 5th.
  await openView(page, 'Plan');
  await addDeposit(page, { name: 'Acme', type: 'Direct Deposit', amount: '1000', startDate: '2031-01-03', frequency: 'BW' });
  await addExpense(page, { name: 'Rent', type: 'Housing', day: '5', amount: '1200' });
  // Every name shown is isolated (issue 17, finding 8): a bidi override in one cannot reorder what surrounds it.
  const unicodeBidi = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).unicodeBidi);
  expect(await unicodeBidi(expensesTable(page).getByRole('rowheader', { name: 'Rent' }))).toBe('isolate');
  // Home guides a user without a ledger to New Ledger.
  await openView(page, 'Home');
  await createLedger(page, { startDate: '2031-01-01', endDate: '2031-01-31', currentBalance: '100' });
  await settled(page);

  // The warning, in words, in Home's Summary (a status, not an alert) ...
  await expect(summary(page).getByRole('status')).toContainText(WARNING);
  await expect(summary(page).getByRole('status')).toContainText('Lowest balance ahead: -$100.00 on Sun, Jan 5, 2031');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await unicodeBidi(summary(page).locator('.alert bdi'))).toBe('isolate');

  // ... with the chart, by its name, drawn once its code has loaded; the keyboard reads a point.
  const chart = page.getByRole('figure', { name: 'Balance forecast' });
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas')).toBeVisible();
  const plot = chart.getByRole('group', { name: /^Balance by date/ });
  await plot.focus();
  await page.keyboard.press('Home');
  await expect(chart.locator('[aria-live="polite"]')).toHaveText('Wed, Jan 1, 2031: $100.00');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(chart.locator('[aria-live="polite"]')).toHaveText('Sun, Jan 5, 2031: -$100.00');
  await chart.getByText('Chart as text').click();
  await expect(chart).toContainText('After the paycheck on Fri, Jan 3, 2031: $1,100.00');
  await expectNoBlockingViolations(page);

  // ... and in the Ledger's sticky header.
  await openView(page, 'Ledger');
  await expect(page.locator('.ledger-header').getByText(WARNING)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await unicodeBidi(ledgerTable(page).locator('.ledger-row__name').first())).toBe('isolate');

  // Every pay period opens with its line: the opening one without rows, then one per paycheck.
  const periodLines = ledgerTable(page).getByRole('heading', { level: 3 });
  await expect(periodLines).toHaveText([
    'Pay period Wed, Jan 1, 2031 – Thu, Jan 2, 2031 · In $0.00 · Out $0.00 · Left over $0.00 · Lowest $100.00',
    'Pay period Fri, Jan 3, 2031 – Thu, Jan 16, 2031 · In $1,000.00 · Out $1,200.00 · Left over -$200.00 · Lowest -$100.00',
    'Pay period Fri, Jan 17, 2031 – Thu, Jan 30, 2031 · In $1,000.00 · Out $0.00 · Left over $1,000.00 · Lowest $900.00',
    'Pay period Fri, Jan 31, 2031 – Fri, Jan 31, 2031 · In $1,000.00 · Out $0.00 · Left over $1,000.00 · Lowest $1,900.00',
  ]);
  // The lines are not transactions.
  await expect(page.getByText('4 transactions.', { exact: true })).toBeVisible();
  await expect(ledgerTable(page).getByRole('row', { name: /Rent/ })).toContainText('Sun, Jan 5, 2031');
  await expectNoBlockingViolations(page);

  // The Search field finds rows the windowed table does not render, with the count shown.
  await page.getByRole('searchbox', { name: 'Search' }).fill('rent');
  await expect(page.getByText('Showing 1 of 4 transactions.')).toBeVisible();
  await expect(periodLines).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(page.getByText('4 transactions.', { exact: true })).toBeVisible();

  // Lower the rent in Plan: the ledger follows the bill, the balance stays above zero, the warning goes.
  await openView(page, 'Plan');
  await expensesTable(page).getByRole('button', { name: 'Edit Rent' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Expense' });
  await edit.getByLabel('Amount').fill('1000');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await settled(page);
  await openView(page, 'Ledger');
  await expect(ledgerTable(page).getByRole('row', { name: /Rent/ })).toContainText('$100.00');
  await expect(page.getByText(WARNING)).toHaveCount(0);
  await expect(periodLines.nth(1)).toHaveText(
    'Pay period Fri, Jan 3, 2031 – Thu, Jan 16, 2031 · In $1,000.00 · Out $1,000.00 · Left over $0.00 · Lowest $100.00',
  );
  await expectNoBlockingViolations(page);
  await openView(page, 'Home');
  await expect(page.getByText(WARNING)).toHaveCount(0);
  await expect(summary(page).getByRole('status')).toContainText('Lowest balance ahead: $100.00 on Sun, Jan 5, 2031');
  await expectNoBlockingViolations(page);
});
