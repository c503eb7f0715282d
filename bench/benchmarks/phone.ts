/**
 * Benchmark 7, fast on a phone: the page in Chromium with the CPU throttled 4x and a "Fast 4G"
 * network (150 ms round trip, 9 Mbps down, 1.5 Mbps up), through the Chrome DevTools Protocol's
 * network and CPU emulation, in a phone's viewport (390 x 844, where the ledger is the compact
 * list). On a 2,000-row ledger against a 20-row one:
 *  - first view to ledger painted: from the start of navigation to the ledger painted as a user
 *    sees it, for a returning user (one untimed load first, so the service worker holds the page's
 *    own files);
 *  - Pay to Pending Balance painted, as benchmark 5a;
 *  - bytes transferred per Pay: every request the page makes from the click until the new balance
 *    is painted, its answer has come and a short settle after, counted as it goes over the wire
 *    (bench/lib/wire-tally.ts);
 *  - and, on the 2,000-row ledger alone, Pay painted against one frame at 60 Hz (issue 24): the page
 *    paints the row's badge and the balances on the tap, so the 150 ms round trip is no longer in it.
 * Two users, each in their own browser context, take turns as in benchmark 5, whose probe, sign-in,
 * seeding and steps this shares (bench/lib/page-probe.ts). Sign-in and seeding are set-up, run
 * before the emulation and untimed.
 */
import type { Browser, BrowserContextOptions } from '@playwright/test';
import type { PrivateBuild } from '../lib/build.js';
import {
  clickPay,
  COMPACT_LAYOUT,
  type LedgerPage,
  ledgerPaintedWallTime,
  loadLedger,
  openLedgerPage,
  sampleList,
  scrollToPayableRow,
  settleAfterPay,
  withLeftoverInChromium,
} from '../lib/page-probe.js';
import { ApiClient } from '../lib/http-client.js';
import { type BenchResult, result } from '../lib/report.js';
import { refillLedger } from '../lib/seed.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';
import { type WireCount, WireTally } from '../lib/wire-tally.js';

const SMALL_ROWS = 20;
const LARGE_ROWS = 2000;

/** A 6.1-inch phone held upright, 3 device pixels per CSS pixel: under 1100 px, so the ledger is the compact list. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
};

/**
 * "Fast 4G" in the figures. Chromium applies the latency once to every request (from
 * sending it to its response headers), not to each round trip of a connection, and the
 * throughputs to all of the page's requests together.
 */
export const FAST_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: 9_000_000 / 8,
  uploadThroughput: 1_500_000 / 8,
  connectionType: 'cellular4g',
} as const;
export const CPU_SLOWDOWN = 4;

/** After the Pay's answer has come, to catch requests the Pay sets off after it (a follow-up read, say). */
const PAY_SETTLE_MS = 300;
/** One frame at 60 Hz, in ms: 7d's baseline. */
const FRAME_MS = 1000 / 60;

export interface Phone extends LedgerPage {
  readonly rows: number;
  readonly wire: WireTally;
  readonly loads: number[];
  readonly loadWire: WireCount[];
  readonly pays: number[];
  readonly payWire: WireCount[];
}

export async function openPhone(browser: Browser, origin: string, rows: number): Promise<Phone> {
  const opened = await openLedgerPage(browser, { origin, rows, userName: `bench-phone-${rows}`, layout: COMPACT_LAYOUT, device: PHONE });
  // Signed in and seeded at full speed (set-up); from here on the page runs as on the phone. The
  // emulation belongs to this page's target and stays on across its navigations.
  const session = await opened.context.newCDPSession(opened.page);
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', FAST_4G);
  await session.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return { ...opened, rows, wire: new WireTally(session), loads: [], loadWire: [], pays: [], payWire: [] };
}

/**
 * A returning user's start: the first load registers the page's service worker (main.tsx, once
 * the view has painted, decision 0119), which precaches index.html and the hashed scripts and styles; once it is
 * active, later navigations get those from it, and only the API calls go to the network.
 */
export async function warmUp(phone: Phone, origin: string): Promise<void> {
  await loadLedger(phone.page, origin);
  const active = await phone.page.evaluate(async () => {
    if (!('serviceWorker' in navigator)) return false;
    const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000));
    return Promise.race([navigator.serviceWorker.ready.then(() => true), timeout]);
  });
  if (!active)
    console.warn(
      `  benchmark 7: no active service worker for the ${phone.rows}-row user; first views load the page's files from the HTTP cache`,
    );
}

export async function measureFirstView(phone: Phone, origin: string): Promise<void> {
  phone.wire.start();
  phone.loads.push(await loadLedger(phone.page, origin));
  // The first view is what the page asked for until the ledger was painted; what it asks for when
  // idle afterwards (the budget list, decision 0092) is not, however soon this side notices the paint.
  phone.loadWire.push(await phone.wire.stop({ sentBefore: await ledgerPaintedWallTime(phone.page) }));
}

