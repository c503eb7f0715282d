/**
 * The page in Chromium, driven by Playwright against the built server, for the benchmarks that
 * time it (5 at desktop width, 7 as a phone): Chromium's start, a user signed in through the page
 * with a seeded ledger, a script in the page that notes when the ledger is painted and how long
 * each Pay takes until the row's new badge and the new Pending Balance are painted, and the steps to
 * load and to pay. "Painted" is the first task after the next animation frame: the frame that shows
 * the change has been produced by then. The ledger is the page's Ledger view, `/ledger` (issue 24).
 */
import fs from 'node:fs';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type ConsoleMessage,
  type Page,
  type Response,
} from '@playwright/test';
import type { PrivateBuild } from './build.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { ApiClient } from './http-client.js';
import { seedLedger } from './seed.js';
import { newDataDir, startLeftover } from './server-process.js';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** Every row's Pay button, in both layouts (row-actions.tsx): its name starts with the word. */
export const PAY_BUTTON = 'button[aria-label^="Pay "]';
export const PENDING_BALANCE = '[data-testid="pending-balance"]';
/**
 * The full-screen spinner (busy.tsx) while any call runs, over every button (SPEC: the page waits
 * while a request runs). A click that lands on it pays nothing.
 */
export const SPINNER = '.spinner-overlay';
/** A row's status in words (status-badge.tsx), in both layouts. */
export const STATUS_BADGE = '.ledger-status';
/** The Ledger view (issue 24): the whole register with its balances. Home and Plan show no Pending Balance of the ledger's. */
export const LEDGER_ADDRESS = '/ledger';

/** The lines a probe writes to the console, each followed by a figure in ms: a page painted, a Pay painted. */
const PAINTED_LINE = 'leftover-bench-painted ';
const PAY_PAINTED_LINE = 'leftover-bench-pay-painted ';

/** For a probe's text: a function of a figure that writes it on the console after `line`, for consoleFigure to read. */
const sayOnConsole = (line: string) => `((figure) => console.debug(${JSON.stringify(line)} + figure))`;

/** For a probe's text: a function of the paint's ms that says it on the console (see gotoPainted). */
export const REPORT_PAINT = sayOnConsole(PAINTED_LINE);
/** The same for a Pay's ms from the click to its paint (see clickPay). */
const REPORT_PAY = sayOnConsole(PAY_PAINTED_LINE);

/**
 * The figure of the next console line that starts with `line`. The probes report that way, so
 * waiting evaluates nothing in the page while it works: `waitForFunction` compiled Playwright's
 * injected script in each new document once `goto` was back (at the load event), 7 to 10 ms of the
 * main thread that landed in the middle of a view's first paint, and polled on every frame after a
 * click. Listening starts before the caller acts; `what` names the wait in its timeout.
 */
