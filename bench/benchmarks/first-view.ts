/**
 * Benchmark 12, each view's first paint against the physical limit (issue 35): from the start of
 * navigation to Home, Ledger and Plan painted as a user sees them, signed in, on a 2,000-row ledger,
 * against a bare React page (bench/pages/bare-list) built by the same Vite and React plugin and
 * served by the same server, which asks for one JSON answer as its script runs and renders it as a
 * list. That answer is the view's own: the API answers the view had received when it painted, joined
 * into one, so both pages bring the same bytes of data. Beside each time, the requests sent before
 * the paint and the critical chain's round trips (bench/lib/request-chain.ts).
 *
 * Desktop width, no throttling, as benchmark 5 (with BENCH_FIRST_VIEW_PHONE=1: benchmark 7's phone, CPU
 * 4x slower and "Fast 4G", for both pages: issue 35's "as a new user would on the phone", figures for
 * the note, not a target of its own); one untimed load of each first, so the browser's
 * cache (and Leftover's service worker, once registered) hold the pages' files for the timed ones.
 * Leftover's user and the bare page each have their own browser context; they take turns.
 */
import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { build as viteBuild } from 'vite';
import { readsAskedBy } from '../../src/contract/first-reads-query.js';
import { REPO_ROOT, type PrivateBuild } from '../lib/build.js';
import {
  bringTabForward,
  COMPACT_LAYOUT,
  DESKTOP,
  gotoPainted,
  LEDGER_ADDRESS,
  openLedgerPage,
  REPORT_PAINT,
  sampleList,
  TABLE_LAYOUT,
  withLeftoverInChromium,
} from '../lib/page-probe.js';
import { type BenchResult, result } from '../lib/report.js';
import { type LoadRequests, RequestChain } from '../lib/request-chain.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';
import { CPU_SLOWDOWN, FAST_4G, PHONE } from './phone.js';

const ROWS = 2000;
/** Where the bare page is served from, inside the private build's page folder. */
const BARE_BASE = '/bench-bare/';
const BARE_SOURCE = path.join(REPO_ROOT, 'bench/pages/bare-list');
/** The issue's "no chunk under 1 KB on its path". */
const SMALLEST_CHUNK = 1024;

interface View {
  readonly name: 'Home' | 'Ledger' | 'Plan';
  readonly address: string;
  /** The bare page's answer for this view: /bench-bare/data/<key>.json. */
  readonly key: string;
}

const VIEWS: readonly View[] = [
  { name: 'Home', address: '/', key: 'home' },
  { name: 'Ledger', address: LEDGER_ADDRESS, key: 'ledger' },
  { name: 'Plan', address: '/plan', key: 'plan' },
];

/**
 * Runs in every document before its own scripts and says on the console (REPORT_PAINT) when Home, Plan or the bare list is
 * painted as a user sees it (the Ledger view has benchmark 5's probe, page-probe.ts):
 *  - Home: the monthly sentence with the totals, the next 14 days past loading (Add Transaction is
 *    there) and the forecast chart drawn;
 *  - Plan: the accounts (a Rename button), the deposits and the expenses of the seeded plan
 *    (bench/lib/seed.ts names them "Acme" and "Bill 001");
 *  - the bare page: its list has items.
 * Plain JavaScript text, as page-probe.ts's probe, for the same reason.
 */
const VIEW_PROBE = `(() => {
  const path = location.pathname;
  const painted = {
    '/': () => {
      const lead = document.querySelector('.dashboard .lead')?.textContent ?? '';
      return /left over each month|short each month/.test(lead)
        && [...document.querySelectorAll('button')].some((button) => button.textContent === 'Add Transaction')
        && document.querySelector('.forecast-chart-plot canvas') !== null;
    },
    '/plan': () => {
      const text = document.querySelector('.dashboard')?.textContent ?? '';
      return document.querySelector('button[aria-label^="Rename "]') !== null && text.includes('Acme') && text.includes('Bill 001');
    },
    ${JSON.stringify(`${BARE_BASE}index.html`)}: () => document.querySelector('ul[data-bare-list] > li') !== null,
  }[path];
  if (painted === undefined) return;
  let noted = false;
  const observer = new MutationObserver(() => {
    if (noted || !painted()) return;
    noted = true;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => ${REPORT_PAINT}(performance.now()), 0));
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
})();`;

