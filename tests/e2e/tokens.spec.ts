/**
 * Where the page keeps its tokens (PRODUCT.md section 1; RFC 9700 and the OAuth browser-based apps
 * BCP): after sign-in the access token is in sessionStorage and nowhere else a script, another tab
 * or a log could pick it up: not in localStorage, not in a cookie, not in any address the page
 * shows or requests. The one-time code leaves the address bar as soon as it has been exchanged.
 */
import { expect, type Page, type Request, test } from '@playwright/test';
import { addExpense, expectView, openView } from './dashboard-actions.js';
import { signInAs } from './sign-in.js';

interface HeldTokens {
  readonly accessToken: string;
  readonly idToken: string;
  readonly refreshToken: string | undefined;
}

/** The tokens oidc-client-ts holds for the signed-in user, read from sessionStorage. */
async function heldTokens(page: Page): Promise<HeldTokens> {
  const stored = await page.evaluate(() => {
    const key = Object.keys(window.sessionStorage).find((name) => name.startsWith('oidc.user:'));
    return key ? window.sessionStorage.getItem(key) : null;
  });
  expect(stored, 'the signed-in user is kept in sessionStorage').not.toBeNull();
  const user = JSON.parse(stored ?? '{}') as { access_token?: unknown; id_token?: unknown; refresh_token?: unknown };
  if (typeof user.access_token !== 'string' || typeof user.id_token !== 'string') throw new Error('no tokens in sessionStorage');
  return {
    accessToken: user.access_token,
    idToken: user.id_token,
    refreshToken: typeof user.refresh_token === 'string' ? user.refresh_token : undefined,
  };
}

const TOKEN_WORDS = /access_token|id_token|refresh_token/;
// A JWT: three base64url parts, the first an encoded JSON header ("eyJ" is '{"').
const JWT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;

async function expectNoTokensOutsideSessionStorage(page: Page, tokens: HeldTokens): Promise<void> {
  const secrets = [tokens.accessToken, tokens.idToken, ...(tokens.refreshToken ? [tokens.refreshToken] : [])];

  const local = await page.evaluate(() => Object.entries(window.localStorage).map(([key, value]) => `${key}=${value}`));
  for (const entry of local) {
    expect(entry, 'localStorage holds a token').not.toMatch(JWT);
    expect(entry, 'localStorage holds a token').not.toMatch(TOKEN_WORDS);
    for (const secret of secrets) expect(entry.includes(secret), 'localStorage holds a token').toBe(false);
  }

  const address = page.url();
  expect(address).not.toMatch(/[?&#](code|state|session_state|iss)=/);
  expect(address).not.toMatch(TOKEN_WORDS);
  expect(address).not.toMatch(JWT);

  const cookies = await page.context().cookies();
  for (const cookie of cookies) {
    for (const secret of secrets) expect(cookie.value.includes(secret), `cookie ${cookie.name} holds a token`).toBe(false);
  }
}

test('after sign-in the tokens are in sessionStorage only: not in localStorage, cookies or any address', async ({ page }) => {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));

  await page.goto('/');
  await signInAs(page, 'token-keeper');
  await expectView(page, 'Home');
  await expect(page).toHaveURL(/\/$/);
  const tokens = await heldTokens(page);
  expect(tokens.accessToken).toMatch(JWT);
  await expectNoTokensOutsideSessionStorage(page, tokens);

  // Use the page (a write and a reload), so the check covers an app at work, not just a fresh one.
  await openView(page, 'Plan');
  await addExpense(page, { name: 'Rent', type: 'Housing', day: '1', amount: '900' });
  await page.reload();
  await expectView(page, 'Plan');
  await expect(page.getByText('Total Monthly Expenses: $900.00')).toBeVisible();
  await expectNoTokensOutsideSessionStorage(page, await heldTokens(page));

  // The code came back once, on the callback, and went into the token request's body, not an address.
  const callbacks = requests.filter((request) => new URL(request.url()).pathname === '/login/callback');
  expect(callbacks.length).toBeGreaterThan(0);
  for (const request of requests) {
    const url = request.url();
    expect(url, 'a token in a requested address').not.toMatch(JWT);
    expect(url, 'a token in a requested address').not.toMatch(TOKEN_WORDS);
    if (!callbacks.includes(request)) expect(url, 'the one-time code outside the callback').not.toMatch(/[?&#]code=/);
  }
  // The API gets the token in the Authorization header, the one place it belongs.
  const apiCalls = requests.filter((request) => new URL(request.url()).pathname.startsWith('/api/'));
  expect(apiCalls.length).toBeGreaterThan(0);
  for (const request of apiCalls) expect(await request.headerValue('authorization')).toMatch(/^Bearer eyJ/);
});
