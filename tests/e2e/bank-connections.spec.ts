/**
 * Issue 37's "Connect" in a real browser against the real server and the repository's SimpleFIN
 * simulator (tests/support/simplefin-simulator.ts, started here on loopback; the server reaches it
 * because playwright.config.ts starts it with NOTIFY_ALLOW_PRIVATE_URLS=true): connect with the
 * simulator's Setup Token, see its second claim refused in the issue's words, link Checking, Sync
 * now and see the bank's rows in the ledger; after the simulator posts the pending purchase under a
 * new id, sync again and see one row for it, not two. axe finds nothing serious in the section.
 */
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { SETUP_TOKEN_ALREADY_USED } from '../../src/contract/bank-connections.js';
import { openDatabaseReader } from '../support/database-reader.js';
import { type SimplefinSimulator, startSimplefinSimulator } from '../support/simplefin-simulator.js';
import { seedThroughApi } from './api-seed.js';
import { expectView } from './dashboard-actions.js';
import { ledgerRows, ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';

let simulator: SimplefinSimulator;

test.beforeAll(async () => {
  simulator = await startSimplefinSimulator();
});

test.afterAll(async () => {
  await simulator.close();
});

/** 'YYYY-MM-DD', `days` from today (UTC): the ledger spans the simulator's history with room either side. */
function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function openBankConnections(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const section = dialog.locator('section').filter({ has: page.getByRole('heading', { name: 'Bank connections' }) });
  await expect(section.getByRole('button', { name: 'Connect with SimpleFIN' })).toBeVisible();
  return { dialog, section };
}

/**
 * A minute passes for Sync now's once-a-minute rule: the connection's last request to the bridge,
 * as the server stored it, moved back 61 s in the server's database (playwright.config.ts's
 * E2E_DATA_DIR), instead of this test waiting a minute of wall time. Only this test makes bank
 * connections there.
 */
async function aMinutePassesForSyncNow(): Promise<void> {
  const reader = openDatabaseReader(`sqlite:${path.join(process.env.E2E_DATA_DIR ?? '', 'leftover.sqlite')}`);
  try {
    const moved = await reader.db
      .updateTable('bank_connections')
      .set({ last_request_at: new Date(Date.now() - 61_000).toISOString() })
      .where('last_request_at', 'is not', null)
      .executeTakeFirst();
    expect(moved.numUpdatedRows).toBe(1n);
  } finally {
    await reader.close();
  }
}

async function ledgerRowsNamed(page: Page, name: string) {
  await page.goto('/ledger');
  await expectView(page, 'Ledger');
  await ledgerTable(page).scrollIntoViewIfNeeded();
  return ledgerRows(page).filter({ hasText: name });
}

test('connects with the simulator, links Checking, syncs its rows, and a pending that posts under a new id stays one row', async ({
  page,
}) => {
  simulator.scenario('pending-posted-new-id');
  await openSignedIn(page, 'bank-sync-e2e');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await seedThroughApi(page, {
    deposits: [],
    expenses: [],
    ledger: { startDate: dayFromToday(-30), endDate: dayFromToday(30), currentBalance: 0 },
  });
  await page.goto('/ledger');
  await expectView(page, 'Ledger');

  const token = simulator.setupToken();
  let { dialog, section } = await openBankConnections(page);
  await section.getByRole('textbox', { name: 'Setup Token' }).fill(token);
  await section.getByRole('button', { name: 'Connect with SimpleFIN' }).click();
  const connection = section.getByRole('listitem', { name: 'Simulated Bank' });
  await expect(connection.getByText('Connected', { exact: true })).toBeVisible();
  const checking = connection.getByRole('listitem', { name: 'Checking …king' });
  await expect(checking).toContainText('USD');

  // The same token again: the bridge answers 403, and nothing is stored.
  await section.getByRole('textbox', { name: 'Setup Token' }).fill(token);
  await section.getByRole('button', { name: 'Connect with SimpleFIN' }).click();
  await expect(section.getByText(SETUP_TOKEN_ALREADY_USED)).toBeVisible();
  await expect(section.getByRole('listitem', { name: 'Simulated Bank' })).toHaveCount(1);

  await checking.getByRole('combobox', { name: 'Link to' }).selectOption({ label: 'Checking' });
  await checking.getByRole('button', { name: 'Save link' }).click();
  await expect(checking.getByText('Linked to Checking.')).toBeVisible();

  await connection.getByRole('button', { name: 'Sync now' }).click();
  await expect(connection.getByRole('status').last()).toContainText('Synced:');
  await expect(connection.getByText(/^Last sync: .*\(Sync now\): \d+ added/)).toBeVisible();
  // A connection with its accounts, links and results, as axe reads it: nothing serious or critical.
  const scan = await new AxeBuilder({ page }).include('.modal.show').analyze();
  const blocking = scan.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(blocking).toEqual([]);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const coffee = await ledgerRowsNamed(page, 'CORNER COFFEE');
  await expect(coffee).toHaveCount(1);
  await expect(coffee).toContainText('Pending at the bank');
  await expect(ledgerRows(page).filter({ hasText: 'ACME PAYROLL' })).toHaveCount(1);

  // The bank posts the coffee under a new id. Sync now again at once is refused in the rule's words;
  // once a minute has passed it works.
  simulator.step();
  ({ dialog, section } = await openBankConnections(page));
  const again = section.getByRole('listitem', { name: 'Simulated Bank' });
  await again.getByRole('button', { name: 'Sync now' }).click();
  await expect(again.getByText('Sync now works once a minute for each connection. Try again in a minute.')).toBeVisible();
  await aMinutePassesForSyncNow();
  await again.getByRole('button', { name: 'Sync now' }).click();
  await expect(again.getByRole('status').last()).toContainText('Synced:');
  await expect(again.getByRole('status').last()).toContainText('1 replaced');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const posted = await ledgerRowsNamed(page, 'CORNER COFFEE');
  await expect(posted).toHaveCount(1);
  await expect(posted).not.toContainText('Pending at the bank');
});
