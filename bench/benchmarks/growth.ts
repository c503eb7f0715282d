/**
 * Benchmark 3, cost grows no faster than the data: GET of a 5,000-row ledger against GET of a
 * 500-row one, ten times the rows. Linear growth gives at most 10 (less, as fixed costs are
 * shared); anything quadratic shows up far above it.
 *  - Time: median latency, one request at a time, the two ledgers alternating on one server.
 *  - Memory: the server's peak resident memory above its idle level while it answers GETs of one
 *    ledger flat out (10 connections) for the same few seconds, each size in a fresh server process
 *    (the same database, on the same port so the same users own the same rows), so one size's heap
 *    growth cannot hide the other's. The same time, not the same number of requests: a saturated
 *    server allocates at about the same rate whatever the ledger's size, and V8 sizes its heap by
 *    that rate, so what differs between the two is the memory of the requests in flight.
 */
import fs from 'node:fs';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import type { PrivateBuild } from '../lib/build.js';
import type { ApiClient } from '../lib/http-client.js';
import { autocannon } from '../lib/load.js';
import { type BenchResult, result } from '../lib/report.js';
import { seedLedger, signIn } from '../lib/seed.js';
import { freePort, newDataDir, type ServerProcess, startLeftover } from '../lib/server-process.js';
import type { BenchSettings } from '../lib/settings.js';
import { MB, median, round } from '../lib/stats.js';

const SMALL_ROWS = 500;
const LARGE_ROWS = 5000;

async function timedGet(client: ApiClient): Promise<number> {
  const response = await client.request('GET', LEDGER_PATHS.retrieve);
  if (response.status !== 200) throw new Error(`GET answered ${response.status}`);
  return response.ms;
}

/** Peak resident memory above the idle level while one user's ledger is served under load. */
async function peakMemoryDelta(server: ServerProcess, accessToken: string, seconds: number): Promise<number> {
  const url = `${server.origin}${LEDGER_PATHS.retrieve}`;
  const headers = { authorization: `Bearer ${accessToken}` };
  // A few requests first: the code paths are compiled and the token is checked before the baseline.
  for (let index = 0; index < 5; index += 1) {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const idle = server.rssBytes();
  server.resetPeak();
  await autocannon(url, { connections: 10, seconds, headers });
  return server.peakRssBytes() - idle;
}

export async function growth(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const dataDir = newDataDir();
  const port = await freePort();
  try {
    const server = await startLeftover(build, dataDir, port);
    let small: ApiClient;
    let large: ApiClient;
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    try {
      small = await signIn(server.origin, 'bench-growth-small');
      large = await signIn(server.origin, 'bench-growth-large');
      await seedLedger(small, SMALL_ROWS);
      await seedLedger(large, LARGE_ROWS);
      const samples = settings.quick ? 30 : 150;
      for (let index = 0; index < samples + 10; index += 1) {
        const smallMs = await timedGet(small);
        const largeMs = await timedGet(large);
        if (index < 10) continue;
        smallTimes.push(smallMs);
        largeTimes.push(largeMs);
      }
      small.close();
      large.close();
    } finally {
      await server.stop();
    }

    const seconds = settings.quick ? 3 : 5;
    const deltas = new Map<string, number[]>([
      ['small', []],
      ['large', []],
    ]);
    const rounds = settings.quick ? 1 : 3;
    for (let turn = 0; turn < rounds; turn += 1) {
      for (const [which, client] of [
        ['small', small],
        ['large', large],
      ] as const) {
        const fresh = await startLeftover(build, dataDir, port);
        try {
          deltas.get(which)?.push(await peakMemoryDelta(fresh, client.accessToken, seconds));
        } finally {
          await fresh.stop();
        }
      }
    }
    const smallDelta = median(deltas.get('small') ?? []);
    const largeDelta = median(deltas.get('large') ?? []);
    const describe = (values: readonly number[]) => values.map((value) => (value / MB).toFixed(1)).join('/');
    return [
      result(
        `3a. GET ${LARGE_ROWS} rows vs ${SMALL_ROWS} rows (median ms)`,
        'ms',
        round(median(largeTimes)),
        round(median(smallTimes)),
        { atMost: 10 },
        `${smallTimes.length} pairs`,
      ),
      result(
        `3b. peak memory delta, ${LARGE_ROWS} vs ${SMALL_ROWS} rows (MB)`,
        'MB',
        round(largeDelta / MB),
        round(smallDelta / MB),
        { atMost: 10 },
        `peak RSS above idle under 10 connections for ${seconds} s, fresh process each; ${LARGE_ROWS}: ${describe(deltas.get('large') ?? [])}, ${SMALL_ROWS}: ${describe(deltas.get('small') ?? [])}`,
      ),
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
