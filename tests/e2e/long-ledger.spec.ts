/**
 * Issue 27, decision 0053: the Ledger view's first view asks for a window of a long ledger (its
 * first rows with the balances, the count and the pay period lines), not every row; a Pay on it
 * paints at once and is taken in without a reload; a search asks for the rest and finds rows far
 * past the window, as a full load would; an Edit (which moves running balances) reads the window
 * again; and a reload shows the same ledger.
 */
import { expect, type Page, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { expectView } from './dashboard-actions.js';
import { ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';
import { readsAskedBy } from '../../src/contract/first-reads-query.js';

async function expectBalances(page: Page, current: string, pending: string): Promise<void> {
  await expect(page.getByTestId('current-balance')).toHaveText(current);
  await expect(page.getByTestId('pending-balance')).toHaveText(pending);
}

/** The ledger requests the page sends, as "path?query". */
function ledgerRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    // Alone, or among the document's first reads (decision 0128).
    for (const read of readsAskedBy(new URL(request.url()))) if (read.startsWith('/api/ledger/retrieve-ledger')) seen.push(read);
  });
  return seen;
}

test('a long ledger opens on a window of it, pays on it, and searches the whole of it', async ({ page }) => {
  test.setTimeout(90_000);
  await openSignedIn(page, 'wendy');
  await expect(page.getByRole('button', { name: 'New Ledger' })).toBeVisible();
  // A year of 24 bills and a yearly-paid Zoo Membership on the 31st, with an end-of-month paycheck:
  // 12 + 25 x 12 = 312 rows, far more than the first window's 100.
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
  const requests = ledgerRequests(page);
  await page.goto('/ledger');
  await expectView(page, 'Ledger');
  await expect(page.getByText('312 transactions.', { exact: true })).toBeVisible();
  await expect(ledgerTable(page)).toHaveAttribute('aria-rowcount', '326');
  await expectBalances(page, '$1,000.00', '$1,000.00');
  // Only the window was asked for.
  expect(requests).toHaveLength(1);
  expect(requests[0]).toMatch(/^\/api\/ledger\/retrieve-ledger\?limit=100&today=\d{4}-\d{2}-\d{2}$/);

  // A Pay paints at once and is taken in from its changes: no ledger request follows.
  const bill01 = ledgerTable(page).locator('tbody tr').filter({ hasText: 'Bill 01' }).first();
  const answered = page.waitForResponse((response) => response.url().includes('/api/ledger/update-transaction'));
  await bill01.getByRole('button', { name: 'Pay Bill 01' }).click();
  await expectBalances(page, '$1,000.00', '$990.00');
  expect((await answered).url()).toContain('answer=changes');
  await expect(bill01.locator('.ledger-status')).toHaveText(/Paid$/);
  expect(requests).toHaveLength(1);

  // A search needs every row: the rest is asked for once, and the hits are the whole year's.
  await page.getByRole('searchbox', { name: 'Search' }).fill('zoo');
  await expect(page.getByText('Showing 12 of 312 transactions.')).toBeVisible();
  expect(requests).toHaveLength(2);
  expect(requests[1]).toBe('/api/ledger/retrieve-ledger');
  // The first hit in January, the last in December (the table renders the rows near the viewport).
  const hits = ledgerTable(page).locator('tbody tr[aria-rowindex]').filter({ hasText: 'Zoo Membership' });
  await expect(hits.first()).toContainText('Jan 31, 2055');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(hits.last()).toContainText('Fri, Dec 31, 2055');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(page.getByText('312 transactions.', { exact: true })).toBeVisible();

  // A reload opens on the window again, with the Pay kept.
  await page.reload();
  await expect(page.getByText('312 transactions.', { exact: true })).toBeVisible();
  await expectBalances(page, '$1,000.00', '$990.00');
  expect(requests).toHaveLength(3);
  expect(requests[2]).toMatch(/\?limit=100&today=/);

  // An edit moves running balances: the window is read again, and shows them moved.
  const bill02 = ledgerTable(page).locator('tbody tr').filter({ hasText: 'Bill 02' }).first();
  await bill02.getByRole('button', { name: 'Edit Bill 02' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Transaction' });
  await dialog.getByLabel('Amount').fill('110');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(bill02).toContainText('$110.00');
  await expect.poll(() => requests.length).toBe(4);
  expect(requests[3]).toMatch(/\?limit=100&today=/);
  await expect(page.getByText('312 transactions.', { exact: true })).toBeVisible();
  await expectBalances(page, '$1,000.00', '$990.00');
});
