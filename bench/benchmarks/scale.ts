/**
 * Benchmark 9, 20,000 rows feel like 20 (issue 27): the product allows 20,000 rows in a ledger
 * (decision 0028), and every other benchmark stops at 5,000. Same method as benchmarks 5 and 7:
 *  - 9a: on the Ledger view at desktop width, from the click on a row's Pay button to the row's new
 *    badge and the new Pending Balance painted, 20,000 rows against 20 (benchmark 5a's steps);
 *  - 9b: on benchmark 7's phone (CPU 4x slower, "Fast 4G", 390 x 844), first view to ledger painted
 *    for a returning user, 20,000 rows against 20 (benchmark 7c's steps);
 *  - 9c: the bytes on the wire of that first view until the ledger is painted, 20,000 rows against
 *    2,000: the page must not need every row to paint the screen it shows;
 *  - 9d: the server's answer to a Pay as the page sends it (`PATCH update-transaction?answer=changes`)
 *    with the If-Match a script would add, from sending it to its last byte, 20,000 rows against 20
 *    (medians of requests one at a time, the two users alternating): a row write must not read and
 *    order every row of the ledger.
 *  - 9e: the same answer to a Pay on a 20,000-row ledger whose rows all fall in one month (restored
 *    from a document) against 9d's 20,000-row ledger of five years, on one server (issue 34): a
 *    write must cost about the same whatever the ledger's shape.
 * Each part runs on its own server; `npm run bench -- 9d` runs one part alone (run.ts).
 */
import type { Browser } from '@playwright/test';
import { LEDGER_PATHS, ledgerEtag, type LedgerTransaction, versionOfEtag } from '../../src/contract/ledger.js';
import { ledgerChangesSchema } from '../../src/contract/ledger-changes.js';
import { YOUR_DATA_PATHS } from '../../src/contract/your-data.js';
import { addDays, isoDate } from '../../src/domain/calendar-date.js';
import type { PrivateBuild } from '../lib/build.js';
import type { ApiClient, TimedResponse } from '../lib/http-client.js';
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
import { type BenchResult, PartlyRunError, result } from '../lib/report.js';
import { seedLedger, signIn } from '../lib/seed.js';
import { newDataDir, startLeftover } from '../lib/server-process.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';
import type { WireCount } from '../lib/wire-tally.js';
import { firstViewRequests, measureFirstView, openPhone, type Phone, warmUp } from './phone.js';
import fs from 'node:fs';

const SMALL_ROWS = 20;
const MIDDLE_ROWS = 2000;
/** The product's limit (decision 0028). */
const LARGE_ROWS = 20_000;

function wants(settings: BenchSettings, part: string): boolean {
  return settings.parts.size === 0 || settings.parts.has(part);
}

// ---- 9a: Pay painted, 20,000 vs 20 rows -------------------------------------------------------

interface Viewer extends LedgerPage {
  readonly rows: number;
  readonly loads: number[];
  readonly pays: number[];
}

async function openViewer(browser: Browser, origin: string, rows: number): Promise<Viewer> {
  const opened = await openLedgerPage(browser, { origin, rows, userName: `bench-scale-${rows}`, layout: TABLE_LAYOUT, device: DESKTOP });
  return { ...opened, rows, loads: [], pays: [] };
}

async function payAtScale(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const rounds = settings.quick ? 3 : 7;
  const paysPerRound = 2;
  return withLeftoverInChromium(build, async (origin, browser) => {
    const small = await openViewer(browser, origin, SMALL_ROWS);
    const large = await openViewer(browser, origin, LARGE_ROWS);
    // One untimed load each: the browser's cache holds the page's files for every timed one.
    for (const viewer of [small, large]) await loadLedger(viewer.page, origin);
    for (let turn = 0; turn < rounds; turn += 1) {
      for (const viewer of turn % 2 === 0 ? [small, large] : [large, small]) {
        viewer.loads.push(await loadLedger(viewer.page, origin));
        for (let pay = 0; pay < paysPerRound; pay += 1) {
          await scrollToPayableRow(viewer.page, TABLE_LAYOUT);
          viewer.pays.push(await clickPay(viewer.page));
          await settleAfterPay(viewer.page, 150);
        }
      }
    }
    return [
      result(
        `9a. Pay to Pending Balance painted, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median ms)`,
        'ms',
        round(median(large.pays)),
        round(median(small.pays)),
        { atMost: 1.5 },
        `${LARGE_ROWS}: ${sampleList(large.pays)}; ${SMALL_ROWS}: ${sampleList(small.pays)}; ` +
          `navigation to ledger painted (median ms): ${LARGE_ROWS}: ${round(median(large.loads))} (${sampleList(large.loads)}); ` +
          `${SMALL_ROWS}: ${round(median(small.loads))} (${sampleList(small.loads)})`,
      ),
    ];
  });
}

