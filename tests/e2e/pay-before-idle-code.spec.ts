/**
 * Decision 0111: a Pay made as soon as a view has painted goes to the server at once. The code that
 * reads a write's changes (the Ledger's and Home's) comes with the view; it used to sit in the file
 * loaded when the browser is idle after the paint (`after-paint`), and a Pay waited for that whole
 * file before its request left. Here that file is held back (the service worker is kept out of the
 * way so the test can hold it), and a Pay on Home and on the Ledger still reaches the server.
 */
import { expect, type Route, test } from '@playwright/test';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { seedThroughApi } from './api-seed.js';
import { expectView } from './dashboard-actions.js';
import { ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';
import { isoDay } from './machine-day.js';

test.use({ serviceWorkers: 'block' });

const IDLE_CODE = '**/assets/after-paint-*.js';

test('a Pay on Home and on the Ledger reaches the server while the code loaded after the paint is held back', async ({ page }) => {
  await openSignedIn(page, 'pay-early-ida');
  await expectView(page, 'Home');
  // Rent falls due today, so it is among Home's next 14 days.
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'N/A', amount: 1500, startDate: isoDay(), frequency: 'EOM' }],
    expenses: [
      { name: 'Rent', type: 'Housing', day: new Date().getDate(), amount: 1200 },
      { name: 'Phone', type: 'Utilities', day: new Date().getDate(), amount: 80 },
    ],
    ledger: { startDate: isoDay(), endDate: isoDay(40), currentBalance: 400 },
  });

  const held: Route[] = [];
  await page.route(IDLE_CODE, (route) => void held.push(route));
  const updates: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === LEDGER_PATHS.updateTransaction) updates.push(request.method());
  });

  await page.reload();
  await expectView(page, 'Home');
  const rent = page.getByRole('list', { name: 'Next 14 days' }).getByRole('listitem').filter({ hasText: 'Rent' });
  await rent.getByRole('button', { name: 'Pay Rent' }).click();
  await expect.poll(() => updates.length, { message: "Home's Pay was sent" }).toBe(1);
  await expect(rent.locator('.ledger-status')).toHaveText(/Paid$/);

  await page.goto('/ledger');
  await expectView(page, 'Ledger');
  const phone = ledgerTable(page).getByRole('row', { name: /Phone/ }).first();
  await phone.getByRole('button', { name: /^Pay Phone/ }).click();
  await expect.poll(() => updates.length, { message: "the Ledger's Pay was sent" }).toBe(2);
  await expect(phone.locator('.ledger-status')).toHaveText(/Paid$/);
  // The file was asked for, and is still held: neither Pay waited for it.
  expect(held.length).toBeGreaterThan(0);
  await expect(ledgerTable(page).getByRole('row', { name: /Rent/ }).first().locator('.ledger-status')).toHaveText(/Paid$/);
  for (const route of held) await route.continue();
});
