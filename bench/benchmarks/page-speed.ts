/**
 * Benchmark 5, the page stays fast as the ledger grows, in Chromium driven by Playwright against
 * the built server:
 *  - Pay: from the click on a row's Pay button to the new Pending Balance painted;
 *  - load: from the start of navigation to the ledger painted as a user sees it: the Pending
 *    Balance shown, the table announcing the whole ledger (aria-rowcount, the header row included)
 *    and its rendered rows covering the viewport (every row when they all fit; otherwise down to
 *    the viewport's bottom at least). The table renders only the rows near the viewport
 *    (docs/decisions/0010-windowed-ledger-table.md), so waiting for every row's Pay button would
 *    wait for rows no one can see;
 * each on a 2,000-row ledger against a 20-row one. Two users, each in their own browser context,
 * take turns so both see the same machine. "Painted" is the first task after the next animation
 * frame: the frame that shows the change has been produced by then.
 */
import fs from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import type { PrivateBuild } from '../lib/build.js';
import { ApiClient } from '../lib/http-client.js';
import { type BenchResult, result } from '../lib/report.js';
import { seedLedger } from '../lib/seed.js';
import { newDataDir, startLeftover } from '../lib/server-process.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';

const SMALL_ROWS = 20;
const LARGE_ROWS = 2000;
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const PAY_BUTTON = 'button[aria-label^="Pay "]';
const PENDING_BALANCE = '[data-testid="pending-balance"]';
const RENDERED_ROWS = 'tbody tr[aria-rowindex]';

/** What the page records for the benchmark, on window. */
interface PageProbe {
  ledgerPaintedAt?: number;
  payTimes: number[];
}

declare global {
  interface Window {
    leftoverBench?: PageProbe;
  }
}

/**
 * Runs in the page before its own scripts: notes when the ledger is painted as a user sees it, and times
 * every Pay click until the Pending Balance shows a new amount. Plain JavaScript text, not a
 * function handed to Playwright: tsx compiles functions with name helpers the page does not have.
 */
function probeScript(expectedRows: number): string {
  return `(() => {
  const expectedRows = ${JSON.stringify(expectedRows)};
  // The header, every row, and the pay periods' lines between them (issue 13): at least rows + 1.
  const wholeLedgerTable = () => [...document.querySelectorAll('table[aria-rowcount]')].find((table) => Number(table.getAttribute('aria-rowcount')) >= expectedRows + 1) ?? null;
  const probe = { payTimes: [] };
  window.leftoverBench = probe;
  const afterPaint = (then) => requestAnimationFrame(() => setTimeout(() => then(performance.now()), 0));
  const pendingText = () => document.querySelector(${JSON.stringify(PENDING_BALANCE)})?.textContent ?? null;
  let clickedAt;
  let balanceBefore = null;
  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest(${JSON.stringify(PAY_BUTTON)})) {
      clickedAt = performance.now();
      balanceBefore = pendingText();
    }
  }, true);
  // The table of this ledger, its rendered rows reaching over the whole viewport, or all of them.
  const ledgerCoversViewport = () => {
    const table = wholeLedgerTable();
    if (table === null) return false;
    const rows = table.querySelectorAll(${JSON.stringify(RENDERED_ROWS)});
    if (rows.length >= expectedRows) return true;
    const firstRow = rows[0];
    const lastRow = rows[rows.length - 1];
    if (firstRow === undefined || lastRow === undefined) return false;
    // From the first row, or from above the viewport's top, down to its bottom or further.
    const reachesTop = firstRow.getAttribute('aria-rowindex') === '2' || firstRow.getBoundingClientRect().top <= 0;
    return reachesTop && lastRow.getBoundingClientRect().bottom >= window.innerHeight;
  };
  let loadNoted = false;
  const observer = new MutationObserver(() => {
    if (!loadNoted && pendingText() !== null && ledgerCoversViewport()) {
      loadNoted = true;
      afterPaint((at) => { probe.ledgerPaintedAt = at; });
    }
    if (clickedAt !== undefined && pendingText() !== balanceBefore) {
      const started = clickedAt;
      clickedAt = undefined;
      afterPaint((at) => probe.payTimes.push(at - started));
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
})();`;
}

interface Viewer {
  readonly rows: number;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly loads: number[];
  readonly pays: number[];
}

async function signInInBrowser(page: Page, origin: string, userName: string): Promise<string> {
  await page.goto(origin);
  await page.getByLabel('User name').fill(userName);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'New Ledger' }).first().waitFor();
  const token = await page.evaluate(() => {
    for (let index = 0; index < sessionStorage.length; index += 1) {
      const key = sessionStorage.key(index);
      if (key?.startsWith('oidc.user:')) {
        const user = JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: unknown };
        return typeof user.access_token === 'string' ? user.access_token : null;
      }
    }
    return null;
  });
  if (!token) throw new Error('no access token in sessionStorage after signing in');
  return token;
}