function consoleFigure(page: Page, line: string, what: string, timeoutMs: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      page.off('console', listen);
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${what}: no report within ${timeoutMs} ms`));
    }, timeoutMs);
    const listen = (message: ConsoleMessage) => {
      const text = message.text();
      if (!text.startsWith(line)) return;
      stop();
      resolve(Number(text.slice(line.length)));
    };
    page.on('console', listen);
  });
}

/** Navigates to `url` and answers the ms from the start of navigation to the paint its probe reports (REPORT_PAINT). */
export async function gotoPainted(page: Page, url: string, timeoutMs = 60_000): Promise<number> {
  const painted = consoleFigure(page, PAINTED_LINE, `${url} painted`, timeoutMs);
  // A navigation that fails rejects here, and its paint is never waited for.
  await page.goto(url).catch((error: unknown) => {
    painted.catch(() => undefined);
    throw error;
  });
  return painted;
}

/**
 * How one layout of the ledger says its size and numbers its rendered items (rows and pay period
 * lines). The ledger renders only the items near the viewport (docs/decisions/0010), between
 * spacers, so "painted" means the element that announces the whole ledger is there and the
 * rendered items cover the viewport, not that every row is in the DOM.
 */
export interface LedgerLayout {
  readonly name: string;
  /** The ledger's own element. */
  readonly container: string;
  /** Inside the container, the element carrying the whole ledger's count; null: the container itself. */
  readonly countOn: string | null;
  readonly countAttribute: string;
  /** What the count holds besides the items: the table's header row. */
  readonly countBeyondItems: number;
  /** The rendered items inside the container, spacers left out. */
  readonly items: string;
  /** Each item's place among all of them, and the place of the first. */
  readonly indexAttribute: string;
  readonly firstIndex: number;
}

/** A desktop browser window, wide enough for the ledger's table (1100 px and up): benchmarks 5, 9, 11, 12, 13 and 15. */
export const DESKTOP = { viewport: { width: 1280, height: 900 } };

/** At 1100 px and wider (ledger-table.tsx): aria-rowcount on the table, the header row being row 1. */
export const TABLE_LAYOUT: LedgerLayout = {
  name: 'table',
  container: 'table[aria-rowcount]',
  countOn: null,
  countAttribute: 'aria-rowcount',
  countBeyondItems: 1,
  items: 'tbody tr[aria-rowindex]',
  indexAttribute: 'aria-rowindex',
  firstIndex: 2,
};

/** Under 1100 px (ledger-compact-list.tsx): the list has no count of its own; every item says it in aria-setsize. */
export const COMPACT_LAYOUT: LedgerLayout = {
  name: 'compact list',
  container: 'ul.ledger-compact',
  countOn: ':scope > li[aria-setsize]',
  countAttribute: 'aria-setsize',
  countBeyondItems: 0,
  items: 'li[aria-posinset]',
  indexAttribute: 'aria-posinset',
  firstIndex: 1,
};

/** What the page records for the benchmark, on window (the paints' figures it says on the console). */
interface PageProbe {
  /** When the ledger was painted on the wall clock (ms since the epoch), as the network events' wallTime counts it. */
  ledgerPaintedWallTime?: number;
  /** The last few pointer events and what they landed on, oldest first. */
  pointerEvents?: string[];
}

declare global {
  interface Window {
    leftoverBench?: PageProbe;
  }
}

/**
 * Runs in the page before its own scripts: notes when the ledger is painted as a user sees it, and times
 * every Pay click until the Pending Balance shows a new amount and the clicked row's badge a new
 * status (the page paints both at once, before the server answers: issue 24). Plain JavaScript
 * text, not a function handed to Playwright: tsx compiles functions with name helpers the page does not have.
 */
function probeScript(expectedRows: number, layout: LedgerLayout): string {
  return `(() => {
  const expectedRows = ${JSON.stringify(expectedRows)};
  const layout = ${JSON.stringify(layout)};
  // Every row and the pay periods' lines between them (issue 13), so at least the rows.
  const wholeLedger = () => [...document.querySelectorAll(layout.container)].find((container) => {
    const counter = layout.countOn === null ? container : container.querySelector(layout.countOn);
    return counter !== null && Number(counter.getAttribute(layout.countAttribute)) >= expectedRows + layout.countBeyondItems;
  }) ?? null;
  const probe = {};
  window.leftoverBench = probe;
  const afterPaint = (then) => requestAnimationFrame(() => setTimeout(() => then(performance.now()), 0));
  const pendingText = () => document.querySelector(${JSON.stringify(PENDING_BALANCE)})?.textContent ?? null;
  let clickedAt;
  let balanceBefore = null;
  let paidRow = null;
  let badgeBefore = null;
  const badgeText = () => paidRow?.querySelector(${JSON.stringify(STATUS_BADGE)})?.textContent ?? null;
  // The last pointer events and where they landed, for a Pay that is not painted: a press and a
  // release on different elements (one replaced or moved between them) make a click on neither.
  // Each with the point, the page's scroll and where the last pressed element then was.
  probe.pointerEvents = [];
  let pressed = null;
  const describe = (target) => !(target instanceof Element) ? String(target) :
    target.tagName + (target.getAttribute('aria-label') ? ' "' + target.getAttribute('aria-label') + '"' : '') +
    (target.className && typeof target.className === 'string' ? '.' + target.className.trim().split(' ').filter(Boolean).join('.') : '') +
    (target.closest(${JSON.stringify(PAY_BUTTON)}) ? ' (in a Pay button)' : '') + (target.isConnected ? '' : ' (detached)');
  for (const type of ['pointerdown', 'pointerup', 'click']) {
    document.addEventListener(type, (event) => {
      if (type === 'pointerdown') pressed = event.target instanceof Element ? event.target : null;
      const box = pressed?.getBoundingClientRect();
      probe.pointerEvents.push(type + ' on ' + describe(event.target) + ' at ' + performance.now().toFixed(0) + ' ms (point ' +
        Math.round(event.clientX) + ',' + Math.round(event.clientY) + ', scrollY ' + Math.round(scrollY) +
        (box ? ', pressed element at ' + Math.round(box.left) + ',' + Math.round(box.top) + ' ' + Math.round(box.width) + 'x' + Math.round(box.height) + (pressed.isConnected ? '' : ' detached') : '') + ')');
      if (probe.pointerEvents.length > 6) probe.pointerEvents.shift();
    }, true);
  }
  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest(${JSON.stringify(PAY_BUTTON)})) {
      clickedAt = performance.now();
      balanceBefore = pendingText();
      // The table's row or the compact list's item that holds the button.
      paidRow = event.target.closest('tr, li');
      badgeBefore = badgeText();
    }
  }, true);
  // A row that left the DOM (scrolled out of the window) cannot be waited for: the balance says it then.
  const badgeMoved = () => paidRow === null || !paidRow.isConnected || badgeText() !== badgeBefore;
  // This ledger, its rendered items reaching over the whole viewport, or all of them.
  const ledgerCoversViewport = () => {
    const ledger = wholeLedger();
    if (ledger === null) return false;
    const rows = ledger.querySelectorAll(layout.items);
    if (rows.length >= expectedRows) return true;
    const firstRow = rows[0];
    const lastRow = rows[rows.length - 1];
    if (firstRow === undefined || lastRow === undefined) return false;
    // From the first item, or from above the viewport's top, down to its bottom or further.
    const reachesTop = firstRow.getAttribute(layout.indexAttribute) === String(layout.firstIndex) || firstRow.getBoundingClientRect().top <= 0;
    return reachesTop && lastRow.getBoundingClientRect().bottom >= window.innerHeight;
  };
  let loadNoted = false;
  const observer = new MutationObserver(() => {
    if (!loadNoted && pendingText() !== null && ledgerCoversViewport()) {
      loadNoted = true;
      afterPaint((at) => {
        probe.ledgerPaintedWallTime = performance.timeOrigin + at;
        ${REPORT_PAINT}(at);
      });
    }
    if (clickedAt !== undefined && pendingText() !== balanceBefore && badgeMoved()) {
      const started = clickedAt;
      clickedAt = undefined;
      afterPaint((at) => ${REPORT_PAY}(at - started));
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
})();`;
}

/** Debian's full Chromium when installed (the page's figures were measured on it; the end-to-end tests take its headless shell, decision 0083), otherwise Playwright's own. */
export async function launchChromium(): Promise<Browser> {
  try {
    return await chromium.launch({
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
    throw new Error(`Chromium did not start: install it (apt install chromium, or npx playwright install chromium). ${String(error)}`);
  }
}

/**
 * Leftover built privately, on a fresh data folder, and Chromium, for one benchmark's `run`:
 * both closed and the folder removed afterwards, whatever happened.
 */
export async function withLeftoverInChromium<T>(build: PrivateBuild, run: (origin: string, browser: Browser) => Promise<T>): Promise<T> {
  const dataDir = newDataDir();
  const server = await startLeftover(build, dataDir);
  try {
    const browser = await launchChromium();
    try {
      return await run(server.origin, browser);
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Signs in through the page at the Ledger view's address (or another); the access token, once the page holds it. */
export async function signInInBrowser(page: Page, origin: string, userName: string, address = LEDGER_ADDRESS): Promise<string> {
  await page.goto(`${origin}${address}`);
  await page.getByLabel('User name').fill(userName);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const handle = await page.waitForFunction(
    () => {
      for (let index = 0; index < sessionStorage.length; index += 1) {
        const key = sessionStorage.key(index);
        if (key?.startsWith('oidc.user:')) {
          const user = JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: unknown };
          return typeof user.access_token === 'string' ? user.access_token : null;
        }
      }
      return null;
    },
    undefined,
    { timeout: 30_000 },
  );
  const token = await handle.jsonValue();
  if (!token) throw new Error('no access token in sessionStorage after signing in');
  return token;
}

export interface LedgerPageOptions {
  readonly origin: string;
  readonly rows: number;
  readonly userName: string;
  readonly layout: LedgerLayout;
  /** The browser context's viewport and device settings. */
  readonly device: BrowserContextOptions;
}

export interface LedgerPage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The user's access token, for set-up through the API between timed steps (refillLedger). */
  readonly token: string;
}

/**
 * A user in their own browser context with the probe in every document, signed in through the page
 * (the token stays in that tab's sessionStorage), with a ledger of `rows` rows seeded through the API.
 */
export async function openLedgerPage(browser: Browser, { origin, rows, userName, layout, device }: LedgerPageOptions): Promise<LedgerPage> {
  const context = await browser.newContext(device);
  await context.addInitScript({ content: probeScript(rows, layout) });
  const page = await context.newPage();
  const token = await signInInBrowser(page, origin, userName);
  const client = new ApiClient(origin, token);
  await seedLedger(client, rows);
  client.close();
  return { context, page, token };
}

/**
 * Brings the page's tab to the front and waits until it has drawn what it shows. Benchmarks that
 * take turns between two tabs bring one forward before each timed load, and a tab that was behind
 * draws its document again first: style, layout and paint of every element, 20.5 ms for the Ledger
 * view's 517 in a trace, 4.3 ms for benchmark 12's bare list. Started together with the navigation,
 * that frame ran inside it and held back its commit; it belongs to the switch of tabs, which no one
 * reloading or opening a view waits for (decision 0117).
 */
export async function bringTabForward(page: Page): Promise<void> {
  await page.bringToFront();
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/**
 * From the start of navigation to the Ledger view (`/ledger`) painted, in ms: `performance.now()`
 * in the new document starts there.
 */
export async function loadLedger(page: Page, origin: string): Promise<number> {
  await bringTabForward(page);
  return gotoPainted(page, `${origin}${LEDGER_ADDRESS}`);
}

/** When the last loadLedger's ledger was painted, in ms since the epoch (to close a wire tally there). */
export async function ledgerPaintedWallTime(page: Page): Promise<number> {
  return page.evaluate(() => window.leftoverBench?.ledgerPaintedWallTime ?? Number.NaN);
}

/**
 * Scrolls down the ledger, as a person looking for the next unpaid row would, until a rendered row
 * has an enabled Pay button: rows are paid from the top, and rows far below the viewport are not in
 * the DOM. Untimed: it happens before the click.
 */
export async function scrollToPayableRow(page: Page, layout: LedgerLayout): Promise<void> {
  const payable = page.locator(`${PAY_BUTTON}:not([disabled])`);
  const items = `${layout.container} ${layout.items}`;
  while ((await payable.count()) === 0) {
    const lastShown = await page.evaluate(
      ({ selector, index }) => {
        const rows = document.querySelectorAll(selector);
        const last = rows[rows.length - 1];
        last?.scrollIntoView({ block: 'start' });
        return Number(last?.getAttribute(index) ?? Number.NaN);
      },
      { selector: items, index: layout.indexAttribute },
    );
    if (Number.isNaN(lastShown)) throw new Error('the ledger shows no rows to pay');
    // The rows after it are rendered in the next frame, or there are none: nothing left to pay.
    await page.waitForFunction(
      ({ selector, index, shown }) => {
        const rows = document.querySelectorAll(selector);
        return Number(rows[rows.length - 1]?.getAttribute(index)) > shown;
      },
      { selector: items, index: layout.indexAttribute, shown: lastShown },
      { timeout: 5_000 },
    );
  }
}

/**
 * Clicks the first enabled Pay button in the DOM; the ms from the click to the row's new badge and
 * the new Pending Balance painted. Returns once the server's answer has come too: the page paints
 * before it (issue 24), and the next step must not start with this Pay still on its way.
 */
export async function clickPay(page: Page): Promise<number> {
  return (await clickPayAnswered(page)).ms;
}

/** clickPay, with the server's answer to the Pay (its timing, say). */
export async function clickPayAnswered(page: Page): Promise<{ readonly ms: number; readonly answer: Response }> {
  const painted = consoleFigure(page, PAY_PAINTED_LINE, 'the Pay painted', 30_000);
  painted.catch(() => undefined);
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === LEDGER_PATHS.updateTransaction, {
    timeout: 30_000,
  });
  // Awaited below; should the click or the paint fail first, its own rejection must not end the whole
  // run as an unhandled one (it did once, taking every later benchmark with it).
  answered.catch(() => undefined);
  // A read the page started on its own (the rows past the window after a scroll, say) shows the
  // spinner; a click then lands on it and pays nothing (benchmarks 7 and 11 stopped on that). The
  // user waits for the spinner to go; so does the benchmark, before its clock starts.
  await page.locator(SPINNER).waitFor({ state: 'detached', timeout: 30_000 });
  await page.locator(`${PAY_BUTTON}:not([disabled])`).first().click();
  const ms = await painted.catch(async (error: unknown) => {
    // Benchmark 11 stopped here once in a full run: say whether the click's PATCH was answered, so a
    // Pay the page did not paint can be told from one it never sent.
    const server = await answered.then(
      (response) => `the PATCH answered ${response.status()}`,
      () => 'no PATCH answered',
    );
    // And what the page showed then: an open dialog, the focused element, a spinner.
    const shown = await page
      .evaluate((spinner) => {
        const dialogs = [...document.querySelectorAll('[role="dialog"], dialog[open], .modal.show')].map(
          (dialog) => dialog.getAttribute('aria-label') ?? dialog.querySelector('h1, h2, h3, .modal-title')?.textContent ?? dialog.tagName,
        );
        const active = document.activeElement;
        const focused =
          active === null
            ? 'nothing'
            : `${active.tagName} "${active.getAttribute('aria-label') ?? active.textContent?.slice(0, 40) ?? ''}"`;
        const pointer = (window.leftoverBench?.pointerEvents ?? []).join(', ') || 'none';
        return `dialogs: ${dialogs.length === 0 ? 'none' : dialogs.join(', ')}; focus: ${focused}; spinner: ${document.querySelector(spinner) === null ? 'no' : 'yes'}; at ${location.pathname}; last pointer events: ${pointer}; now ${performance.now().toFixed(0)}`;
      }, SPINNER)
      .catch(() => 'the page could not be read');
    throw new Error(`${error instanceof Error ? error.message : String(error)}; ${server}; ${shown}`, { cause: error });
  });
  const answer = await answered;
  if (!answer.ok()) throw new Error(`the Pay was refused: ${answer.status()} ${await answer.text()}`);
  return { ms, answer };
}

/** Lets the row settle (its Clear button takes focus, the busy state ends) before the next click. */
export async function settleAfterPay(page: Page, ms: number): Promise<void> {
  await page.locator(PENDING_BALANCE).waitFor();
  await page.waitForTimeout(ms);
}

/** Sample lists for a note: every figure, rounded, in the order measured. */
export function sampleList(values: readonly number[]): string {
  return values.map((value) => value.toFixed(0)).join('/');
}