/** The bare page built by the same Vite and React plugin into the private build's page folder, served by Leftover's server. */
async function buildBarePage(webRoot: string): Promise<string> {
  const outDir = path.join(webRoot, BARE_BASE);
  await viteBuild({
    root: BARE_SOURCE,
    base: BARE_BASE,
    configFile: false,
    logLevel: 'error',
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  // The server lists its files when it starts (@fastify/static without wildcard): the answers are
  // there from the start, and filled once Leftover has given the view's (it reads them on each request).
  fs.mkdirSync(path.join(outDir, 'data'), { recursive: true });
  for (const view of VIEWS) fs.writeFileSync(path.join(outDir, 'data', `${view.key}.json`), '[]');
  return outDir;
}

interface Loader {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly chain: RequestChain;
}

async function withRequestChain(context: BrowserContext, page: Page, onPhone: boolean): Promise<Loader> {
  const session = await context.newCDPSession(page);
  await session.send('Network.enable');
  if (onPhone) {
    // Benchmark 7's phone, applied after the sign-in and seeding; it stays on across navigations.
    await session.send('Network.emulateNetworkConditions', FAST_4G);
    await session.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  }
  return { context, page, chain: new RequestChain(session) };
}

interface Load {
  readonly ms: number;
  readonly requests: LoadRequests;
}

/**
 * Navigates and waits for the probe's paint (the Ledger view's is benchmark 5's, the others'
 * VIEW_PROBE); the ms from the start of navigation and the requests before it.
 */
async function timedLoad({ page, chain }: Loader, url: string): Promise<Load> {
  await bringTabForward(page);
  chain.start();
  const ms = await gotoPainted(page, url);
  const timeOrigin = await page.evaluate(() => performance.timeOrigin);
  // Requests a view sends as its paint is produced are not on its path: a moment for their events to arrive.
  await page.waitForTimeout(50);
  if (process.env.BENCH_TRACE === '1') console.log(`  ${url} painted at ${ms.toFixed(0)} ms: ${await loadTimeline(page)}`);
  return { ms, requests: chain.summarize(timeOrigin, timeOrigin + ms) };
}

/**
 * With BENCH_TRACE=1, where one load's requests went (untimed, for the note): the document's and each
 * file's and call's start (st, when the page asked for it), request start, first byte and last byte in
 * ms from the start of navigation, each request's start on the wall clock (@, ms since the epoch) to
 * line it up with a server's log, and every `performance.mark` the page made (a build with marks
 * added while looking, say), by name and time.
 */
function loadTimeline(page: Page): Promise<string> {
  // No functions declared inside: the runner's transform would name them with a helper the page lacks.
  return page.evaluate(() => {
    const [document] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const lines = document
      ? [
          `document rq${Math.round(document.requestStart)} rs${Math.round(document.responseStart)} ` +
            `re${Math.round(document.responseEnd)} dcl${Math.round(document.domContentLoadedEventStart)}`,
        ]
      : [];
    for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      const name = new URL(entry.name).pathname.replace(/^.*\//, '').slice(0, 24);
      const wall = (performance.timeOrigin + entry.requestStart).toFixed(1);
      lines.push(
        `${name} @${wall} st${Math.round(entry.startTime)} rq${Math.round(entry.requestStart)} rs${Math.round(entry.responseStart)} re${Math.round(entry.responseEnd)}`,
      );
    }
    for (const mark of performance.getEntriesByType('mark')) lines.push(`${mark.name} ${mark.startTime.toFixed(1)}`);
    return lines.join(' | ');
  });
}

/**
 * The API answers (paths with query) the view had received when it painted, from the page's Resource
 * Timing: the first reads' one call (decision 0128) counted as the reads it carried, so the bare page
 * gets the same data, each answer's own JSON, and renders the same lists from it.
 */
async function answersBeforePaint(page: Page, paintedAt: number): Promise<string[]> {
  const answered = await page.evaluate(
    (at) =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry instanceof PerformanceResourceTiming && entry.responseEnd <= at)
        .map((entry) => new URL(entry.name))
        .filter((url) => url.origin === location.origin && url.pathname.startsWith('/api/'))
        .map((url) => `${url.pathname}${url.search}`),
    paintedAt,
  );
  return answered.flatMap((answer) => readsAskedBy(new URL(answer, 'http://page.test')));
}

/** Those answers, asked again with the page's token, joined into one JSON document for the bare page. */
async function writeBareAnswer(page: Page, origin: string, paths: readonly string[], file: string): Promise<number> {
  const token = await page.evaluate(() => {
    for (let index = 0; index < sessionStorage.length; index += 1) {
      const key = sessionStorage.key(index);
      if (key?.startsWith('oidc.user:')) return (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
    }
    return undefined;
  });
  if (token === undefined) throw new Error('no access token in the page');
  const bodies: string[] = [];
  for (const each of paths) {
    const response = await fetch(`${origin}${each}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    if (!response.ok) throw new Error(`${each} answered ${response.status}`);
    bodies.push(await response.text());
  }
  const joined = `[${bodies.join(',')}]`;
  fs.writeFileSync(file, joined);
  return Buffer.byteLength(joined);
}

/** Script and style files under 1 KB among the requests, by their size in the build. */
function smallChunks(webRoot: string, requests: LoadRequests): string[] {
  return requests.sent.filter((each) => {
    const pathname = each.split('?')[0] ?? '';
    if (!/\.(js|css)$/.test(pathname)) return false;
    const file = path.join(webRoot, pathname);
    return fs.existsSync(file) && fs.statSync(file).size < SMALLEST_CHUNK;
  });
}

function medianOf(loads: readonly Load[], pick: (requests: LoadRequests) => number): number {
  return median(loads.map((load) => pick(load.requests)));
}

/** "12 requests (2 over the network), chain 3 (3 over the network): / -> /assets/index.js -> /api/..." of the last load. */
function requestsNote(loads: readonly Load[]): string {
  const last = loads.at(-1)?.requests;
  const chain = last === undefined ? '' : `: ${last.chain.join(' -> ')}`;
  return (
    `last answer before paint at ${round(
      medianOf(loads, (each) => each.lastAnswerMs),
      0,
    )} ms, ` +
    `${medianOf(loads, (each) => each.beforePaint)} requests before paint (${medianOf(loads, (each) => each.overNetwork)} over the network), ` +
    `critical chain ${medianOf(loads, (each) => each.chain.length)} round trips (${medianOf(loads, (each) => each.chainOverNetwork)} over the network)${chain}`
  );
}

/**
 * After the timed loads, for where a load's time goes (none of it counts in the figures):
 *  - BENCH_TRACE_DIR=<folder>: a Chromium trace of three more loads of each view on each page,
 *    `<view>-<leftover|bare><n>.json`, for chrome://tracing or Perfetto (BENCH_TRACE_CATEGORIES: more categories);
 *  - BENCH_PROFILE_DIR=<folder>: a CPU profile (sampled every 0.1 ms, or BENCH_PROFILE_INTERVAL µs) of
 *    six more loads of each of Leftover's views, `<view><n>.cpuprofile`, its `paintedMs` the load's
 *    figure (every load is slower under the profiler: its shares are the guide, not its times).
 */
async function recordDiagnostics(browser: Browser, origin: string, leftover: Loader, bare: Loader): Promise<void> {
  const traceDir = process.env.BENCH_TRACE_DIR;
  if (traceDir !== undefined) {
    // BENCH_TRACE_CATEGORIES adds more (comma-separated): `disabled-by-default-blink.debug`, say, for each style pass's selector costs.
    const more = (process.env.BENCH_TRACE_CATEGORIES ?? '').split(',').filter((category) => category !== '');
    const categories = ['toplevel', 'devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'v8', ...more];
    for (let index = 0; index < 3; index += 1) {
      for (const view of VIEWS) {
        for (const [label, loader, url] of [
          ['leftover', leftover, `${origin}${view.address}`],
          ['bare', bare, `${origin}${BARE_BASE}index.html?data=${view.key}`],
        ] as const) {
          await browser.startTracing(loader.page, { path: path.join(traceDir, `${view.key}-${label}${index}.json`), categories });
          const load = await timedLoad(loader, url);
          await browser.stopTracing();
          console.log(`traced ${view.key} on ${label} (${index}): ${load.ms.toFixed(1)} ms`);
        }
      }
    }
  }
  const profileDir = process.env.BENCH_PROFILE_DIR;
  if (profileDir !== undefined) {
    const session = await leftover.context.newCDPSession(leftover.page);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL ?? 100) });
    for (let index = 0; index < 6; index += 1) {
      for (const view of VIEWS) {
        await session.send('Profiler.start');
        const load = await timedLoad(leftover, `${origin}${view.address}`);
        const { profile } = await session.send('Profiler.stop');
        fs.writeFileSync(path.join(profileDir, `${view.key}${index}.cpuprofile`), JSON.stringify({ ...profile, paintedMs: load.ms }));
      }
    }
    await session.detach();
  }
}

export async function firstView(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  // The bare page's own loads spread from 94 to 191 ms in one run's seven: fifteen a side (decision 0117).
  const rounds = settings.quick ? 3 : 15;
  const onPhone = process.env.BENCH_FIRST_VIEW_PHONE === '1';
  const device = onPhone ? PHONE : DESKTOP;
  const bareRoot = await buildBarePage(build.webRoot);
  return withLeftoverInChromium(build, async (origin, browser) => {
    const opened = await openLedgerPage(browser, {
      origin,
      rows: ROWS,
      userName: 'bench-first-view',
      layout: onPhone ? COMPACT_LAYOUT : TABLE_LAYOUT,
      device,
    });
    await opened.context.addInitScript({ content: VIEW_PROBE });
    const leftover = await withRequestChain(opened.context, opened.page, onPhone);
    const bareContext = await browser.newContext(device);
    await bareContext.addInitScript({ content: VIEW_PROBE });
    const bare = await withRequestChain(bareContext, await bareContext.newPage(), onPhone);

    const ours = new Map<View, Load[]>();
    const theirs = new Map<View, Load[]>();
    const answerBytes = new Map<View, number>();
    const answerPaths = new Map<View, readonly string[]>();
    // One untimed load each: it says which answers the view paints from, and warms the caches.
    for (const view of VIEWS) {
      const warm = await timedLoad(leftover, `${origin}${view.address}`);
      const paths = await answersBeforePaint(leftover.page, warm.ms);
      if (paths.length === 0) throw new Error(`the ${view.name} view painted with no API answer`);
      answerPaths.set(view, paths);
      answerBytes.set(view, await writeBareAnswer(leftover.page, origin, paths, path.join(bareRoot, 'data', `${view.key}.json`)));
      await timedLoad(bare, `${origin}${BARE_BASE}index.html?data=${view.key}`);
      ours.set(view, []);
      theirs.set(view, []);
    }
    for (let turn = 0; turn < rounds; turn += 1) {
      for (const view of VIEWS) {
        const runOurs = async () => ours.get(view)?.push(await timedLoad(leftover, `${origin}${view.address}`));
        const runBare = async () => theirs.get(view)?.push(await timedLoad(bare, `${origin}${BARE_BASE}index.html?data=${view.key}`));
        if (turn % 2 === 0) {
          await runOurs();
          await runBare();
        } else {
          await runBare();
          await runOurs();
        }
      }
    }
    await recordDiagnostics(browser, origin, leftover, bare);
    await bareContext.close();

    return VIEWS.map((view) => {
      const mine = ours.get(view) ?? [];
      const bareLoads = theirs.get(view) ?? [];
      const small = [...new Set(mine.flatMap((load) => smallChunks(build.webRoot, load.requests)))];
      return result(
        `12${'abc'[VIEWS.indexOf(view)]}. navigation to ${view.name} painted, ${ROWS} rows, vs bare React page${onPhone ? ', on the phone' : ''} (median ms)`,
        'ms',
        round(median(mine.map((load) => load.ms))),
        round(median(bareLoads.map((load) => load.ms))),
        { atMost: 1.3 },
        `Leftover: ${sampleList(mine.map((load) => load.ms))}; bare: ${sampleList(bareLoads.map((load) => load.ms))}; ` +
          `Leftover: ${requestsNote(mine)}; bare: ${requestsNote(bareLoads)}; ` +
          `chunks under 1 KB before paint: ${small.length === 0 ? 'none' : small.join(', ')}; ` +
          `bare answer ${answerBytes.get(view) ?? 0} B from ${(answerPaths.get(view) ?? []).join(', ')}`,
      );
    });
  });
}