// ---- 9b and 9c: the phone's first view ---------------------------------------------------------

async function firstViewAtScale(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const rounds = settings.quick ? 3 : 7;
  const firstViewsPerRound = 2;
  return withLeftoverInChromium(build, async (origin, browser) => {
    const phones: Phone[] = [];
    for (const rows of [SMALL_ROWS, MIDDLE_ROWS, LARGE_ROWS]) phones.push(await openPhone(browser, origin, rows));
    for (const each of phones) await warmUp(each, origin);
    for (let turn = 0; turn < rounds; turn += 1) {
      // Each size goes first, second and last in turn.
      const order = phones.map((_, index) => phones[(index + turn) % phones.length] as Phone);
      for (const each of order) for (let load = 0; load < firstViewsPerRound; load += 1) await measureFirstView(each, origin);
    }
    const [small, middle, large] = phones as [Phone, Phone, Phone];
    const bytes = (counts: readonly WireCount[]) => counts.map((count) => count.bytes);
    const requests = (phone: Phone) => `${phone.rows}: ${firstViewRequests(phone)}`;
    const results: BenchResult[] = [];
    if (wants(settings, 'b'))
      results.push(
        result(
          `9b. phone: first view to ledger painted, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median ms)`,
          'ms',
          round(median(large.loads)),
          round(median(small.loads)),
          { atMost: 2 },
          `${LARGE_ROWS}: ${sampleList(large.loads)}; ${SMALL_ROWS}: ${sampleList(small.loads)}; ${MIDDLE_ROWS}: ${sampleList(middle.loads)}`,
        ),
      );
    if (wants(settings, 'c'))
      results.push(
        result(
          `9c. phone: bytes on the wire of the first view, ${LARGE_ROWS} vs ${MIDDLE_ROWS} rows (median)`,
          'B',
          median(bytes(large.loadWire)),
          median(bytes(middle.loadWire)),
          { atMost: 2 },
          `${LARGE_ROWS}: ${sampleList(bytes(large.loadWire))}; ${MIDDLE_ROWS}: ${sampleList(bytes(middle.loadWire))}; ` +
            `${SMALL_ROWS}: ${sampleList(bytes(small.loadWire))}; each first view (median): ${[large, middle, small].map(requests).join('; ')}; ` +
            `over the network in the last one (${LARGE_ROWS}): ${large.loadWire.at(-1)?.labels.join(', ') ?? 'none'}`,
        ),
      );
    return results;
  });
}

// ---- 9d: the server's answer to a Pay ----------------------------------------------------------

/** A user paying rows of their ledger as the page does, one PENDING row after another, with the version it holds. */
interface Payer {
  readonly rows: number;
  readonly client: ApiClient;
  pending: LedgerTransaction[];
  version: string;
  readonly times: number[];
}

function versionOfAnswer(response: TimedResponse): string {
  const etag = response.headers.etag;
  const version = typeof etag === 'string' ? versionOfEtag(etag) : null;
  if (version === null) throw new Error(`no ledger ETag in an answer of ${response.status}: ${response.body.slice(0, 200)}`);
  return version;
}

/** The user's ledger as it is now: its PENDING rows, from the top, and its version. */
async function readPayer(payer: Payer): Promise<void> {
  const response = await payer.client.request('GET', LEDGER_PATHS.retrieve);
  if (response.status !== 200) throw new Error(`GET ledger answered ${response.status}`);
  const { ledger } = JSON.parse(response.body) as { ledger: { transactions: LedgerTransaction[] } };
  payer.pending = ledger.transactions.filter((row) => row.status === 'PENDING');
  payer.version = versionOfAnswer(response);
}

