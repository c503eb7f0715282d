/**
 * Issue 35, decision 0073: a returning tab's Ledger view asks for its data with the first script,
 * before the code of anything it does not show. Its first API call starts before any script file
 * that only other views, dialogs and menus use (Plan, Home's chart and balances, Settings, Your
 * data, the dialogs: `plan-view`, `home-parts`, `after-paint`) is requested, and those files are
 * still fetched once the ledger is on screen.
 */
import { expect, type Page, type Request, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { expectView } from './dashboard-actions.js';
import { signInAs } from './sign-in.js';
import { readsAskedBy } from '../../src/contract/first-reads-query.js';

/** The script files no part of the Ledger view's first paint uses (vite.config.ts places them). */
const OTHER_VIEWS_CHUNK = /\/assets\/(plan-view|home-parts|after-paint)-[\w-]+\.js$/;
/** The Ledger view's own style sheet (ledger.css, split off its chunk by Vite). */
const LEDGER_SHEET = /\/assets\/ledger-view-[\w-]+\.css$/;

function pathOf(request: Request): string {
  return new URL(request.url()).pathname;
}

/**
 * Signs a new user in at the view's address, seeds a paycheck, a bill and a ledger, and waits for
 * the browser's time zone the first load sends after its paint and notes once answered: that call
 * ends before the test's reload (one still in flight was reported among the reloaded page's requests
 * in a fresh-clone CI), and the reloaded page does not send it again.
 */
async function signInSeeded(page: Page, view: 'Home' | 'Ledger', userName: string): Promise<void> {
  await page.goto(view === 'Home' ? '/' : '/ledger');
  await signInAs(page, userName);
  await expectView(page, view);
  await seedThroughApi(page, {
    deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'N/A', amount: 1500, startDate: '2055-01-01', frequency: 'EOM' }],
    expenses: [{ name: 'Rent', type: 'Rent', day: 1, amount: 900 }],
    ledger: { startDate: '2055-01-01', endDate: '2055-03-31', currentBalance: 250 },
  });
  await expect.poll(() => page.evaluate(() => window.sessionStorage.getItem('leftover.timeZoneSent'))).not.toBeNull();
}

