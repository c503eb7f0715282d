/**
 * Issue 24 item 3 in a real browser against the real server: Pay paints the row's badge and the
 * Pending Balance at once, while the server's answer is held back (the request goes to the server
 * at once; only its real answer waits), and a Pay the server refuses, or that never reaches it,
 * puts the row back and says why in "Whoops!".
 */
import { expect, type Locator, type Page, type Route, test } from '@playwright/test';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { seedThroughApi } from './api-seed.js';
import { settled } from './dashboard-actions.js';
import { ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';

const UPDATE_TRANSACTION = `**${LEDGER_PATHS.updateTransaction}*`;

/**
 * Years ahead of the server's today, so every row is still unpaid: $500 to start, a $1,500 paycheck
 * on Jan 3 and 17, $1,200 rent on the 4th and an $80.50 phone bill on the 20th.
 */
async function openSeededLedger(page: Page, userName: string): Promise<void> {
  await openSignedIn(page, userName);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'Friday', amount: 1500, startDate: '2031-01-03', frequency: 'BW' }],
    expenses: [
      { name: 'Rent', type: 'Housing', day: 4, amount: 1200 },
      { name: 'Phone', type: 'Utilities', day: 20, amount: 80.5 },
    ],
    ledger: { startDate: '2031-01-01', endDate: '2031-01-31', currentBalance: 500 },
  });
  // The whole register lives at /ledger (issue 24 item 1).
  await page.goto('/ledger');
  await settled(page);
  await expectBalances(page, '$500.00', '$500.00');
}

async function expectBalances(page: Page, current: string, pending: string): Promise<void> {
  await expect(page.getByTestId('current-balance')).toHaveText(current);
  await expect(page.getByTestId('pending-balance')).toHaveText(pending);
}

function rentRow(page: Page): Locator {
  return ledgerTable(page).getByRole('row', { name: /Rent/ });
}

/** The row's status in words (the symbol before it is hidden from screen readers). */
function badge(row: Locator): Locator {
  return row.locator('.ledger-status');
}

/**
 * Holds back the answers to the page's row updates: each request goes on to the real server at
 * once, and its real answer (or the failure to get one) reaches the page only when the test lets it.
 */
async function holdBackUpdates(page: Page) {
  const held: { route: Route; answer: Promise<Awaited<ReturnType<Route['fetch']>>> }[] = [];
  const arrived: (() => void)[] = [];
  // Awaited: a Pay clicked before the browser intercepts the path would reach the page unheld.
  await page.route(UPDATE_TRANSACTION, (route) => {
    held.push({ route, answer: route.fetch() });
    arrived.shift()?.();
  });
  return {
    /** Waits for the next held request, then hands the page the server's own answer. */
    async release(): Promise<void> {
      if (held.length === 0) await new Promise<void>((resolve) => arrived.push(resolve));
      const next = held.shift();
      if (next === undefined) throw new Error('no update request to release');
      await next.route.fulfill({ response: await next.answer });
    },
    count: () => held.length,
  };
}

