/**
 * Benchmark 13, safe to spend and "Can I afford it?" cost nothing the user waits for (issue 36's
 * "Done when"), against the built server:
 *  - 13a Home's first view: from the start of navigation to Home (`/`) painted as a user sees it
 *    (benchmark 5b's method: a probe in the page notes the frame after safe to spend's line and
 *    the Summary's lowest balance ahead are in the DOM), for a user with "Keep at least" and everyday
 *    spending set against a user with neither (Home as it was before them), both on a 2,000-row
 *    ledger of the same plan, in Chromium at desktop width, taking turns in their own contexts;
 *  - 13b POST /api/what-if (one purchase) against GET /api/ledger/forecast, one user with a
 *    20,000-row ledger and everyday spending set, alternating one request at a time over one
 *    kept-alive connection, from sending to the answer's last byte.
 */
import type { Browser, Page } from '@playwright/test';
import { ENDPOINTS } from '../../src/contract/common.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { WHAT_IF_PATHS } from '../../src/contract/what-if.js';
import type { PrivateBuild } from '../lib/build.js';
import { ApiClient } from '../lib/http-client.js';
import {
  bringTabForward,
  DESKTOP,
  gotoPainted,
  REPORT_PAINT,
  sampleList,
  signInInBrowser,
  withLeftoverInChromium,
} from '../lib/page-probe.js';
import { type BenchResult, result } from '../lib/report.js';
import { seedLedger, signIn } from '../lib/seed.js';
import { startLeftover, newDataDir } from '../lib/server-process.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';
import fs from 'node:fs';

const HOME_ROWS = 2000;
const WHAT_IF_ROWS = 20_000;
const PROFILE = ENDPOINTS.updateProfile.path;
/** How long a page is left alone after its timed load before the next one starts (loadHome). */
const SETTLE_MS = 400;
/** What the user with the settings keeps back and spends a week. */
const SETTINGS = { buffer: 50, everydaySpending: { weekly: 150 } };

/**
 * Runs before the page's scripts: says on the console (REPORT_PAINT) the frame after Home shows its answer (safe to spend's line
 * and the lowest balance ahead; with everyday spending, its sentence too). The seeded ledgers start
 * in 2027, so no pay period is current yet. Plain JavaScript
 * text, as benchmark 5's probe, for the same reason.
 */
function homeProbe(withEveryday: boolean): string {
  return `(() => {
  const ready = () =>
    document.querySelector('.safe-to-spend') !== null &&
    (document.body?.textContent ?? '').includes('Lowest balance ahead') &&
    (${JSON.stringify(!withEveryday)} || (document.body?.textContent ?? '').includes('includes everyday spending'));
  let noted = false;
  const observer = new MutationObserver(() => {
    if (!noted && ready()) {
      noted = true;
      requestAnimationFrame(() => setTimeout(() => ${REPORT_PAINT}(performance.now()), 0));
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
})();`;
}

interface HomeViewer {
  readonly page: Page;
  readonly label: string;
  readonly loads: number[];
}

async function openHome(browser: Browser, origin: string, withSettings: boolean): Promise<HomeViewer> {
  const context = await browser.newContext(DESKTOP);
  await context.addInitScript({ content: homeProbe(withSettings) });
  const page = await context.newPage();
  const token = await signInInBrowser(page, origin, `bench-home-${withSettings ? 'settings' : 'plain'}`, '/');
  const client = new ApiClient(origin, token);
  try {
    await seedLedger(client, HOME_ROWS);
    if (withSettings) await client.json('PATCH', PROFILE, SETTINGS);
  } finally {
    client.close();
  }
  return { page, label: withSettings ? 'with the settings' : 'without', loads: [] };
}

async function loadHome(page: Page, origin: string): Promise<number> {
  await bringTabForward(page);
  const ms = await gotoPainted(page, `${origin}/`);
  // The page's work after its paint (the chunks it loads when idle, its later reads) would otherwise
  // run beside the other user's timed load: each load that followed the other user's was 30 to 60 ms
  // slower than one that followed its own, for both users alike.
  await page.waitForTimeout(SETTLE_MS);
  return ms;
}

async function homeFirstView(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult> {
  // Each load's own time moves by tens of ms from load to load (118 to 211 ms in one run, for both
  // users alike), so nine a side let the medians differ by 15% with nothing changed: 25 a side.
  const rounds = settings.quick ? 3 : 25;
  return withLeftoverInChromium(build, async (origin, browser) => {
    const plain = await openHome(browser, origin, false);
    const set = await openHome(browser, origin, true);
    // One untimed load each: the browser's cache holds the page's files for every timed one.
    for (const viewer of [plain, set]) await loadHome(viewer.page, origin);
    for (let turn = 0; turn < rounds; turn += 1) {
      for (const viewer of turn % 2 === 0 ? [plain, set] : [set, plain]) viewer.loads.push(await loadHome(viewer.page, origin));
    }
    return result(
      `13a. Home's first view painted, safe to spend with Keep at least and everyday spending vs without, ${HOME_ROWS} rows (median ms)`,
      'ms',
      round(median(set.loads)),
      round(median(plain.loads)),
      { atMost: 1.1 },
      `${set.label}: ${sampleList(set.loads)}; ${plain.label}: ${sampleList(plain.loads)}`,
    );
  });
}

async function whatIfAtScale(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult> {
  const samples = settings.quick ? 5 : 21;
  const dataDir = newDataDir();
  const server = await startLeftover(build, dataDir);
  try {
    const client = await signIn(server.origin, 'bench-what-if');
    try {
      const ledger = await seedLedger(client, WHAT_IF_ROWS);
      await client.json('PATCH', PROFILE, SETTINGS);
      // A purchase in the ledger's first year: on or after any today this runs on, within the ledger.
      const body = { items: [{ date: ledger.startDate > '2027-06-15' ? ledger.startDate : '2027-06-15', amount: 400 }] };
      const forecasts: number[] = [];
      const whatIfs: number[] = [];
      const timed = async (method: string, path: string, payload?: unknown) => {
        const answer = await client.request(method, path, payload);
        if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
        return answer.ms;
      };
      // Untimed once each: code paths compiled, the rows read into the server's caches alike.
      await timed('GET', LEDGER_PATHS.forecast);
      await timed('POST', WHAT_IF_PATHS.whatIf, body);
      for (let turn = 0; turn < samples; turn += 1) {
        if (turn % 2 === 0) {
          forecasts.push(await timed('GET', LEDGER_PATHS.forecast));
          whatIfs.push(await timed('POST', WHAT_IF_PATHS.whatIf, body));
        } else {
          whatIfs.push(await timed('POST', WHAT_IF_PATHS.whatIf, body));
          forecasts.push(await timed('GET', LEDGER_PATHS.forecast));
        }
      }
      return result(
        `13b. POST /api/what-if vs GET /api/ledger/forecast, ${WHAT_IF_ROWS} rows with everyday spending (median ms)`,
        'ms',
        round(median(whatIfs)),
        round(median(forecasts)),
        { atMost: 1.5 },
        `what-if: ${sampleList(whatIfs)}; forecast: ${sampleList(forecasts)}`,
      );
    } finally {
      client.close();
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const wants = (settings: BenchSettings, part: string) => settings.parts.size === 0 || settings.parts.has(part);

export async function safeToSpend(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  if (wants(settings, 'a')) results.push(await homeFirstView(build, settings));
  if (wants(settings, 'b')) results.push(await whatIfAtScale(build, settings));
  return results;
}