test("the Ledger view's first API call starts before any chunk that only other views use is requested", async ({ page }) => {
  await signInSeeded(page, 'Ledger', 'early-erin');
  // From the reload's own document on: the first load may still be fetching its other views' code
  // when the listener starts, and those requests are no part of the reloaded page's order.
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (seen.length > 0 || (request.isNavigationRequest() && pathOf(request) === '/ledger')) seen.push(request);
  });
  await page.reload();
  await expectView(page, 'Ledger');
  await expect(page.getByTestId('pending-balance')).toBeVisible();
  // The other views' code still comes, after the paint, when the browser is idle.
  await expect.poll(() => seen.some((request) => OTHER_VIEWS_CHUNK.test(pathOf(request))), { timeout: 15_000 }).toBe(true);

  const firstApiCall = seen.findIndex((request) => pathOf(request).startsWith('/api/'));
  const firstOtherChunk = seen.findIndex((request) => OTHER_VIEWS_CHUNK.test(pathOf(request)));
  expect(firstApiCall, 'an API call was made').toBeGreaterThanOrEqual(0);
  expect(
    firstApiCall,
    `the first API call (${seen[firstApiCall]?.url()}) starts before ${seen[firstOtherChunk]?.url()}; order: ${seen.map(pathOf).join(', ')}`,
  ).toBeLessThan(firstOtherChunk);
  // The first call asks for what the Ledger view paints, its window and the accounts, in one (decision 0128).
  expect(readsAskedBy(new URL((seen[firstApiCall] as Request).url()))).toEqual([
    expect.stringMatching(/^\/api\/ledger\/retrieve-ledger\?limit=100&today=\d{4}-\d{2}-\d{2}$/),
    '/api/accounts',
  ]);

  // The start's steps on the page's timeline (main.tsx's marks, what BENCH_TRACE=1 prints), in
  // order, with the window asked for before the first render began.
  const timeline = await page.evaluate(() => ({
    steps: ['start', 'view-code', 'answers', 'render'].map((step) => performance.getEntriesByName(`leftover:${step}`)[0]?.startTime ?? -1),
    windowAsked:
      performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname === '/api/first-reads')?.startTime ?? -1,
  }));
  expect(Math.min(...timeline.steps), `every step marked: ${timeline.steps.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(timeline.steps).toEqual([...timeline.steps].sort((a, b) => a - b));
  expect(timeline.windowAsked, 'the window was asked for').toBeGreaterThanOrEqual(0);
  expect(timeline.windowAsked).toBeLessThan(timeline.steps[3] ?? -1);

  // The view's own style sheet (its rows') is linked by the document's script, before main.tsx's
  // start() runs (decisions 0126, 0129), and fetched only once: the view's import, later, finds it
  // linked and links it no second time.
  const sheets = await page.evaluate((pattern) => {
    const sheet = new RegExp(pattern);
    return performance
      .getEntriesByType('resource')
      .filter((entry) => sheet.test(new URL(entry.name).pathname))
      .map((entry) => entry.startTime);
  }, LEDGER_SHEET.source);
  expect(sheets, "the Ledger view's style sheet is fetched once").toHaveLength(1);
  expect(sheets[0]).toBeLessThan(timeline.steps[0] ?? -1);
  expect(seen.filter((request) => LEDGER_SHEET.test(pathOf(request)))).toHaveLength(1);
  // And it applies: the balances' header sticks to the top (ledger.css).
  await expect(page.locator('.ledger-header')).toHaveCSS('position', 'sticky');
});

/**
 * What the page showed when the Ledger's rows first entered the document (the first mutation that
 * brought them, before that frame was painted): whether the view's own style sheet applied (its
 * header sticks, ledger.css) and where the rows began. Plain JavaScript text, for addInitScript.
 */
const FIRST_ROWS_SEEN = `(() => {
  const observer = new MutationObserver(() => {
    const header = document.querySelector('.ledger-header');
    const body = document.querySelector('table[aria-rowcount] tbody');
    if (header === null || body === null || body.querySelector('tr[aria-rowindex]') === null) return;
    observer.disconnect();
    window.leftoverFirstRows = { headerPosition: getComputedStyle(header).position, rowsTop: body.getBoundingClientRect().top + window.scrollY };
  });
  observer.observe(document, { subtree: true, childList: true });
})();`;

test("the Ledger view's first paint has its own styles: its rows are where they stay (decision 0129)", async ({ page }) => {
  await signInSeeded(page, 'Ledger', 'styled-stella');
  await page.addInitScript({ content: FIRST_ROWS_SEEN });
  await page.reload();
  await expectView(page, 'Ledger');
  await expect(page.getByTestId('pending-balance')).toBeVisible();
  // Once the page has settled: its other code in, its names read (a personal budget holds no
  // change stream open, decision 0096, so the network does go quiet).
  await page.waitForLoadState('networkidle');
  const seen = await page.evaluate(
    () => (window as unknown as { leftoverFirstRows?: { headerPosition: string; rowsTop: number } }).leftoverFirstRows,
  );
  expect(seen, 'the rows were seen entering the document').toBeDefined();
  expect(seen?.headerPosition, "the Ledger's style sheet applied in its first paint").toBe('sticky');
  const rowsTopNow = await page.evaluate(() => {
    const body = document.querySelector('table[aria-rowcount] tbody');
    return body === null ? Number.NaN : body.getBoundingClientRect().top + window.scrollY;
  });
  expect(rowsTopNow, 'the rows did not move after the first paint').toBeCloseTo(seen?.rowsTop ?? Number.NaN, 0);
});

/** The Ledger's and Plan's own script files (vite.config.ts's placement), by view. */
const VIEW_OWN_CHUNK = { Ledger: /\/assets\/ledger-view-[\w-]+\.js$/, Plan: /\/assets\/plan-view-[\w-]+\.js$/ } as const;

test("the Ledger's and Plan's own code is run by the document with the first script, in hand when the page starts, and fetched once", async ({
  page,
}) => {
  await signInSeeded(page, 'Ledger', 'run-rita');
  for (const view of ['Ledger', 'Plan'] as const) {
    await page.goto(view === 'Ledger' ? '/ledger' : '/plan');
    await expectView(page, view);
    const chunk = VIEW_OWN_CHUNK[view];
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (chunk.test(pathOf(request))) fetched.push(request.url());
    });
    await page.reload();
    await expectView(page, view);
    const seen = await page.evaluate((pattern) => {
      const own = new RegExp(pattern);
      const mark = performance.getEntriesByName('leftover:view-code')[0] as PerformanceMark | undefined;
      return {
        // decision 0127: main.tsx notes whether the view's code was in hand when the page started.
        inHandAtStart: (mark?.detail as { inHandAtStart?: boolean } | null | undefined)?.inHandAtStart,
        scripts: [...document.querySelectorAll('script[type="module"]')]
          .map((script) => script.getAttribute('src') ?? '')
          .filter((src) => own.test(src)),
      };
    }, chunk.source);
    expect(seen.inHandAtStart, `${view}: the view's code was in hand at the start`).toBe(true);
    expect(seen.scripts, `${view}: the document runs the view's chunk as a script of its own`).toHaveLength(1);
    expect(fetched, `${view}: the view's chunk is fetched once`).toHaveLength(1);
    await expect(page.getByRole('button', { name: 'Acme', exact: false }).first()).toBeVisible();
  }
});

