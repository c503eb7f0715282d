/**
 * axe (every rule it ships, WCAG and best practice) on each of the signed-in page's three views
 * (Home, Ledger and Plan) with data in every section, with each dialog open in turn, and with the
 * undo message shown: no serious or critical violation anywhere. Every state is scanned before the
 * test judges, so one run lists every violation, not just the first.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { addDeposit, addExpense, createLedger, expectView, openView, settled, viewLink } from './dashboard-actions.js';
import { depositsTable, expensesTable, ledgerRows, ledgerTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';
import { isoDay } from './machine-day.js';
import { asksFor } from './first-reads.js';

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

// The fades and slides a person sees by default (playwright.config.ts asks for less motion elsewhere):
// every dialog here is judged after they have run.
test.use({ contextOptions: { reducedMotion: 'no-preference' } });

/** One blocking violation on one element, and the states (dashboard, dialogs) it was seen in. */
interface Finding {
  readonly rule: string;
  readonly impact: string;
  readonly element: string;
  readonly html: string;
  readonly fix: string;
  readonly states: string[];
}

/** Scans the page as it is now and adds every serious or critical violation to the findings. */
async function scanInto(findings: Map<string, Finding>, page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  for (const violation of results.violations) {
    if (!BLOCKING_IMPACTS.has(violation.impact ?? '')) continue;
    for (const node of violation.nodes) {
      const element = node.target.join(' ');
      const key = `${violation.id} ${element}`;
      const finding = findings.get(key) ?? {
        rule: violation.id,
        impact: violation.impact ?? '',
        element,
        html: node.html.slice(0, 200),
        fix: (node.failureSummary ?? violation.help).replace(/\s+/g, ' '),
        states: [],
      };
      finding.states.push(state);
      findings.set(key, finding);
    }
  }
}

/** A dialog fully shown: Bootstrap fades it in, and axe must not judge colours mid-fade. */
async function shown(page: Page, name: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  // The pointer off every control: left where the opener was, it can come to rest over a button of
  // the dialog once it has slid in, whose hover transition then starts after the wait below (a CI run
  // read "Extend Instead" at 1.83:1, its colours halfway to the hover's).
  await page.mouse.move(0, 0);
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveClass(/\bshow\b/);
  await expect.poll(() => dialog.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
  // And every transition ended (the backdrop's fade, the dialog's slide): axe reads colours as drawn.
  await expect.poll(() => page.evaluate(() => document.getAnimations().filter((each) => each.playState === 'running').length)).toBe(0);
  return dialog;
}

async function closed(page: Page, dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.modal-backdrop')).toHaveCount(0);
}

/** The findings as one report: empty when axe found nothing serious or critical. */
function reportOf(findings: Map<string, Finding>): string[] {
  return [...findings.values()].map(
    (finding) =>
      `${finding.rule} (${finding.impact}) on ${finding.element} ${finding.html}\n    ${finding.fix}\n    seen in: ${finding.states.join('; ')}`,
  );
}

test('each view with data, and the dialogs of Home and Settings, has no serious or critical axe violation', async ({ page }) => {
  test.setTimeout(120_000);
  const findings = new Map<string, Finding>();
  const scan = (state: string) => scanInto(findings, page, state);

  await openSignedIn(page, 'axe-reader');
  await expectView(page, 'Home');
  await openView(page, 'Plan');
  await addDeposit(page, { name: 'Acme', type: 'Direct Deposit', amount: '1500', startDate: '2054-12-04', frequency: 'BW' });
  await addExpense(page, { name: 'Rent', type: 'Housing', day: '4', amount: '1200' });
  await addExpense(page, { name: 'Phone', type: 'Utilities', day: '20', amount: '80.50', endDate: '2055-12-31' });
  await openView(page, 'Ledger');
  await createLedger(page, { startDate: '2054-12-01', endDate: '2054-12-31', currentBalance: '500' });
  // Rows in every status, so their distinct styles are checked too.
  await ledgerTable(page).getByRole('row', { name: /Rent/ }).getByRole('button', { name: /^Pay/ }).click();
  await settled(page);
  await ledgerRows(page)
    .first()
    .getByRole('button', { name: /^Clear/ })
    .click();
  await settled(page);
  await expect(ledgerRows(page)).toHaveCount(4);
  await scan('Ledger');

  // Home: the summary, the warning, the chart and the next 14 days, and its own Add Transaction.
  await openView(page, 'Home');
  await expect(page.getByRole('figure', { name: 'Balance forecast' }).locator('canvas')).toBeVisible();
  await scan('Home');
  await page.getByRole('button', { name: 'Add Transaction' }).click();
  await shown(page, 'Add Transaction');
  await scan('Add Transaction (Home)');
  await closed(page, page.getByRole('dialog', { name: 'Add Transaction' }));

  // Settings (issue 26), from the top bar: the time zone, the rules and the channels.
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = await shown(page, 'Settings');
  await expect(settings.getByRole('heading', { name: 'Channels' })).toBeVisible();
  await scan('Settings');
  await closed(page, settings);

  // Plan: the deposits and expenses.
  await openView(page, 'Plan');
  await scan('Plan');

  const report = reportOf(findings);
  expect(report, `${report.length} serious or critical axe violations:\n${report.join('\n')}`).toEqual([]);
});

/**
 * The same plan and ledger as above, seeded through the API: the dialogs' scans are split over the
 * tests below, each well inside its time on a busy 2-core machine (about 2 s a scan).
 */
async function openWithData(page: Page, userName: string, path: '/plan' | '/ledger'): Promise<void> {
  await openSignedIn(page, userName);
  await expectView(page, 'Home');
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'Friday', amount: 1500, startDate: '2054-12-04', frequency: 'BW' }],
    expenses: [
      { name: 'Rent', type: 'Housing', day: 4, amount: 1200 },
      { name: 'Phone', type: 'Utilities', day: 20, amount: 80.5 },
    ],
    ledger: { startDate: '2054-12-01', endDate: '2054-12-31', currentBalance: 500 },
  });
  await page.goto(path);
  await expectView(page, path === '/plan' ? 'Plan' : 'Ledger');
  await settled(page);
}

