/**
 * Decision 0120: the reads the page makes on its own once a view has painted (the schedules' names
 * the Ledger's Edit dialog shows, the budget list for the header's switcher) show no spinner. The
 * full-screen overlay used to cover the page for each of them, just after the view appeared, and a
 * tap on a Pay button that landed while it showed was taken by the overlay: nothing was paid.
 * Here those reads are held on their way; the page shows no overlay meanwhile, and a Pay goes
 * through. What the user asks for (the Pay itself) still shows it.
 */
import { expect, type Route, test } from '@playwright/test';
import { ENDPOINTS } from '../../src/contract/common.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { seedThroughApi } from './api-seed.js';
import { expectView } from './dashboard-actions.js';
import { ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';
import { isoDay } from './machine-day.js';

// The calls are held in the page's own network: kept out of the service worker's way.
test.use({ serviceWorkers: 'block' });

const READS_ON_ITS_OWN = new Set<string>([DEPOSITS_PATHS.retrieve, EXPENSES_PATHS.retrieve, ENDPOINTS.listBudgets.path]);

test('the reads the Ledger makes on its own after its paint show no spinner, and a Pay meanwhile is paid', async ({ page }) => {
  await openSignedIn(page, 'quiet-reads-ida');
  await expectView(page, 'Home');
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'N/A', amount: 1500, startDate: isoDay(), frequency: 'EOM' }],
    expenses: [{ name: 'Phone', type: 'Utilities', day: new Date().getDate(), amount: 80 }],
    ledger: { startDate: isoDay(), endDate: isoDay(40), currentBalance: 400 },
  });

  // Home's own budget list (asked once the browser is idle after its paint) has been answered: the
  // switcher shows only then. Otherwise it could leave after the route below and be held twice.
  await expect(page.getByRole('button', { name: 'Budget: Personal' })).toBeVisible();
  const held: Route[] = [];
  await page.route(
    (url) => READS_ON_ITS_OWN.has(url.pathname),
    (route) => void held.push(route),
  );
  const updates: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === LEDGER_PATHS.updateTransaction) updates.push(request.method());
  });

  await page.goto('/ledger');
  await expectView(page, 'Ledger');
  // The names and the budget list are on their way (the list once the browser is idle, at most 2 s after the paint).
  await expect.poll(() => held.map((route) => new URL(route.request().url()).pathname).sort()).toEqual([...READS_ON_ITS_OWN].sort());
  await expect(page.locator('.spinner-overlay')).toHaveCount(0);

  const phone = ledgerTable(page).getByRole('row', { name: /Phone/ }).first();
  await phone.getByRole('button', { name: /^Pay Phone/ }).click();
  await expect.poll(() => updates, { message: 'the Pay was sent' }).toEqual(['PATCH']);
  await expect(phone.locator('.ledger-status')).toHaveText(/Paid$/);

  for (const route of held) await route.continue();
  // Once they are in, the Edit dialog names the deposit a row comes from.
  const acme = ledgerTable(page).getByRole('row', { name: /Acme/ }).first();
  await acme.getByRole('button', { name: /^Edit Acme/ }).click();
  await expect(page.getByRole('dialog')).toContainText('From your deposit Acme');
});
