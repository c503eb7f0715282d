import { expect, type Page } from '@playwright/test';

/** Signs in through the embedded development provider's page, as a person would. */
export async function signInAs(page: Page, userName: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Development sign-in' })).toBeVisible();
  await expect(page.getByText('For development only.')).toBeVisible();
  await page.getByLabel('User name').fill(userName);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