test('every dialog of Plan has no serious or critical axe violation', async ({ page }) => {
  test.setTimeout(120_000);
  const findings = new Map<string, Finding>();
  const scan = (state: string) => scanInto(findings, page, state);
  await openWithData(page, 'axe-planner', '/plan');

  await page.getByRole('button', { name: 'Add Deposit' }).click();
  await shown(page, 'Add Deposit');
  await scan('Add Deposit');
  await closed(page, page.getByRole('dialog', { name: 'Add Deposit' }));

  await depositsTable(page).getByRole('button', { name: 'Edit Acme', exact: true }).click();
  await shown(page, 'Edit Deposit');
  await scan('Edit Deposit');
  await closed(page, page.getByRole('dialog', { name: 'Edit Deposit' }));

  await depositsTable(page).getByRole('button', { name: 'Delete Acme', exact: true }).click();
  await shown(page, 'Delete Deposit');
  await scan('Delete Deposit');
  await closed(page, page.getByRole('dialog', { name: 'Delete Deposit' }));

  // The add-expense dialog twice: fresh, and with every field marked wrong after a refused Add.
  await page.getByRole('button', { name: 'Add Expense' }).click();
  const addExpenseDialog = await shown(page, 'Add Expense');
  await scan('Add Expense');
  await addExpenseDialog.getByLabel('Day').fill('32');
  await addExpenseDialog.getByLabel('Amount').fill('1.234');
  await addExpenseDialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addExpenseDialog.getByText('Day must be a whole number from 1 to 31.')).toBeVisible();
  await scan('Add Expense with field errors');
  await closed(page, addExpenseDialog);

  await expensesTable(page).getByRole('button', { name: 'Edit Phone', exact: true }).click();
  await shown(page, 'Edit Expense');
  await scan('Edit Expense');
  await closed(page, page.getByRole('dialog', { name: 'Edit Expense' }));

  await expensesTable(page).getByRole('button', { name: 'Delete Phone', exact: true }).click();
  await shown(page, 'Delete Expense');
  await scan('Delete Expense');
  await closed(page, page.getByRole('dialog', { name: 'Delete Expense' }));

  await page.getByRole('button', { name: 'Sort', exact: true }).click();
  await shown(page, 'Sort Expenses');
  await scan('Sort Expenses');
  await closed(page, page.getByRole('dialog', { name: 'Sort Expenses' }));

  const report = reportOf(findings);
  expect(report, `${report.length} serious or critical axe violations:\n${report.join('\n')}`).toEqual([]);
});