test('Pay paints the badge and the Pending Balance at once, while the server is still answering', async ({ page }) => {
  await openSeededLedger(page, 'olive');
  const updates = await holdBackUpdates(page);
  const reloads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(LEDGER_PATHS.retrieve)) reloads.push(request.url());
  });
  await expect(badge(rentRow(page))).toHaveText(/Unpaid$/);

  await rentRow(page).getByRole('button', { name: 'Pay Rent' }).click();

  // The server has the request; its answer is held back, and the page already shows the Pay.
  await expect.poll(() => updates.count()).toBe(1);
  await expect(badge(rentRow(page))).toHaveText(/Paid$/);
  await expect(badge(rentRow(page))).not.toHaveText(/Unpaid/);
  await expectBalances(page, '$500.00', '-$700.00');
  await expect(rentRow(page).getByRole('button', { name: 'Pay Rent' })).toBeDisabled();
  await expect(rentRow(page).getByRole('button', { name: 'Clear Rent' })).toBeEnabled();
  await expect(rentRow(page)).toContainText('$800.00');

  const answered = page.waitForResponse((response) => response.url().includes(LEDGER_PATHS.updateTransaction));
  await updates.release();
  const answer = await answered;
  expect(answer.status()).toBe(200);
  // The changes answer applied to the ledger as it was before the paint: no whole reload.
  expect(new URL(answer.url()).searchParams.get('answer')).toBe('changes');
  await settled(page);
  await expect(badge(rentRow(page))).toHaveText(/Paid$/);
  await expectBalances(page, '$500.00', '-$700.00');
  expect(reloads).toEqual([]);

  // What the server now holds is what was painted.
  await page.reload();
  await settled(page);
  await expect(badge(rentRow(page))).toHaveText(/Paid$/);
  await expectBalances(page, '$500.00', '-$700.00');
});

test('a Pay the server refuses (the row was cleared elsewhere) puts the row back and says why', async ({ page }) => {
  await openSeededLedger(page, 'percy');
  const rentId = await page.evaluate(async (paths) => {
    const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
    const { access_token: token } = JSON.parse(sessionStorage.getItem(key ?? '') ?? '{}') as { access_token?: string };
    const headers = { authorization: `Bearer ${token ?? ''}`, 'content-type': 'application/json' };
    // Another device clears the rent: this page still shows it unpaid.
    const ledger = (await (await fetch(paths.retrieve, { headers })).json()) as {
      ledger: { transactions: { id: string; date: string; name: string; type: string; amount: number }[] };
    };
    const rent = ledger.ledger.transactions.find((row) => row.name === 'Rent');
    if (rent === undefined) throw new Error('no Rent row');
    const { id, date, name, type, amount } = rent;
    const cleared = await fetch(paths.updateTransaction, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ id, date, name, type, amount, status: 'CLEARED' }),
    });
    if (!cleared.ok) throw new Error(`clearing elsewhere answered ${cleared.status}`);
    return id;
  }, LEDGER_PATHS);
  expect(rentId).not.toBe('');
  const updates = await holdBackUpdates(page);
  await expect(badge(rentRow(page))).toHaveText(/Unpaid$/);

  await rentRow(page).getByRole('button', { name: 'Pay Rent' }).click();
  await expect.poll(() => updates.count()).toBe(1);
  await expect(badge(rentRow(page))).toHaveText(/Paid$/);
  await expectBalances(page, '$500.00', '-$700.00');

  const answered = page.waitForResponse((response) => response.url().includes(LEDGER_PATHS.updateTransaction));
  await updates.release();
  expect((await answered).status()).toBe(409);

  const whoops = page.getByRole('dialog', { name: 'Whoops!' });
  await expect(whoops).toContainText('Failed to update transaction!');
  await expect(whoops).toContainText('A CLEARED transaction cannot become PAID');
  await expect(badge(rentRow(page))).toHaveText(/Unpaid$/);
  await expectBalances(page, '$500.00', '$500.00');
  await expect(rentRow(page).getByRole('button', { name: 'Pay Rent' })).toBeEnabled();
});

test('a Pay that never reaches the server puts the row back and says so', async ({ page }) => {
  await openSeededLedger(page, 'quinn');
  await page.route(UPDATE_TRANSACTION, (route) => route.abort('connectionfailed'), { times: 1 });

  await rentRow(page).getByRole('button', { name: 'Pay Rent' }).click();

  const whoops = page.getByRole('dialog', { name: 'Whoops!' });
  await expect(whoops).toContainText('Failed to update transaction!');
  await expect(whoops).toContainText('The server could not be reached');
  await expect(badge(rentRow(page))).toHaveText(/Unpaid$/);
  await expectBalances(page, '$500.00', '$500.00');
});
