import { expect, test } from '@playwright/test';
import { addDeposit, settled } from './dashboard-actions.js';
import { signInAs } from './sign-in.js';

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

test('the dashboard shows the four sections open with their empty states', async ({ page }) => {
  await page.goto('/');
  await signInAs(page, 'bob');
  await expect(page).toHaveURL(/\/$/);

  for (const name of ['Summary', 'Deposits', 'Expenses', 'Ledger']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveAttribute('aria-expanded', 'true');
  }
  await expect(page.getByText('Please add deposits and/or expenses!')).toBeVisible();

  // Each heading toggles its section.
  await page.getByRole('button', { name: 'Summary', exact: true }).click();
  await expect(page.getByText('Please add deposits and/or expenses!')).toBeHidden();
  await page.getByRole('button', { name: 'Summary', exact: true }).click();
  await expect(page.getByText('Please add deposits and/or expenses!')).toBeVisible();
});

test('two user names are two different users', async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  const carol = await first.newPage();
  const dave = await second.newPage();

  await carol.goto('/');
  await signInAs(carol, 'carol');
  await dave.goto('/');
  await signInAs(dave, 'dave');

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
  await settled(carol);
  await addDeposit(carol, { name: 'Carol Salary', type: 'Check', amount: '2000', startDate: '2026-11-30', frequency: 'EOM' });
  await expect(carol.getByText('Total Monthly Deposits: $2,000.00')).toBeVisible();
  await dave.reload();
  await settled(dave);
  await expect(dave.getByText('Carol Salary')).toHaveCount(0);
  await expect(dave.getByRole('button', { name: 'Add Deposit' })).toBeVisible();
  await first.close();
  await second.close();
});