test('every dialog of the Ledger, the Whoops! message and the compact ledger have no serious or critical axe violation', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const findings = new Map<string, Finding>();
  const scan = (state: string) => scanInto(findings, page, state);
  await openWithData(page, 'axe-ledger', '/ledger');

  await page.getByRole('button', { name: 'New Ledger' }).click();
  await shown(page, 'New Ledger');
  await scan('New Ledger (replacing the current one)');
  await closed(page, page.getByRole('dialog', { name: 'New Ledger' }));

  await page.getByRole('button', { name: 'Extend', exact: true }).click();
  await shown(page, 'Extend Ledger');
  await scan('Extend Ledger');
  await closed(page, page.getByRole('dialog', { name: 'Extend Ledger' }));

  await ledgerTable(page)
    .getByRole('row', { name: /Phone/ })
    .getByRole('button', { name: /^Delete/ })
    .click();
  await shown(page, 'Delete Transaction');
  await scan('Delete Transaction');
  await closed(page, page.getByRole('dialog', { name: 'Delete Transaction' }));

  // Add Transaction, also with the name suggestions open (a combobox and its listbox).
  await page.getByRole('button', { name: 'Add Transaction' }).click();
  const addTransaction = await shown(page, 'Add Transaction');
  await scan('Add Transaction');
  await addTransaction.getByLabel('Name').fill('sta');
  await expect(addTransaction.getByRole('option', { name: 'Starbucks' })).toBeVisible();
  await scan('Add Transaction with name suggestions');
  await closed(page, addTransaction);

  await ledgerTable(page).getByRole('row', { name: /Phone/ }).getByRole('button', { name: /^Edit/ }).click();
  await shown(page, 'Edit Transaction');
  await scan('Edit Transaction');
  await closed(page, page.getByRole('dialog', { name: 'Edit Transaction' }));

  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await shown(page, 'Filter By');
  await scan('Filter By');
  await closed(page, page.getByRole('dialog', { name: 'Filter By' }));

  // Whoops!: the network drops one ledger load.
  // The Ledger view asks for a window of it (?limit=..., decision 0053): any query string matches,
  // and the reload asks for it among its first reads, in one call (decision 0128).
  await page.route(
    (url) => asksFor(url, '/api/ledger/retrieve-ledger'),
    (route) => route.abort('connectionfailed'),
    { times: 1 },
  );
  await page.reload();
  await expect(page).toHaveURL(/\/ledger$/);
  const whoops = await shown(page, 'Whoops!');
  await expect(whoops).toContainText('Failed to get ledger!');
  await scan('Whoops!');
  await whoops.getByRole('button', { name: 'RETRY' }).click();
  await expect(whoops).toBeHidden();
  await settled(page);

  // Below 1100 px the ledger turns into compact rows: the other layout a person may get.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(page.getByRole('columnheader', { name: 'Debit' })).toHaveCount(0);
  await scan('Ledger, compact (1000 px)');

  const report = reportOf(findings);
  expect(report, `${report.length} serious or critical axe violations:\n${report.join('\n')}`).toEqual([]);
});

