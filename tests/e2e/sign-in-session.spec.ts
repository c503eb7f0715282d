/**
 * The page's own reading of the signed-in user (decision 0065), through the real provider in a real
 * browser: a returning tab paints and calls the API with the token oidc-client-ts stored before the
 * library's chunk is fetched, which then loads after the first paint; a tab whose stored user has
 * expired, or whose entry cannot be read, signs in again through the provider and comes back to its
 * address with a new token, never calling the API with the old one; "Sign out" still ends the session
 * at the provider.
 */
import { expect, type Page, type Request, test } from '@playwright/test';
import { expectView } from './dashboard-actions.js';
import { signInAs } from './sign-in.js';

/** The sign-in library's chunk (src/web/auth/user-manager.ts and oidc-client-ts). */
const LIBRARY_CHUNK = /\/assets\/user-manager-[\w-]+\.js$/;

async function storedAccessToken(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
    const user = JSON.parse(sessionStorage.getItem(key ?? '') ?? '{}') as { access_token?: string };
    return user.access_token;
  });
}

function pathOf(request: Request): string {
  return new URL(request.url()).pathname;
}

test('a returning tab paints and calls the API with the stored token before the sign-in library loads, and the library loads after', async ({
  page,
}) => {
  await page.goto('/');
  await signInAs(page, 'returning-rita');
  await expectView(page, 'Home');
  const token = await storedAccessToken(page);

  // The tab leaves first, so no late call of the page before (its calls after paint) is counted.
  await page.goto('about:blank');
  const seen: Request[] = [];
  page.on('request', (request) => seen.push(request));
  await page.goto('/');
  await expectView(page, 'Home');
  await expect(page.getByText('Signed in as returning-rita')).toBeVisible();
  await expect.poll(() => seen.some((request) => LIBRARY_CHUNK.test(pathOf(request)))).toBe(true);

  const firstApiCall = seen.findIndex((request) => pathOf(request).startsWith('/api/'));
  const library = seen.findIndex((request) => LIBRARY_CHUNK.test(pathOf(request)));
  expect(firstApiCall).toBeGreaterThanOrEqual(0);
  expect(firstApiCall, 'the first API call goes before the library is fetched').toBeLessThan(library);
  expect(await seen[firstApiCall]?.headerValue('authorization')).toBe(`Bearer ${token}`);
  // No trip through the provider: the stored user was enough.
  expect(seen.filter((request) => pathOf(request).startsWith('/oidc/auth'))).toEqual([]);
});

const UNUSABLE_ENTRIES = [
  {
    name: 'an expired token',
    spoil: () => {
      const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:')) ?? '';
      const user = JSON.parse(sessionStorage.getItem(key) ?? '{}') as { expires_at?: number };
      sessionStorage.setItem(key, JSON.stringify({ ...user, expires_at: Math.floor(Date.now() / 1000) - 30 }));
    },
  },
  {
    name: 'an entry that is not JSON',
    spoil: () => {
      const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:')) ?? '';
      sessionStorage.setItem(key, '{"access_token": "eyJ');
    },
  },
];

for (const { name, spoil } of UNUSABLE_ENTRIES) {
  test(`a tab holding ${name} signs in again through the provider and comes back to its address`, async ({ page }) => {
    await page.goto('/');
    await signInAs(page, 'expired-eve');
    await expectView(page, 'Home');
    const oldToken = await storedAccessToken(page);
    await page.evaluate(spoil);
    // The tab leaves first (its session storage stays), so a late call of Home's, made after its paint
    // with the token it read before the spoiling, is not counted as the bookmark's.
    await page.goto('about:blank');

    const seen: Request[] = [];
    page.on('request', (request) => seen.push(request));
    await page.goto('/plan?from=bookmark');
    // The provider still has Eve's session: it sends her straight back, with a new code.
    await expect(page).toHaveURL(/\/plan\?from=bookmark$/);
    await expectView(page, 'Plan');
    await expect(page.getByText('Signed in as expired-eve')).toBeVisible();

    expect(seen.filter((request) => pathOf(request).startsWith('/oidc/auth')).length).toBeGreaterThan(0);
    const newToken = await storedAccessToken(page);
    expect(newToken).toMatch(/^eyJ/);
    expect(newToken).not.toBe(oldToken);
    const apiCalls = seen.filter((request) => pathOf(request).startsWith('/api/'));
    expect(apiCalls.length).toBeGreaterThan(0);
    for (const call of apiCalls) expect(await call.headerValue('authorization')).toBe(`Bearer ${newToken}`);
  });
}

test('"Sign out" forgets the tokens and ends the session at the provider', async ({ page }) => {
  await page.goto('/');
  await signInAs(page, 'leaving-lou');
  await expectView(page, 'Home');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/oidc\/session\/end/);
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((name) => name.startsWith('oidc.user:')))).toEqual([]);
});
