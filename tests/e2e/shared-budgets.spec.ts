/**
 * Issue 38 end to end, two people in two browsers against the real server: Alex makes "Household",
 * adds to its plan, and invites an editor; Sam opens the link, sees the budget's name, who invited
 * and the role before anything of it, joins, and sees Household's plan. Alex removes Sam, and Sam's
 * page says so on its next call. (Changes seen live, within 2 s, are another piece of work.)
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { addDeposit, expectView, openView, settled } from './dashboard-actions.js';
import { depositsTable } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';

/** The header's budget button; the list behind it loads once the first view has painted. */
function budgetButton(page: Page, name: string) {
  return page.getByRole('button', { name: `Budget: ${name}` });
}

/** Serious and critical axe violations on the page as it is now, by rule and element. */
async function blockingViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id} ${node.target.join(' ')}`));
}

async function openMembers(page: Page) {
  await budgetButton(page, 'Household').click();
  await page.getByRole('button', { name: 'Members' }).click();
  const dialog = page.getByRole('dialog', { name: 'Members' });
  await expect(dialog.getByRole('table')).toBeVisible();
  return dialog;
}

test('an owner invites, the invited person joins and sees the budget; removed, their page says so', async ({ browser }) => {
  const alexContext = await browser.newContext();
  const alex = await alexContext.newPage();
  await openSignedIn(alex, 'alex-household');
  await expectView(alex, 'Home');

  // A budget to share, opened at once; its address names it.
  await budgetButton(alex, 'Personal').click();
  await alex.getByRole('button', { name: 'New budget' }).click();
  const creating = alex.getByRole('dialog', { name: 'New Budget' });
  await creating.getByLabel('Name').fill('Household');
  await creating.getByRole('button', { name: 'Create' }).click();
  await expect(creating).toBeHidden();
  await expect(budgetButton(alex, 'Household')).toBeVisible();
  await expect(alex).toHaveURL(/\?budget=[^&]+$/);
  const household = new URL(alex.url()).searchParams.get('budget');

  await openView(alex, 'Plan');
  await expect(alex).toHaveURL(`/plan?budget=${household}`);
  await addDeposit(alex, { name: 'Joint Pay', type: 'Direct Deposit', amount: '1500', startDate: '2031-01-31', frequency: 'EOM' });
  await expect(depositsTable(alex).getByRole('cell', { name: 'Joint Pay' })).toBeVisible();

  let members = await openMembers(alex);
  await members.getByLabel('Role', { exact: true }).selectOption('EDITOR');
  await members.getByRole('button', { name: 'Create invitation' }).click();
  const link = new URL(await members.getByRole('textbox', { name: 'Invitation link' }).inputValue());
  expect(link.pathname).toBe('/join');
  expect(await blockingViolations(alex)).toEqual([]);
  await members.getByRole('button', { name: 'Done' }).click();
  await expect(members).toBeHidden();

  // Sam, in a browser of their own, opens the link signed in.
  const samContext = await browser.newContext();
  const sam = await samContext.newPage();
  await openSignedIn(sam, 'sam-household', `/join${link.hash}`);
  // Who invited, by the name the inviter's access token gave (the development provider's: the name signed in with).
  await expect(sam.getByText('alex-household invites you to join Household as editor.', { exact: true })).toBeVisible();
  await expect(sam.getByRole('definition').filter({ hasText: 'Editor' })).toBeVisible();
  await expect(sam.getByRole('button', { name: 'No thanks' })).toBeVisible();
  // The token left the address once read; nothing of the budget is on the page before Join.
  expect(new URL(sam.url()).hash).toBe('');
  await expect(sam.getByText('Joint Pay')).toHaveCount(0);
  expect(await blockingViolations(sam)).toEqual([]);

  await sam.getByRole('button', { name: 'Join' }).click();
  await expectView(sam, 'Home');
  await expect(sam).toHaveURL(`/?budget=${household}`);
  await expect(budgetButton(sam, 'Household')).toBeVisible();
  await openView(sam, 'Plan');
  await expect(depositsTable(sam).getByRole('cell', { name: 'Joint Pay' })).toBeVisible();

  // Alex sees Sam among the members (the one who is not "you"), and removes them.
  members = await openMembers(alex);
  const memberRows = members.getByRole('row').filter({ has: alex.getByRole('cell') });
  await expect(memberRows).toHaveCount(2);
  await expect(memberRows.filter({ hasText: '(you)' })).toHaveCount(1);
  await members.getByRole('button', { name: /^Remove / }).click();
  await expect(memberRows).toHaveCount(1);
  await expect(members.getByRole('button', { name: /^Remove / })).toHaveCount(0);

  // Sam's page, on its next call for Household, says so, and offers their own budget.
  await sam.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Home', exact: true }).click();
  await expect(sam.getByText('You are no longer a member of Household.')).toBeVisible();
  await expect(sam.getByText('Joint Pay')).toHaveCount(0);
  expect(await blockingViolations(sam)).toEqual([]);
  await sam.getByRole('button', { name: 'Go to your own budget' }).click();
  await expectView(sam, 'Home');
  await expect(sam).toHaveURL('/');
  await settled(sam);
  await expect(budgetButton(sam, 'Personal')).toBeVisible();

  await alexContext.close();
  await samContext.close();
});
