/**
 * Issue 24 item 2 in a real browser against the real server: after each write that can be undone,
 * the page says what happened with a button "Undo", and Undo puts back exactly what was there
 * before (compared as the API answers it: rows, statuses, balances, schedules). A write that can no
 * longer be undone says why.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { seedThroughApi } from './api-seed.js';
import { addDeposit, addExpense, addTransaction, expectView, openView, settled } from './dashboard-actions.js';
import { depositsTable, expensesTable, ledgerRows } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';
import { sampleStatementIn2055 } from './sample-statement.js';

const STATEMENT = sampleStatementIn2055();

/** What the API answers now for `path`, read with the page's own token. */
async function apiState(page: Page, path: string): Promise<unknown> {
  return page.evaluate(async (address) => {
    const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
    const user = JSON.parse(sessionStorage.getItem(key ?? '') ?? '{}') as { access_token?: string };
    const response = await fetch(address, { headers: { authorization: `Bearer ${user.access_token ?? ''}` } });
    return response.json();
  }, path);
}

/** The whole state a write can change: the ledger with its rows and balances, the deposits and the expenses. */
async function everything(page: Page): Promise<unknown[]> {
  return Promise.all([
    apiState(page, LEDGER_PATHS.retrieve),
    apiState(page, DEPOSITS_PATHS.retrieve),
    apiState(page, EXPENSES_PATHS.retrieve),
  ]);
}

function undoStatus(page: Page): Locator {
  return page.locator('.undo-region');
}

/**
 * The page offers to undo the write it names: the offer comes with the server's answer, so the write
 * is stored by then. (The text alone could still be the last result's, "Undone: Paid Rent.", which
 * contains "Paid Rent." while a second Pay is on its way.)
 */
async function expectOffer(page: Page, message: string): Promise<void> {
  await expect(undoStatus(page).locator('.undo-status__text')).toHaveText(message);
  await expect(undoStatus(page).getByRole('button', { name: 'Undo' })).toBeVisible();
}

/** The page says what happened; Undo puts everything back as it was, and the page shows it. */
async function undoAndExpect(page: Page, message: string, before: unknown[]): Promise<void> {
  await expectOffer(page, message);
  await undoStatus(page).getByRole('button', { name: 'Undo' }).click();
  await expect(undoStatus(page)).toContainText(`Undone: ${message}`);
  await settled(page);
  expect(await everything(page)).toEqual(before);
}

async function signInWithLedger(page: Page, userName: string): Promise<void> {
  await openSignedIn(page, userName);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // The OFX sample's ledger (tests/fixtures/statements/README): Acme every other Friday, Rent and Phone.
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'Friday', amount: 1000, startDate: '2055-01-01', frequency: 'BW' }],
    expenses: [
      { name: 'Rent', type: 'Bill', day: 1, amount: 1200 },
      { name: 'Phone', type: 'Bill', day: 15, amount: 50.55 },
    ],
    ledger: { startDate: '2055-01-01', endDate: '2055-01-31', currentBalance: 500 },
  });
}

