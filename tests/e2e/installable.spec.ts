/**
 * Issue 16, item 2 (decision 0026): the page links its manifest and registers a service worker
 * whose caches hold the page's own files and no API answer; offline, a failed load says plainly
 * that the browser is offline and the sections load again by themselves once it is back online.
 */
import { expect, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { expectView, settled } from './dashboard-actions.js';
import { openSignedIn } from './sign-in.js';

const OFFLINE = 'You are offline. Leftover will load your data again when you are back online.';

test('the manifest is linked, the service worker registers and caches no API answer, and offline the page says so', async ({
  page,
  context,
}) => {
  await openSignedIn(page, 'installable');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expectView(page, 'Home');
  await seedThroughApi(page, {
    deposits: [],
    expenses: [{ name: 'Rent', type: 'Housing', day: 1, amount: 1200 }],
    ledger: { startDate: '2055-01-01', endDate: '2055-01-31', currentBalance: 2000 },
  });
  await page.goto('/ledger');
  await expectView(page, 'Ledger');
  await expect(page.getByText('1 transaction.')).toBeVisible();

  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  const scriptUrl = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? '');
  expect(new URL(scriptUrl).pathname).toBe('/sw.js');

  // The precache is filled once the worker has installed: the page's files, nothing personal.
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(cached).toContain('/index.html');
  expect(cached.filter((url) => /^\/(api|oidc|dev-sign-in|login|app-config)/.test(url))).toEqual([]);

  // Offline: Refresh cannot reach the server; the page says why instead of a bare error.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Refresh' }).click();
  const whoops = page.getByRole('dialog', { name: 'Whoops!' });
  await expect(whoops).toContainText(OFFLINE);

  // Back online, everything loads again by itself.
  await context.setOffline(false);
  await expect(whoops).toBeHidden();
  await settled(page);
});

test('an API call goes to the network without starting the stopped service worker, while the page’s own files still come from it', async ({
  page,
  context,
}) => {
  await openSignedIn(page, 'worker-routes', '/ledger');
  await expectView(page, 'Ledger');
  await page.evaluate(async () => navigator.serviceWorker.ready);
  // A worker installed by an earlier page load controls the next one.
  await page.reload();
  await expectView(page, 'Ledger');
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // The page fetches the other views' and the dialogs' files (from the worker) when idle after its
  // paint; a stop before those are in would see the worker started again by them, not by a call.
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((entry) => /\/assets\/after-paint-/.test(entry.name))), {
      timeout: 15_000,
    })
    .toBe(true);
  await page.waitForLoadState('networkidle');

  const cdp = await context.newCDPSession(page);
  const running = new Map<string, string>();
  const starts: string[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions) {
      if (version.runningStatus === 'starting') starts.push(version.versionId);
      running.set(version.versionId, version.runningStatus);
    }
  });
  await cdp.send('ServiceWorker.enable');
  const stopWorker = async () => {
    await cdp.send('ServiceWorker.stopAllWorkers');
    await expect.poll(() => [...running.values()].every((status) => status === 'stopped')).toBe(true);
    starts.length = 0;
  };
  const fetchInPage = (path: string) =>
    page.evaluate(async (address) => {
      const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:')) ?? '';
      const { access_token: token } = JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string };
      const response = await fetch(address, { headers: { authorization: `Bearer ${token ?? ''}` } });
      await response.text();
      return response.status;
    }, path);

  await stopWorker();
  expect(await fetchInPage('/api/me')).toBe(200);
  expect(await fetchInPage('/app-config.json')).toBe(200);
  await page.waitForTimeout(300);
  expect(starts, 'the worker stays stopped for calls it only passes on').toEqual([]);

  // The page's own files are the worker's to answer: asking for one starts it.
  // The entry's script: on the Ledger the document runs the view's own chunk too, and first (decision 0127).
  const entryScript = await page.evaluate(
    () => document.querySelector<HTMLScriptElement>('script[type="module"][src*="/assets/index-"]')?.src ?? '',
  );
  expect(entryScript).toMatch(/\/assets\/index-[\w-]+\.js$/);
  expect(await fetchInPage(entryScript)).toBe(200);
  await expect.poll(() => starts.length).toBeGreaterThan(0);
});