test('a returning tab asks for its sign-in settings once the view has painted, and starts again when the server changed them', async ({
  page,
}) => {
  await page.goto('/ledger');
  await signInAs(page, 'early-fay');
  await expectView(page, 'Ledger');
  await seedThroughApi(page, {
    deposits: [],
    expenses: [],
    ledger: { startDate: '2055-01-01', endDate: '2055-03-31', currentBalance: 250 },
  });
  const note = await page.evaluate(() => window.sessionStorage.getItem('leftover.appConfig'));
  expect(note, 'the first load remembered the server’s settings').not.toBeNull();
  // The operator changed the settings since this tab last had them.
  const stale = JSON.stringify({ ...(JSON.parse(note as string) as object), developmentSignIn: false });
  await expect.poll(() => page.evaluate(() => window.sessionStorage.getItem('leftover.timeZoneSent'))).not.toBeNull();
  // The stale note is written into the next document (the test's reload) before the page's scripts
  // run, and only there: the document after it, the page starting again by itself, is left alone.
  // Written into this document instead, it could meet this document's own check of its settings
  // (made once its view has painted, or 5 s in) and the page would start again before the reload.
  await page.addInitScript((value) => {
    if (window.sessionStorage.getItem('test.staleNoteWritten') !== null) return;
    window.sessionStorage.setItem('test.staleNoteWritten', '1');
    window.sessionStorage.setItem('leftover.appConfig', value);
  }, stale);

  const events: string[] = [];
  page.on('request', (request) => events.push(`sent ${pathOf(request)}`));
  page.on('requestfinished', (request) => events.push(`answered ${pathOf(request)}`));
  let documents = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) documents += 1;
  });
  await page.reload();
  await expectView(page, 'Ledger');
  // It starts again by itself (the page is read only once that second document is in: a read during
  // the navigation would fail), with the server's settings remembered.
  await expect.poll(() => documents).toBe(2);
  await expectView(page, 'Ledger');
  expect(await page.evaluate(() => window.sessionStorage.getItem('leftover.appConfig'))).toBe(note);
  await expect(page.getByTestId('pending-balance')).toBeVisible();

  const settingsAsked = events.indexOf(`sent /app-config.json`);
  // The window is among the first reads, one call (decision 0128).
  const windowAnswered = events.indexOf('answered /api/first-reads');
  expect(windowAnswered, `the ledger's window was answered; ${events.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(settingsAsked, `the settings are asked after the view's data came; ${events.join(', ')}`).toBeGreaterThan(windowAnswered);
});

/** Files of the other views and the dialogs: Home's first paint (its chart included) needs none of them. */
const NOT_HOME_CHUNK = /\/assets\/(plan-view|ledger-view|after-paint)-[\w-]+\.(js|css)$/;

test("Home's chart is drawn before any file of the other views or the dialogs is asked for, and those come after", async ({ page }) => {
  await signInSeeded(page, 'Home', 'early-gus');
  // When the chart's canvas first shows, on the page's own clock.
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (document.querySelector('.forecast-chart-plot canvas') === null) return;
      (window as unknown as { chartDrawnAt?: number }).chartDrawnAt = performance.now();
      observer.disconnect();
    });
    observer.observe(document, { subtree: true, childList: true });
  });

  await page.reload();
  await expectView(page, 'Home');
  await expect(page.locator('.forecast-chart-plot canvas')).toBeVisible();
  const requested = () =>
    page.evaluate((pattern) => {
      const files = new RegExp(pattern);
      return performance
        .getEntriesByType('resource')
        .filter((entry) => files.test(new URL(entry.name).pathname))
        .map((entry) => ({ path: new URL(entry.name).pathname, at: entry.startTime }));
    }, NOT_HOME_CHUNK.source);
  // They still come, once Home has painted, when the browser is idle.
  await expect.poll(async () => (await requested()).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const chartDrawnAt = await page.evaluate(() => (window as unknown as { chartDrawnAt?: number }).chartDrawnAt);
  expect(chartDrawnAt, 'the chart was drawn').toEqual(expect.any(Number));
  for (const file of await requested())
    expect(file.at, `${file.path} asked for after the chart (drawn at ${chartDrawnAt})`).toBeGreaterThan(chartDrawnAt ?? 0);
});

test("a returning tab's first reads are sent by the document's own script, under the page's content security policy, and once", async ({
  page,
}) => {
  await signInSeeded(page, 'Ledger', 'inline-ingrid');
  // Anything the content security policy refuses (an inline script whose hash it does not list) is reported here.
  await page.addInitScript(() => {
    const refused: string[] = [];
    (window as unknown as { refusedByPolicy: string[] }).refusedByPolicy = refused;
    document.addEventListener('securitypolicyviolation', (event) => refused.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const windowReads: string[] = [];
  page.on('request', (request) => {
    for (const read of readsAskedBy(new URL(request.url()))) if (read.startsWith('/api/ledger/retrieve-ledger')) windowReads.push(read);
  });
  await page.reload();
  await expectView(page, 'Ledger');
  await expect(page.getByRole('button', { name: 'Pay Acme' }).first()).toBeVisible();
  await expect(page.getByTestId('pending-balance')).toBeVisible();

  expect(await page.evaluate(() => (window as unknown as { refusedByPolicy: string[] }).refusedByPolicy)).toEqual([]);
  // decision 0121: the HTML's script sent the view's first reads and left them for the page, which took them.
  expect(await page.evaluate(() => (window as unknown as { leftoverFirstReads?: unknown }).leftoverFirstReads instanceof Map)).toBe(true);
  expect(windowReads, 'the ledger window is asked for once').toHaveLength(1);
  expect(new URL(windowReads[0] ?? '/', 'http://page.test/').searchParams.get('limit')).toBe('100');
});