/** The phone's ledger made again through the API, every row pending (set-up, untimed: the first views that follow load it). */
async function refill(phone: Phone, origin: string): Promise<void> {
  const client = new ApiClient(origin, phone.token);
  try {
    await refillLedger(client, phone.rows);
  } finally {
    client.close();
  }
}

async function measurePay(phone: Phone): Promise<void> {
  const { page } = phone;
  await scrollToPayableRow(page, COMPACT_LAYOUT);
  phone.wire.start();
  phone.pays.push(await clickPay(page));
  await settleAfterPay(page, PAY_SETTLE_MS);
  phone.payWire.push(await phone.wire.stop());
}

/** The distinct requests and how often each came, e.g. "PATCH /api/ledger/update-transaction x10". */
function requestSummary(counts: readonly WireCount[]): string {
  const seen = new Map<string, number>();
  for (const count of counts) for (const label of count.labels) seen.set(label, (seen.get(label) ?? 0) + 1);
  return [...seen].map(([label, times]) => `${label} x${times}`).join(', ') || 'none';
}

export function firstViewRequests(phone: Phone): string {
  const network = median(phone.loadWire.map((count) => count.overNetwork));
  const local = median(phone.loadWire.map((count) => count.servedLocally));
  const kb = median(phone.loadWire.map((count) => count.bytes)) / 1024;
  return `${network} requests over the network (${kb.toFixed(1)} KB), ${local} from the service worker or cache`;
}

export async function phone(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const rounds = settings.quick ? 3 : 7;
  // A first view takes about a second and swings more than a Pay with whatever else the machine
  // runs, so each turn takes two (14 a side in a full run). A Pay swings too, from about 25 to about
  // 100 ms on either ledger: four a turn (28 a side), each turn on its ledger made again, so the
  // 20-row one always has rows to pay.
  const firstViewsPerRound = 2;
  const paysPerRound = 4;
  return withLeftoverInChromium(build, async (origin, browser) => {
    const small = await openPhone(browser, origin, SMALL_ROWS);
    const large = await openPhone(browser, origin, LARGE_ROWS);
    for (const each of [small, large]) await warmUp(each, origin);
    for (let turn = 0; turn < rounds; turn += 1) {
      for (const each of turn % 2 === 0 ? [small, large] : [large, small]) {
        await refill(each, origin);
        for (let load = 0; load < firstViewsPerRound; load += 1) await measureFirstView(each, origin);
        for (let pay = 0; pay < paysPerRound; pay += 1) await measurePay(each);
      }
    }
    const bytes = (counts: readonly WireCount[]) => counts.map((count) => count.bytes);
    return [
      result(
        `7a. phone: Pay to Pending Balance painted, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median ms)`,
        'ms',
        round(median(large.pays)),
        round(median(small.pays)),
        { atMost: 1.2 },
        `${LARGE_ROWS}: ${sampleList(large.pays)}; ${SMALL_ROWS}: ${sampleList(small.pays)}`,
      ),
      result(
        `7b. phone: bytes transferred per Pay, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median)`,
        'B',
        median(bytes(large.payWire)),
        median(bytes(small.payWire)),
        { atMost: 2 },
        `${LARGE_ROWS}: ${sampleList(bytes(large.payWire))}; ${SMALL_ROWS}: ${sampleList(bytes(small.payWire))}; ` +
          `requests: ${LARGE_ROWS}: ${requestSummary(large.payWire)}; ${SMALL_ROWS}: ${requestSummary(small.payWire)}`,
      ),
      result(
        `7c. phone: first view to ledger painted, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median ms)`,
        'ms',
        round(median(large.loads)),
        round(median(small.loads)),
        { atMost: 1.5 },
        `${LARGE_ROWS}: ${sampleList(large.loads)}; ${SMALL_ROWS}: ${sampleList(small.loads)}; ` +
          `each first view (median): ${LARGE_ROWS}: ${firstViewRequests(large)}; ${SMALL_ROWS}: ${firstViewRequests(small)}; ` +
          `over the network in the last one: ${large.loadWire.at(-1)?.labels.join(', ') ?? 'none'}`,
      ),
      result(
        `7d. phone: Pay painted (median ms) vs one frame at 60 Hz, ${LARGE_ROWS} rows`,
        'ms',
        round(median(large.pays)),
        round(FRAME_MS),
        { atMost: 6 },
        `from the click to the row's badge and the Pending Balance painted; ${LARGE_ROWS}: ${sampleList(large.pays)}`,
      ),
    ];
  });
}