async function openPayer(origin: string, rows: number): Promise<Payer> {
  const client = await signIn(origin, `bench-scale-pay-${rows}`);
  await seedLedger(client, rows);
  const payer: Payer = { rows, client, pending: [], version: '', times: [] };
  await readPayer(payer);
  return payer;
}

/** Pays the next PENDING row; the ms of its answer. A small ledger paid through is made anew first (untimed). */
async function payNext(payer: Payer): Promise<number> {
  if (payer.pending.length === 0) {
    // Every row paid: a new ledger over the same dates (untimed), and the top-up rows again.
    const response = await payer.client.request('GET', LEDGER_PATHS.retrieve);
    const { ledger } = JSON.parse(response.body) as { ledger: { startDate: string; endDate: string; openingBalance: number } };
    const created = (await payer.client.json('POST', LEDGER_PATHS.create, {
      ledger: { startDate: ledger.startDate, endDate: ledger.endDate, currentBalance: ledger.openingBalance },
    })) as { ledger: { transactions: unknown[] } };
    let count = created.ledger.transactions.length;
    while (count < payer.rows) {
      const added = await payer.client.json('POST', `${LEDGER_PATHS.addTransaction}?answer=changes`, {
        date: ledger.endDate,
        name: `Again ${count}`,
        type: 'D',
        amount: 12.34,
      });
      count = ledgerChangesSchema.parse(added).changes.count;
    }
    await readPayer(payer);
  }
  const row = payer.pending.shift() as LedgerTransaction;
  const response = await payer.client.request(
    'PATCH',
    `${LEDGER_PATHS.updateTransaction}?answer=changes`,
    { ...row, status: 'PAID' },
    { 'if-match': ledgerEtag(payer.version) },
  );
  if (response.status !== 200) throw new Error(`the Pay answered ${response.status}: ${response.body.slice(0, 300)}`);
  const { changes } = ledgerChangesSchema.parse(JSON.parse(response.body));
  if (changes.rows[0]?.id !== row.id || changes.count !== payer.rows)
    throw new Error(`the Pay of ${row.id} on ${payer.rows} rows answered other changes: ${response.body.slice(0, 400)}`);
  payer.version = versionOfAnswer(response);
  return response.ms;
}

