import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { addDeposit, addExpense, addTransaction, createLedger, expectView, openView } from './dashboard-actions.js';
import { expectLedgerRows, expensesTable, ledgerRows, ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';
import { asksFor } from './first-reads.js';

/** axe on the ledger as it is now: no serious or critical violation (spacers, row numbers included). */
async function expectAccessibleLedger(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).include('.ledger').analyze();
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 120)).join(' | ')}`)).toEqual([]);
}

async function expectBalances(page: Page, current: string, pending: string): Promise<void> {
  await expect(page.getByTestId('current-balance')).toHaveText(current);
  await expect(page.getByTestId('pending-balance')).toHaveText(pending);
}

test('the ledger projects paychecks and bills, and follows pay, clear, filter, add, edit and reload', async ({ page }) => {
  await openSignedIn(page, 'gina');
  await expectView(page, 'Home');
  // With no ledger only New Ledger shows, on Home and in the Ledger.
  await expect(page.getByRole('button', { name: 'New Ledger' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Transaction' })).toHaveCount(0);
  await openView(page, 'Ledger');
  await expect(page.getByRole('button', { name: 'New Ledger' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Transaction' })).toHaveCount(0);

  await openView(page, 'Plan');
  await addDeposit(page, { name: 'Acme', type: 'Direct Deposit', amount: '1500', startDate: '2054-12-04', frequency: 'BW' });
  await addExpense(page, { name: 'Rent', type: 'Housing', day: '4', amount: '1200' });
  await addExpense(page, { name: 'Phone', type: 'Utilities', day: '20', amount: '80.50' });
  await openView(page, 'Ledger');
  await createLedger(page, { startDate: '2054-12-01', endDate: '2054-12-31', currentBalance: '500' });

  // On 12-04 the paycheck comes before the rent it pays.
  await expectLedgerRows(page, [
    ['2054-12-04', 'Acme Paycheck', '$2,000.00'],
    ['2054-12-04', 'Rent', '$800.00'],
    ['2054-12-18', 'Acme Paycheck', '$2,300.00'],
    ['2054-12-20', 'Phone', '$2,219.50'],
  ]);
  await expectBalances(page, '$500.00', '$500.00');

  // Pay the rent: pending follows, current waits for the bank.
  const rentRow = ledgerTable(page).getByRole('row', { name: /Rent/ });
  const payAnswer = page.waitForResponse((response) => response.url().includes('/api/ledger/update-transaction'));
  await rentRow.getByRole('button', { name: /^Pay/ }).click();
  // The page asks for the changes only and applies them itself (decision 0030); the reload below shows the same ledger.
  const paid = await payAnswer;
  expect(new URL(paid.url()).searchParams.get('answer')).toBe('changes');
  expect(Object.keys((await paid.json()) as object)).toEqual(['changes']);
  await expectBalances(page, '$500.00', '-$700.00');
  await expect(rentRow.getByRole('button', { name: /^Pay/ })).toBeDisabled();
  await expect(rentRow.getByRole('button', { name: /^Edit/ })).toBeDisabled();
  await expect(rentRow.getByRole('button', { name: /^Clear/ })).toBeEnabled();

  const firstPaycheck = ledgerRows(page).first();
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
  await expect(ledgerRows(page)).toHaveCount(2);
  await expect(ledgerTable(page).getByRole('row', { name: /Rent/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByRole('dialog', { name: 'Filter By' }).getByLabel('Cleared', { exact: true }).check();
  await page.keyboard.press('Escape');
  await expect(ledgerRows(page)).toHaveCount(4);

  // Add a transaction, picking the name from the suggestions with the keyboard.
  await page.getByRole('button', { name: 'Add Transaction' }).click();
  const add = page.getByRole('dialog', { name: 'Add Transaction' });
  await add.getByLabel('Date').fill('2054-12-10');
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
  await expectLedgerRows(page, [
    ['2054-12-04', 'Acme Paycheck', '$2,000.00'],
    ['2054-12-04', 'Rent', '$800.00'],
    ['2054-12-10', 'Starbucks', '$794.75'],
    ['2054-12-18', 'Acme Paycheck', '$2,294.75'],
    ['2054-12-20', 'Phone', '$2,214.25'],
  ]);

  // Edit the unpaid row: 0.75 more spent moves every later balance down by 0.75.
  await ledgerTable(page)
    .getByRole('row', { name: /Starbucks/ })
    .getByRole('button', { name: /^Edit/ })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Transaction' });
  await edit.getByLabel('Amount').fill('6');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(ledgerTable(page).getByRole('row', { name: /Phone/ })).toContainText('$2,213.50');

  await page.reload();
  await expectView(page, 'Ledger');
  await expectLedgerRows(page, [
    ['2054-12-04', 'Acme Paycheck', '$2,000.00'],
    ['2054-12-04', 'Rent', '$800.00'],
    ['2054-12-10', 'Starbucks', '$794.00'],
    ['2054-12-18', 'Acme Paycheck', '$2,294.00'],
    ['2054-12-20', 'Phone', '$2,213.50'],
  ]);
  await expectBalances(page, '$800.00', '$800.00');

  // Under 1100 px the rows turn compact: no table columns, still name, date, amount and balance.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(page.getByRole('columnheader', { name: 'Debit' })).toHaveCount(0);
  const compactPhone = page.getByTestId('ledger-compact-row').filter({ hasText: 'Phone' });
  await expect(compactPhone).toContainText('Sun, Dec 20, 2054');
  await expect(compactPhone).toContainText('$80.50');
  await expect(compactPhone).toContainText('$2,213.50');
});

test('the ledger lives on: extending it and changing an expense keep the paid row and the row added by hand', async ({ page }) => {
  await openSignedIn(page, 'jules');
  await expectView(page, 'Home');
  await openView(page, 'Plan');
  await addExpense(page, { name: 'Rent', type: 'Housing', day: '1', amount: '1200' });
  await openView(page, 'Ledger');
  // Years ahead of the server's today, so every unpaid row is still future and follows the expense.
  await createLedger(page, { startDate: '2031-01-01', endDate: '2031-03-31', currentBalance: '5000' });
  const rows = ledgerRows(page);
  await rows.first().getByRole('button', { name: 'Pay Rent' }).click();
  await expectBalances(page, '$5,000.00', '$3,800.00');
  await addTransaction(page, { date: '2031-02-10', name: 'Starbucks', type: 'D', amount: '5.25' });

  await page.getByRole('button', { name: 'Extend', exact: true }).click();
  const extend = page.getByRole('dialog', { name: 'Extend Ledger' });
  await expect(extend.getByLabel('End Date')).toHaveValue('2031-06-30');
  await extend.getByRole('button', { name: 'Extend', exact: true }).click();
  await expect(extend).toBeHidden();
  await expectLedgerRows(page, [
    ['2031-01-01', 'Rent', '$3,800.00'],
    ['2031-02-01', 'Rent', '$2,600.00'],
    ['2031-02-10', 'Starbucks', '$2,594.75'],
    ['2031-03-01', 'Rent', '$1,394.75'],
    ['2031-04-01', 'Rent', '$194.75'],
    ['2031-05-01', 'Rent', '-$1,005.25'],
    ['2031-06-01', 'Rent', '-$2,205.25'],
  ]);

  // The rent goes up in Plan: the Expenses section's change reaches every unpaid Rent row, not the paid one.
  await openView(page, 'Plan');
  await expensesTable(page).getByRole('button', { name: 'Edit Rent' }).click();
  const editExpense = page.getByRole('dialog', { name: 'Edit Expense' });
  await editExpense.getByLabel('Amount').fill('1250');
  await editExpense.getByRole('button', { name: 'Save' }).click();
  await expect(editExpense).toBeHidden();
  await openView(page, 'Ledger');
  await expectLedgerRows(page, [
    ['2031-01-01', 'Rent', '$3,800.00'],
    ['2031-02-01', 'Rent', '$2,550.00'],
    ['2031-02-10', 'Starbucks', '$2,544.75'],
    ['2031-03-01', 'Rent', '$1,294.75'],
    ['2031-04-01', 'Rent', '$44.75'],
    ['2031-05-01', 'Rent', '-$1,205.25'],
    ['2031-06-01', 'Rent', '-$2,455.25'],
  ]);
  const debit = (index: number) => rows.nth(index).getByRole('cell').nth(2);
  await expect(debit(0)).toHaveText('$1,200.00');
  for (const index of [1, 3, 4, 5, 6]) await expect(debit(index)).toHaveText('$1,250.00');
  await expectBalances(page, '$5,000.00', '$3,800.00');
});

test('a failed load names what failed, and RETRY recovers it', async ({ page }) => {
  await openSignedIn(page, 'hank', '/ledger');
  await expectView(page, 'Ledger');
  await createLedger(page, { startDate: '2054-12-01', endDate: '2054-12-31', currentBalance: '42' });
  await expectBalances(page, '$42.00', '$42.00');

  // The network drops the next ledger request once.
  // The Ledger view asks for a window of it (?limit=..., decision 0053): any query string matches,
  // and the reload asks for it among its first reads, in one call (decision 0128).
  await page.route(
    (url) => asksFor(url, '/api/ledger/retrieve-ledger'),
    (route) => route.abort('connectionfailed'),
    { times: 1 },
  );
  await page.reload();
  const whoops = page.getByRole('dialog', { name: 'Whoops!' });
  await expect(whoops).toContainText('Failed to get ledger!');
  await expect(whoops).not.toContainText('Failed to get deposits!');
  // The Ledger says it has not loaded: it does not claim there is none.
  await expect(page.getByText('The ledger has not loaded.')).toBeVisible();
  await whoops.getByRole('button', { name: 'RETRY' }).click();
  await expect(whoops).toBeHidden();
  await expectBalances(page, '$42.00', '$42.00');

  // On Home, the forecast's request dropped once: what loaded still shows.
  await page.route('**/api/ledger/forecast', (route) => route.abort('connectionfailed'), { times: 1 });
  await openView(page, 'Home');
  await expect(whoops).toContainText('Failed to get forecast!');
  await expect(whoops).not.toContainText('Failed to get deposits!');
  await expect(page.getByText('Please add deposits and/or expenses!')).toBeVisible();
  await expect(page.getByText('The next 14 days have not loaded.')).toBeVisible();
  await whoops.getByRole('button', { name: 'RETRY' }).click();
  await expect(whoops).toBeHidden();
  await expect(page.getByText('Nothing is due in the next 14 days.')).toBeVisible();
});

test('a long ledger renders the rows near the viewport; the last row can be scrolled to and paid, and Tab walks the rows', async ({
  page,
}) => {
  // 240 key presses, two axe scans and two layouts: about a minute on a busy 2-core machine.
  test.setTimeout(120_000);
  await openSignedIn(page, 'ivy');
  await expect(page.getByRole('button', { name: 'New Ledger' })).toBeVisible();
  // A year of 24 bills, one on the 31st (the last day of shorter months) and an end-of-month
  // paycheck: 12 + 25 x 12 = 312 rows. On 2055-12-31 the paycheck comes first, so the last row
  // is the 31st's bill.
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'N/A', amount: 1500, startDate: '2055-01-01', frequency: 'EOM' }],
    expenses: [
      ...Array.from({ length: 24 }, (_, index) => ({
        name: `Bill ${String(index + 1).padStart(2, '0')}`,
        type: 'Bill',
        day: index + 1,
        amount: 10,
      })),
      { name: 'Zoo Membership', type: 'Leisure', day: 31, amount: 45.67 },
    ],
    ledger: { startDate: '2055-01-01', endDate: '2055-12-31', currentBalance: 1000 },
  });
  await page.goto('/ledger');
  await expectView(page, 'Ledger');
  await expect(page.getByText('312 transactions.')).toBeVisible();

  // The table tells assistive technology its whole size (the header, 312 rows and the lines of 13
  // pay periods: the opening one and one per end-of-month paycheck); the DOM holds only part of them.
  const table = ledgerTable(page);
  await expect(table).toHaveAttribute('aria-rowcount', '326');
  const renderedRows = table.locator('tbody tr[aria-rowindex]');
  await expect(renderedRows.first()).toHaveAttribute('aria-rowindex', '2');
  const renderedCount = await renderedRows.count();
  expect(renderedCount).toBeGreaterThan(0);
  expect(renderedCount).toBeLessThan(100);
  await expect(table.locator('tbody tr.ledger-spacer')).toHaveAttribute('aria-hidden', 'true');

  // The page's height is the whole table's: scrolling to the bottom brings the last row.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const lastRow = table.locator('tbody tr[aria-rowindex="326"]');
  await expect(lastRow).toBeVisible();
  await expect(lastRow).toContainText('Fri, Dec 31, 2055');
  await expect(lastRow).toContainText('Zoo Membership');
  await expect(table.locator('tbody tr[aria-rowindex="2"]')).toHaveCount(0);
  expect(await renderedRows.count()).toBeLessThan(100);

  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
  await expect(table.locator('tbody tr.ledger-spacer')).toHaveCount(2);
  await expectAccessibleLedger(page);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(lastRow).toBeVisible();

  // Paying it moves the Pending Balance (the header stays in view), and the keyboard focus goes to
  // the row's Clear button ...
  await expectBalances(page, '$1,000.00', '$1,000.00');
  await lastRow.getByRole('button', { name: 'Pay Zoo Membership' }).click();
  await expectBalances(page, '$1,000.00', '$954.33');
  const clearLast = lastRow.getByRole('button', { name: 'Clear Zoo Membership' });
  await expect(clearLast).toBeFocused();
  // ... where it stays when the row is scrolled far out of the window.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(table.locator('tbody tr[aria-rowindex="3"]')).toBeAttached();
  await expect(clearLast).toBeFocused();

  // Tab from the first row's Edit button (row 3, under the opening pay period's line) through 40
  // rows (four buttons each) and one more period line, across the window's lower edge: the browser
  // scrolls each focused button into view and the next row is rendered by then.
  await table.locator('tbody tr[aria-rowindex="3"]').getByRole('button', { name: /^Edit/ }).focus();
  const focusedRowIndex = () => page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('aria-rowindex') ?? null);
  const nextRowRendered = () =>
    page.evaluate(() => document.activeElement?.closest('tr')?.nextElementSibling?.hasAttribute('aria-rowindex') ?? false);
  const rowsToWalk = 40;
  // Edit, Pay, Clear and Delete.
  const BUTTONS_PER_UNPAID_ROW = 4;
  for (let press = 0; press < rowsToWalk * BUTTONS_PER_UNPAID_ROW; press += 1) {
    await expect.poll(nextRowRendered).toBe(true);
    await page.keyboard.press('Tab');
  }
  // The January paycheck's period line lies between: it has no buttons, so Tab passes over it.
  const periodLinesPassed = 1;
  expect(await focusedRowIndex()).toBe(String(3 + rowsToWalk + periodLinesPassed));
  await expect(page.locator(':focus')).toHaveAccessibleName(/^Edit Bill/);
  await expect(page.locator(':focus')).toBeInViewport();

  // Shift+Tab back up: every focused button ends up below the sticky ledger header, never under it
  // (the page scrolls smoothly, so each check waits for the scroll to settle).
  const focusClearOfHeader = () =>
    page.evaluate(() => {
      const focused = document.activeElement?.getBoundingClientRect();
      const header = document.querySelector('.ledger-header')?.getBoundingClientRect();
      return focused !== undefined && header !== undefined && focused.top >= header.bottom - 1;
    });
  for (let press = 0; press < 20 * BUTTONS_PER_UNPAID_ROW; press += 1) {
    await page.keyboard.press('Shift+Tab');
    await expect.poll(focusClearOfHeader, { message: `focus after ${press + 1} Shift+Tab` }).toBe(true);
  }
  expect(await focusedRowIndex()).toBe(String(3 + rowsToWalk - 20));

  // Under 1100 px the compact list is windowed the same way; each item says its place in the whole.
  await page.setViewportSize({ width: 1000, height: 800 });
  // The room kept above focused rows still covers the header, which wraps onto more lines here.
  const headerRoom = () =>
    page.evaluate(() => ({
      kept: Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop),
      header: document.querySelector('.ledger-header')?.getBoundingClientRect().height ?? Number.POSITIVE_INFINITY,
    }));
  for (const width of [1000, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await expect
      .poll(
        async () => {
          const room = await headerRoom();
          return room.kept >= room.header;
        },
        { message: `header room at ${width} px` },
      )
      .toBe(true);
  }
  await page.setViewportSize({ width: 1000, height: 800 });
  const list = page.getByRole('list', { name: 'Transactions' });
  await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-setsize', '325');
  expect(await list.getByRole('listitem').count()).toBeLessThan(100);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const lastItem = list.locator('li[aria-posinset="325"]');
  await expect(lastItem).toBeVisible();
  await expect(lastItem).toContainText('Fri, Dec 31, 2055');
  await expect(lastItem).toContainText('Zoo Membership');
  await expect(lastItem.getByRole('button', { name: 'Pay Zoo Membership' })).toBeDisabled();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
  await expect(list.locator('li.ledger-compact__spacer')).toHaveCount(2);
  await expectAccessibleLedger(page);
});
