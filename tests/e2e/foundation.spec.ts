import { expect, test } from '@playwright/test';
import { addDeposit, expectView, openView } from './dashboard-actions.js';
import { openSignedIn, signInAs } from './sign-in.js';

test('a new user signs in through the development provider and lands on the address first asked for', async ({ page }) => {
  await page.goto('/anything?x=1');
  await expect(page).toHaveURL(/\/dev-sign-in\//);
  await signInAs(page, 'alice');

  await expect(page).toHaveURL(/\/anything\?x=1$/);
  await expect(page.getByText('Signed in as alice')).toBeVisible();
  // The access token stays out of localStorage and out of the address bar.
  expect(page.url()).not.toContain('code=');
  const localStorageKeys = await page.evaluate(() => Object.keys(window.localStorage));
  expect(localStorageKeys).toEqual([]);
});

test('each view shows its sections open with their empty states', async ({ page }) => {
  await openSignedIn(page, 'bob');
  await expect(page).toHaveURL(/\/$/);

  // Home: the Summary and the next 14 days; with nothing planned, it says so and points to Plan.
  await expectView(page, 'Home');
  await expect(page.getByText('Please add deposits and/or expenses!')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Plan', exact: true })).toHaveAttribute('href', '/plan');
  await expect(page.getByText(/^No ledger yet\./)).toBeVisible();

  // Each heading toggles its section.
  await page.getByRole('button', { name: 'Summary', exact: true }).click();
  await expect(page.getByText('Please add deposits and/or expenses!')).toBeHidden();
  await page.getByRole('button', { name: 'Summary', exact: true }).click();
  await expect(page.getByText('Please add deposits and/or expenses!')).toBeVisible();

  await openView(page, 'Ledger');
  await expect(page.getByText(/^No ledger yet\./)).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Ledger' })).toBeVisible();

  await openView(page, 'Plan');
  await expect(page.getByText('No deposits yet. Add your pay to see what is left over each month.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Expense' })).toBeVisible();
  await page.getByRole('button', { name: 'Expenses', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Add Expense' })).toBeHidden();
  await page.getByRole('button', { name: 'Expenses', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Add Expense' })).toBeVisible();
});

test('two user names are two different users', async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  const carol = await first.newPage();
  const dave = await second.newPage();

  await openSignedIn(carol, 'carol');
  await openSignedIn(dave, 'dave');

  await expect(carol.getByText('Signed in as carol')).toBeVisible();
  await expect(dave.getByText('Signed in as dave')).toBeVisible();
  const subjects = await Promise.all(
    [carol, dave].map((page) =>
      page.evaluate(async () => {
        const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
        const user = JSON.parse(sessionStorage.getItem(key ?? '') ?? '{}') as { access_token?: string };
        const response = await fetch('/api/me', { headers: { authorization: `Bearer ${user.access_token}` } });
        return ((await response.json()) as { subject: string }).subject;
      }),
    ),
  );
  expect(subjects).toEqual(['carol', 'dave']);

  // Separate data: what carol adds, dave never sees.
  await openView(carol, 'Plan');
  await addDeposit(carol, { name: 'Carol Salary', type: 'Check', amount: '2000', startDate: '2054-11-30', frequency: 'EOM' });
  await expect(carol.getByText('Total Monthly Deposits: $2,000.00')).toBeVisible();
  await openView(dave, 'Plan');
  await dave.reload();
  await expectView(dave, 'Plan');
  await expect(dave.getByText('Carol Salary')).toHaveCount(0);
  await expect(dave.getByRole('button', { name: 'Add Deposit' })).toBeVisible();
  await first.close();
  await second.close();
});
