import { expect, type Page, test } from '@playwright/test';
import { decodeJwt } from 'jose';
import { APP_CONFIG_PATH, appConfigSchema } from '../../src/contract/app-config.js';
import { storedUserKey } from '../../src/web/auth/sign-in-settings.js';
import { signInThroughDevProvider } from '../support/dev-sign-in.js';

/** Signs in through the embedded development provider's page, as a person would. */
export async function signInAs(page: Page, userName: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Development sign-in' })).toBeVisible();
  await expect(page.getByText('For development only.')).toBeVisible();
  await page.getByLabel('User name').fill(userName);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Opens `path` as a returning tab of `userName` would: the tokens come from the development provider
 * through the same authorization-code flow over HTTP (tests/support/dev-sign-in.ts), and are kept
 * where oidc-client-ts keeps them, with the provider's session cookies in the browser. For the tests
 * of everything but signing in: the provider's page costs seconds a test, and the sign-in tests
 * (foundation, sign-in-session, tokens, the deep link in views) still go through it with signInAs.
 */
export async function openSignedIn(page: Page, userName: string, path = '/'): Promise<void> {
  const origin = test.info().project.use.baseURL;
  if (!origin) throw new Error('the Playwright project has no baseURL');
  const config = appConfigSchema.parse(await (await fetch(`${origin}${APP_CONFIG_PATH}`)).json());
  const signedIn = await signInThroughDevProvider(origin, userName, config.oidc.clientId);
  // What oidc-client-ts's User stores (its toStorageString): the page and the library read this entry.
  const user = {
    id_token: signedIn.idToken,
    session_state: null,
    access_token: signedIn.accessToken,
    refresh_token: signedIn.refreshToken,
    token_type: 'Bearer',
    scope: 'openid profile',
    profile: decodeJwt(signedIn.idToken),
    expires_at: signedIn.expiresIn === undefined ? undefined : Math.floor(Date.now() / 1000) + signedIn.expiresIn,
  };
  const cookies = signedIn.cookies
    .split('; ')
    .filter((pair) => pair.includes('='))
    .map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: origin };
    });
  if (cookies.length > 0) await page.context().addCookies(cookies);
  // A same-origin document that runs no page code, to write the tab's sessionStorage before the page loads.
  await page.goto(APP_CONFIG_PATH);
  await page.evaluate(([key, value]) => sessionStorage.setItem(key, value), [
    storedUserKey({ authority: config.oidc.issuer, clientId: config.oidc.clientId }),
    JSON.stringify(user),
  ] as const);
  await page.goto(path);
}
