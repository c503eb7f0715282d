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
 * take turns so both see the same machine. The probe, sign-in, seeding and the steps are shared
 * with benchmark 7 (bench/lib/page-probe.ts).
 */
import type { Browser } from '@playwright/test';
import type { PrivateBuild } from '../lib/build.js';
import {
  clickPay,
  DESKTOP,
  type LedgerPage,
  loadLedger,
  openLedgerPage,
  sampleList,
  scrollToPayableRow,
  settleAfterPay,
  TABLE_LAYOUT,
  withLeftoverInChromium,
} from '../lib/page-probe.js';
import { type BenchResult, result } from '../lib/report.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';

const SMALL_ROWS = 20;
const LARGE_ROWS = 2000;

interface Viewer extends LedgerPage {
  readonly rows: number;
  readonly loads: number[];
  readonly pays: number[];
}

async function openViewer(browser: Browser, origin: string, rows: number): Promise<Viewer> {
  const opened = await openLedgerPage(browser, { origin, rows, userName: `bench-page-${rows}`, layout: TABLE_LAYOUT, device: DESKTOP });
  return { ...opened, rows, loads: [], pays: [] };
}

async function measureLoad(viewer: Viewer, origin: string): Promise<void> {
  viewer.loads.push(await loadLedger(viewer.page, origin));
}

async function measurePay(viewer: Viewer): Promise<void> {
  await scrollToPayableRow(viewer.page, TABLE_LAYOUT);
  viewer.pays.push(await clickPay(viewer.page));
  await settleAfterPay(viewer.page, 150);
}

export async function pageSpeed(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const rounds = settings.quick ? 3 : 7;
  const paysPerRound = 2;
  return withLeftoverInChromium(build, async (origin, browser) => {
    const small = await openViewer(browser, origin, SMALL_ROWS);
    const large = await openViewer(browser, origin, LARGE_ROWS);
    // One untimed load each: the browser's cache holds the page's files for every timed one.
    for (const viewer of [small, large]) {
      await measureLoad(viewer, origin);
      viewer.loads.length = 0;
    }
    for (let turn = 0; turn < rounds; turn += 1) {
      for (const viewer of turn % 2 === 0 ? [small, large] : [large, small]) {
        await measureLoad(viewer, origin);
        for (let pay = 0; pay < paysPerRound; pay += 1) await measurePay(viewer);
      }
    }
    return [
      result(
        `5a. Pay to Pending Balance painted, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median ms)`,
        'ms',
        round(median(large.pays)),
        round(median(small.pays)),
        { atMost: 1.5 },
        `${LARGE_ROWS}: ${sampleList(large.pays)}; ${SMALL_ROWS}: ${sampleList(small.pays)}`,
      ),
      result(
        `5b. navigation to ledger painted, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median ms)`,
        'ms',
        round(median(large.loads)),
        round(median(small.loads)),
        { atMost: 2 },
        `${LARGE_ROWS}: ${sampleList(large.loads)}; ${SMALL_ROWS}: ${sampleList(small.loads)}`,
      ),
    ];
  });
}