async function openViewer(browser: Browser, origin: string, rows: number): Promise<Viewer> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ content: probeScript(rows) });
  const page = await context.newPage();
  const token = await signInInBrowser(page, origin, `bench-page-${rows}`);
  const client = new ApiClient(origin, token);
  await seedLedger(client, rows);
  client.close();
  return { rows, context, page, loads: [], pays: [] };
}

async function measureLoad(viewer: Viewer, origin: string): Promise<void> {
  await viewer.page.bringToFront();
  await viewer.page.goto(origin);
  const handle = await viewer.page.waitForFunction(() => window.leftoverBench?.ledgerPaintedAt, undefined, { timeout: 60_000 });
  viewer.loads.push(Number(await handle.jsonValue()));
}

/**
 * Scrolls down the ledger, as a person looking for the next unpaid row would, until a rendered row
 * has an enabled Pay button: rows are paid from the top, and rows far below the viewport are not in
 * the DOM. Untimed: it happens before the click.
 */
async function scrollToPayableRow(page: Page): Promise<void> {
  const payable = page.locator(`${PAY_BUTTON}:not([disabled])`);
  while ((await payable.count()) === 0) {
    const lastShown = await page.evaluate((selector) => {
      const rows = document.querySelectorAll(selector);
      const last = rows[rows.length - 1];
      last?.scrollIntoView({ block: 'start' });
      return Number(last?.getAttribute('aria-rowindex') ?? Number.NaN);
    }, RENDERED_ROWS);
    if (Number.isNaN(lastShown)) throw new Error('the ledger shows no rows to pay');
    // The rows after it are rendered in the next frame, or there are none: nothing left to pay.
    await page.waitForFunction(
      ({ selector, shown }) => {
        const rows = document.querySelectorAll(selector);
        return Number(rows[rows.length - 1]?.getAttribute('aria-rowindex')) > shown;
      },
      { selector: RENDERED_ROWS, shown: lastShown },
      { timeout: 5_000 },
    );
  }
}

async function measurePay(viewer: Viewer): Promise<void> {
  const { page } = viewer;
  await scrollToPayableRow(page);
  const before = await page.evaluate(() => window.leftoverBench?.payTimes.length ?? 0);
  await page.locator(`${PAY_BUTTON}:not([disabled])`).first().click();
  await page.waitForFunction((count) => (window.leftoverBench?.payTimes.length ?? 0) > count, before, { timeout: 30_000 });
  viewer.pays.push(await page.evaluate(() => window.leftoverBench?.payTimes.at(-1) ?? Number.NaN));
  // Let the row settle (its Clear button takes focus, the busy state ends) before the next click.
  await page.locator(PENDING_BALANCE).waitFor();
  await page.waitForTimeout(150);
}

export async function pageSpeed(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const rounds = settings.quick ? 3 : 7;
  const paysPerRound = 2;
  const dataDir = newDataDir();
  const server = await startLeftover(build, dataDir);
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: fs.existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (error) {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`Chromium did not start: install it (apt install chromium, or npx playwright install chromium). ${String(error)}`);
  }
  try {
    const small = await openViewer(browser, server.origin, SMALL_ROWS);
    const large = await openViewer(browser, server.origin, LARGE_ROWS);
    // One untimed load each: the browser's cache holds the page's files for every timed one.
    for (const viewer of [small, large]) {
      await measureLoad(viewer, server.origin);
      viewer.loads.length = 0;
    }
    for (let turn = 0; turn < rounds; turn += 1) {
      for (const viewer of turn % 2 === 0 ? [small, large] : [large, small]) {
        await measureLoad(viewer, server.origin);
        for (let pay = 0; pay < paysPerRound; pay += 1) await measurePay(viewer);
      }
    }
    const list = (values: readonly number[]) => values.map((value) => value.toFixed(0)).join('/');
    return [
      result(
        `5a. Pay to Pending Balance painted, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median ms)`,
        'ms',
        round(median(large.pays)),
        round(median(small.pays)),
        { atMost: 1.5 },
        `${LARGE_ROWS}: ${list(large.pays)}; ${SMALL_ROWS}: ${list(small.pays)}`,
      ),
      result(
        `5b. navigation to ledger painted, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median ms)`,
        'ms',
        round(median(large.loads)),
        round(median(small.loads)),
        { atMost: 2 },
        `${LARGE_ROWS}: ${list(large.loads)}; ${SMALL_ROWS}: ${list(small.loads)}`,
      ),
    ];
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