async function payAnswerAtScale(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult> {
  const dataDir = newDataDir();
  const server = await startLeftover(build, dataDir);
  try {
    const small = await openPayer(server.origin, SMALL_ROWS);
    const large = await openPayer(server.origin, LARGE_ROWS);
    const samples = settings.quick ? 40 : 200;
    const warmup = 10;
    for (let index = 0; index < samples + warmup; index += 1) {
      for (const payer of index % 2 === 0 ? [small, large] : [large, small]) {
        const ms = await payNext(payer);
        if (index >= warmup) payer.times.push(ms);
      }
    }
    small.client.close();
    large.client.close();
    return result(
      `9d. server's answer to a Pay (changes, If-Match), ${LARGE_ROWS} vs ${SMALL_ROWS} rows (median ms)`,
      'ms',
      round(median(large.times)),
      round(median(small.times)),
      { atMost: 1.5 },
      `${samples} Pays a side, alternating; the ${SMALL_ROWS}-row ledger is made anew (untimed) once every row is paid`,
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- 9e: a Pay on a one-month ledger -----------------------------------------------------------

const ONE_MONTH = { startDate: '2027-01-01', endDate: '2027-01-31' };

/**
 * A restore document (decision 0023) of one account whose ledger holds `rows` PENDING rows, all in
 * January 2027: dates spread over the month, 60 bill names, a paycheck every tenth row.
 */
function oneMonthDocument(rows: number) {
  const createdAt = '2026-11-21T12:00:00.000Z';
  const transactions = Array.from({ length: rows }, (_, index) => ({
    id: `one-month-${index}`,
    sequence: index + 1,
    date: addDays(isoDate(ONE_MONTH.startDate), Math.floor((index * 31) / rows)),
    name: index % 10 === 0 ? 'Acme Paycheck' : `Bill ${String(index % 60).padStart(2, '0')}`,
    type: index % 10 === 0 ? 'C' : 'D',
    // Whole cents over 100: dollars with at most two decimals, as the restore checks.
    amount: index % 10 === 0 ? 2150 : (2500 + (index % 60) * 713) / 100,
    status: 'PENDING',
    source: null,
  }));
  return {
    format: 'leftover-export',
    version: 2,
    exportedAt: createdAt,
    accounts: [
      {
        id: 'one-month',
        name: 'Checking',
        kind: 'CHECKING',
        primary: true,
        card: null,
        createdAt,
        ledger: {
          ...ONE_MONTH,
          openingBalance: 1000,
          nextSequence: rows + 1,
          transactions,
          skippedOccurrences: [],
          importedStatementRows: [],
          removedSchedules: [],
        },
      },
    ],
    deposits: [],
    expenses: [],
  };
}

async function openOneMonthPayer(origin: string, rows: number): Promise<Payer> {
  const client = await signIn(origin, `bench-scale-pay-one-month-${rows}`);
  const restored = await client.request('POST', YOUR_DATA_PATHS.restore, oneMonthDocument(rows));
  if (restored.status !== 200) throw new Error(`the restore answered ${restored.status}: ${restored.body.slice(0, 300)}`);
  const payer: Payer = { rows, client, pending: [], version: '', times: [] };
  await readPayer(payer);
  return payer;
}

async function payOnOneMonthLedger(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult> {
  const dataDir = newDataDir();
  // Checking a 3 MB restore document may take a worker more than its 10 s on a busy machine. One user's
  // connection idles while the other's ledger is made: kept open, it is never closed under a request.
  const server = await startLeftover(build, dataDir, undefined, {
    env: { FILE_WORKER_TIMEOUT_MS: '120000', KEEP_ALIVE_TIMEOUT_MS: '600000', CONNECTION_TIMEOUT_MS: '600000' },
  });
  try {
    const spread = await openPayer(server.origin, LARGE_ROWS);
    const oneMonth = await openOneMonthPayer(server.origin, LARGE_ROWS);
    const samples = settings.quick ? 40 : 200;
    const warmup = 10;
    for (let index = 0; index < samples + warmup; index += 1) {
      for (const payer of index % 2 === 0 ? [spread, oneMonth] : [oneMonth, spread]) {
        const ms = await payNext(payer);
        if (index >= warmup) payer.times.push(ms);
      }
    }
    spread.client.close();
    oneMonth.client.close();
    return result(
      `9e. Pay on a ${LARGE_ROWS}-row one-month ledger vs 9d's ${LARGE_ROWS}-row Pay (median ms)`,
      'ms',
      round(median(oneMonth.times)),
      round(median(spread.times)),
      { atMost: 2 },
      `${samples} Pays a side, alternating, as 9d (changes, If-Match); one month: January 2027, restored; 9d's: five years of schedules`,
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each part on its own server: one that cannot run costs only its own figures (PartlyRunError). */
export async function scale(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const parts: [string, () => Promise<BenchResult[]>][] = [];
  if (wants(settings, 'd')) parts.push(['9d', async () => [await payAnswerAtScale(build, settings)]]);
  if (wants(settings, 'e')) parts.push(['9e', async () => [await payOnOneMonthLedger(build, settings)]]);
  if (wants(settings, 'a')) parts.push(['9a', () => payAtScale(build, settings)]);
  if (wants(settings, 'b') || wants(settings, 'c')) parts.push(['9b/9c', () => firstViewAtScale(build, settings)]);
  const results: BenchResult[] = [];
  const failed: string[] = [];
  for (const [name, run] of parts) {
    try {
      results.push(...(await run()));
    } catch (error) {
      console.error(`  ${name} could not run:`, error);
      failed.push(name);
    }
  }
  if (failed.length > 0) throw new PartlyRunError(`${failed.join(', ')} could not run`, results);
  return results;
}