test('each view with the undo message shown has no serious or critical axe violation', async ({ page }) => {
  const findings = new Map<string, Finding>();
  await openSignedIn(page, 'axe-undoer');
  await expectView(page, 'Home');
  // Rent falls due today, so Home's next 14 days show it with its Pay button.
  await seedThroughApi(page, {
    deposits: [],
    expenses: [{ name: 'Rent', type: 'Housing', day: new Date().getDate(), amount: 1200 }],
    ledger: { startDate: isoDay(), endDate: isoDay(30), currentBalance: 2000 },
  });
  await page.reload();
  await expectView(page, 'Home');

  await page.getByRole('list', { name: 'Next 14 days' }).getByRole('button', { name: 'Pay Rent' }).click();
  const undoStatus = page.locator('.undo-status');
  await expect(undoStatus).toContainText('Paid Rent.');
  // Said through a live region, so screen readers read it.
  await expect(page.getByRole('status').filter({ hasText: 'Paid Rent.' })).toHaveCount(1);
  await expect(undoStatus.getByRole('button', { name: 'Undo' })).toBeVisible();

  for (const view of ['Home', 'Ledger', 'Plan'] as const) {
    // The pointer on the message keeps it on the screen while axe reads the view; the next view is
    // opened by keyboard, so the pointer never leaves the message (it would restart its countdown).
    await undoStatus.hover();
    if (view !== 'Home') {
      await viewLink(page, view).focus();
      await page.keyboard.press('Enter');
      await expectView(page, view);
    }
    await expect(undoStatus.getByRole('button', { name: 'Undo' })).toBeVisible();
    await scanInto(findings, page, `${view} with the undo message`);
    await expect(undoStatus).toContainText('Paid Rent.');
  }

  const report = reportOf(findings);
  expect(report, `${report.length} serious or critical axe violations:\n${report.join('\n')}`).toEqual([]);
});

/**
 * "Delete all my data" in the Your data menu (issue 33): its text against its background meets WCAG
 * AA (axe's color-contrast rule) as it rests, with the keyboard's focus on it, and under the pointer.
 * axe reads the colours as drawn, so each state waits for the button's transitions to end.
 */
test('the Your data menu\'s "Delete all my data" button meets AA contrast at rest, focused and hovered', async ({ page }) => {
  await openSignedIn(page, 'axe-deleter');
  await expectView(page, 'Home');
  const menuButton = page.getByRole('button', { name: 'Your data' });
  await menuButton.click();
  const deleteAll = page.getByRole('button', { name: 'Delete all my data' });
  await expect(deleteAll).toBeVisible();
  const menuId = await menuButton.getAttribute('aria-controls');
  expect(menuId).not.toBeNull();

  const settledColours = () =>
    expect
      .poll(() => deleteAll.evaluate((element) => element.getAnimations().filter((each) => each.playState === 'running').length))
      .toBe(0);
  const contrast = async (state: string) => {
    await settledColours();
    const results = await new AxeBuilder({ page }).include(`[id="${menuId}"]`).withRules(['color-contrast']).analyze();
    const onTheButton = results.violations.flatMap((violation) =>
      violation.nodes.filter((node) => node.html.includes('Delete all my data')).map((node) => node.failureSummary ?? violation.help),
    );
    // axe checked the button (it passed or failed), rather than skipping it as incomplete.
    const checked = [...results.passes, ...results.violations].some((rule) =>
      rule.nodes.some((node) => node.html.includes('Delete all my data')),
    );
    return { state, checked, onTheButton };
  };

  // At rest: the pointer away from the menu, nothing focused in it.
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const atRest = await contrast('at rest');

  // Focused from the keyboard: Tab from the item above it, so :focus-visible applies.
  await page.getByRole('button', { name: 'Restore from file' }).focus();
  await page.keyboard.press('Tab');
  await expect(deleteAll).toBeFocused();
  expect(await deleteAll.evaluate((element) => element.matches(':focus-visible'))).toBe(true);
  const focused = await contrast('focused');

  // Under the pointer, focus elsewhere.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await deleteAll.hover();
  expect(await deleteAll.evaluate((element) => element.matches(':hover'))).toBe(true);
  const hovered = await contrast('hovered');

  expect([atRest, focused, hovered]).toEqual([
    { state: 'at rest', checked: true, onTheButton: [] },
    { state: 'focused', checked: true, onTheButton: [] },
    { state: 'hovered', checked: true, onTheButton: [] },
  ]);
});