/** A day in the machine's local time, `days` from today, as the server's "today" reads it. */
function localDay(days = 0): string {
  const day = new Date();
  day.setDate(day.getDate() + days);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

function row(page: Page, name: string): Locator {
  return ledgerRows(page).filter({ has: page.locator('.ledger-row__name', { hasText: new RegExp(`^${name}$`) }) });
}

test('undoes every kind of ledger write through the page: Pay, Clear, Edit, Add, Delete, Extend and an import', async ({ page }) => {
  await signInWithLedger(page, 'ursula-undo-ledger');
  await page.goto('/ledger');
  await expectView(page, 'Ledger');
  const first = await everything(page);

  await row(page, 'Rent').getByRole('button', { name: 'Pay Rent' }).click();
  await expect(row(page, 'Rent').locator('.ledger-status')).toHaveText(/Paid/);
  await undoAndExpect(page, 'Paid Rent.', first);
  await expect(row(page, 'Rent').locator('.ledger-status')).toHaveText(/Unpaid/);

  await row(page, 'Rent').getByRole('button', { name: 'Pay Rent' }).click();
  await expectOffer(page, 'Paid Rent.');
  const paid = await everything(page);
  await row(page, 'Rent').getByRole('button', { name: 'Clear Rent' }).click();
  await expect(row(page, 'Rent').locator('.ledger-status')).toHaveText(/Cleared/);
  await undoAndExpect(page, 'Cleared Rent.', paid);
  await expect(row(page, 'Rent').locator('.ledger-status')).toHaveText(/Paid/);

  await row(page, 'Phone').getByRole('button', { name: 'Edit Phone' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Transaction' });
  await edit.getByLabel('Amount').fill('75');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await undoAndExpect(page, 'Changed Phone.', paid);

  await addTransaction(page, { date: '2055-01-20', name: 'Starbucks', type: 'D', amount: '5.25' });
  await expect(row(page, 'Starbucks')).toHaveCount(1);
  await undoAndExpect(page, 'Added Starbucks.', paid);
  await expect(row(page, 'Starbucks')).toHaveCount(0);

  // A generated row's deletion skips its occurrence; undone, the occurrence is back too.
  await row(page, 'Phone').getByRole('button', { name: 'Delete Phone' }).click();
  await page.getByRole('dialog', { name: 'Delete Transaction' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'Phone')).toHaveCount(0);
  await undoAndExpect(page, 'Deleted Phone.', paid);
  await expect(row(page, 'Phone')).toHaveCount(1);

  await page.getByRole('button', { name: 'Extend', exact: true }).click();
  const extend = page.getByRole('dialog', { name: 'Extend Ledger' });
  await extend.getByLabel('End Date').fill('2055-03-31');
  await extend.getByRole('button', { name: 'Extend', exact: true }).click();
  await expect(extend).toBeHidden();
  await undoAndExpect(page, 'Extended the ledger to Wed, Mar 31, 2055.', paid);
  await expect(page.getByText('5 transactions.')).toBeVisible();

  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Statement' });
  await dialog.getByLabel('Statement file').setInputFiles(STATEMENT);
  await expect(dialog.getByRole('region', { name: 'Preview' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('9 transactions.')).toBeVisible();
  await undoAndExpect(page, 'Imported 8 statement rows.', paid);
  await expect(page.getByText('5 transactions.')).toBeVisible();

  // The same file imports again as new: its statement records went with the undo.
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await dialog.getByLabel('Statement file').setInputFiles(STATEMENT);
  await expect(dialog.getByRole('region', { name: 'Preview' })).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: /^What happens to / })).toHaveCount(8);
});

test('undoes the add, change and delete of a deposit and of an expense, with the rows they projected', async ({ page }) => {
  await signInWithLedger(page, 'ursula-undo-plan');
  await page.goto('/plan');
  await expectView(page, 'Plan');
  const first = await everything(page);

  await addDeposit(page, { name: 'Side gig', type: 'Check', amount: '250', startDate: '2055-01-08', frequency: 'BW' });
  await expect(depositsTable(page).getByText('Side gig')).toBeVisible();
  await undoAndExpect(page, 'Added Side gig.', first);
  await expect(depositsTable(page).getByText('Side gig')).toHaveCount(0);

  await depositsTable(page).getByRole('button', { name: 'Edit Acme' }).click();
  const editDeposit = page.getByRole('dialog', { name: 'Edit Deposit' });
  await editDeposit.getByLabel('Amount').fill('1100');
  await editDeposit.getByRole('button', { name: 'Save' }).click();
  await expect(editDeposit).toBeHidden();
  await undoAndExpect(page, 'Changed Acme.', first);

  await depositsTable(page).getByRole('button', { name: 'Delete Acme' }).click();
  await page.getByRole('dialog', { name: 'Delete Deposit' }).getByRole('button', { name: 'Delete' }).click();
  await expect(depositsTable(page).getByText('Acme')).toHaveCount(0);
  await undoAndExpect(page, 'Deleted Acme.', first);
  await expect(depositsTable(page).getByText('Acme')).toBeVisible();

  await addExpense(page, { name: 'Gym', type: 'Health', day: '10', amount: '30' });
  await undoAndExpect(page, 'Added Gym.', first);
  await expect(expensesTable(page).getByText('Gym')).toHaveCount(0);

  await expensesTable(page).getByRole('button', { name: 'Edit Rent' }).click();
  const editExpense = page.getByRole('dialog', { name: 'Edit Expense' });
  await editExpense.getByLabel('Amount').fill('1250');
  await editExpense.getByRole('button', { name: 'Save' }).click();
  await expect(editExpense).toBeHidden();
  await undoAndExpect(page, 'Changed Rent.', first);

  await expensesTable(page).getByRole('button', { name: 'Delete Rent' }).click();
  await page.getByRole('dialog', { name: 'Delete Expense' }).getByRole('button', { name: 'Delete' }).click();
  await undoAndExpect(page, 'Deleted Rent.', first);
  await expect(expensesTable(page).getByText('Rent')).toBeVisible();

  // The ledger shows the rows the schedules projected, as before any of it.
  await openView(page, 'Ledger');
  await expect(page.getByText('5 transactions.')).toBeVisible();
});

test('undoes a Pay on Home; an undo after a later change to the same row says why and changes nothing', async ({ page }) => {
  await openSignedIn(page, 'ursula-undo-home');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // A ledger from today (the server's clock on this machine), so Rent is among Home's next 14 days.
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'N/A', amount: 1500, startDate: localDay(), frequency: 'EOM' }],
    expenses: [{ name: 'Rent', type: 'Housing', day: new Date().getDate(), amount: 1200 }],
    ledger: { startDate: localDay(), endDate: localDay(60), currentBalance: 400 },
  });
  await page.goto('/');
  await expectView(page, 'Home');
  const first = await everything(page);
  const next = page.getByRole('list', { name: 'Next 14 days' });

  await next.getByRole('button', { name: 'Pay Rent' }).click();
  await expect(next.getByRole('listitem').filter({ hasText: 'Rent' })).toContainText('Paid');
  // Reachable by keyboard, and held while it has the focus.
  await undoStatus(page).getByRole('button', { name: 'Undo' }).focus();
  await undoAndExpect(page, 'Paid Rent.', first);
  await expect(next.getByRole('listitem').filter({ hasText: 'Rent' })).toContainText('Unpaid');

  // Paid here, then cleared in another tab: this undo would put back a row that changed since.
  await next.getByRole('button', { name: 'Pay Rent' }).click();
  await expectOffer(page, 'Paid Rent.');
  // Held by the focus while another tab clears the row (the offer goes after 10 s otherwise).
  await undoStatus(page).getByRole('button', { name: 'Undo' }).focus();
  await clearFromAnotherTab(page, 'Rent');
  const changed = await everything(page);
  await undoStatus(page).getByRole('button', { name: 'Undo' }).click();
  await expect(undoStatus(page)).toContainText('This can no longer be undone: something changed since.');
  expect(await everything(page)).toEqual(changed);
});

/** What another tab does: the row sent back whole with its status CLEARED, through the API. */
async function clearFromAnotherTab(page: Page, name: string): Promise<void> {
  const info = (await apiState(page, LEDGER_PATHS.retrieve)) as { ledger: { transactions: { name: string }[] } };
  const target = info.ledger.transactions.find((each) => each.name === name);
  if (!target) throw new Error(`no ${name} row`);
  await page.evaluate(
    async ({ address, body }) => {
      const key = Object.keys(sessionStorage).find((entry) => entry.startsWith('oidc.user:'));
      const user = JSON.parse(sessionStorage.getItem(key ?? '') ?? '{}') as { access_token?: string };
      const response = await fetch(address, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${user.access_token ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`PATCH answered ${response.status}`);
    },
    { address: LEDGER_PATHS.updateTransaction, body: { ...target, status: 'CLEARED' } },
  );
}
