/**
 * Benchmark 10, start fast and idle light (issue 27): Leftover's built server started as `npm start`
 * starts it (a new node process, the embedded defaults: a fresh SQLite file in a fresh data folder,
 * the development provider) against a bare Fastify server with the same database driver
 * (bench/servers/bare-readyz-server.ts: better-sqlite3 opening a SQLite file, /readyz running
 * `select 1`), started the same way:
 *  - 10a: from spawning the process to the first 200 from /readyz, in ms;
 *  - 10b: resident memory (VmRSS) after that and 100 more requests to /readyz, one at a time.
 * Each round starts every server once, in an order that turns from round to round; the figures are
 * medians. With ACTUAL_SYNC_SERVER naming the folder @actual-app/sync-server was installed into
 * (`npm install @actual-app/sync-server` there, outside the repository), Actual Budget's sync server
 * takes its turn in every round too, started as its package starts it (`actual-server`, a fresh
 * data folder, its /health route), and its figures go in the notes. The targets are Actual's ratios
 * to the bare server as measured on this machine (docs/PERFORMANCE.md, "Benchmark 10").
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { PrivateBuild } from '../lib/build.js';
import { type BenchResult, result } from '../lib/report.js';
import {
  freePort,
  newDataDir,
  type ServerProcess,
  startBareReadyzServer,
  startLeftover,
  startProcess,
  type StartOptions,
} from '../lib/server-process.js';
import type { BenchSettings } from '../lib/settings.js';
import { MB, median, round } from '../lib/stats.js';

/**
 * Actual Budget's sync server (26.9.0) against the bare server on this machine: the medians of 56
 * interleaved starts each (four runs of this benchmark and one of the same method), 2026-11-26
 * 00:13-00:35 UTC, load average 4 to 8 (docs/PERFORMANCE.md, "Benchmark 10"): 1,033 ms against
 * 351 ms (2.947) and 114.7 MB against 69.1 MB (1.660), cut to two decimals. Leftover passes when its
 * ratio is at or under Actual's: it starts as fast, and idles as light, as Actual does here.
 */
const ACTUAL_START_RATIO = 2.94;
const ACTUAL_RSS_RATIO = 1.66;

const REQUESTS_AFTER_START = 100;
/** Ready checks this often: the start figure is late by at most this much, alike for every server. */
const POLL_MS = 5;
/** Every server listens on, and is asked at, the loopback address only. */
const HOST = '127.0.0.1';
const START: StartOptions = { host: HOST, pollMs: POLL_MS };

interface Sample {
  readonly readyMs: number;
  readonly rssMb: number;
}

interface Contender {
  readonly label: string;
  readonly readyPath: string;
  start(dataDir: string): Promise<ServerProcess>;
}

/** The folder @actual-app/sync-server was installed into, its entry and version, when ACTUAL_SYNC_SERVER names one. */
function actualSyncServer(): { readonly entry: string; readonly version: string } | undefined {
  const folder = process.env.ACTUAL_SYNC_SERVER;
  if (!folder) return undefined;
  const packageFolder = path.join(folder, 'node_modules/@actual-app/sync-server');
  const entry = path.join(packageFolder, 'build/bin/actual-server.js');
  if (!fs.existsSync(entry))
    throw new Error(`ACTUAL_SYNC_SERVER=${folder}: no ${entry}; run \`npm install @actual-app/sync-server\` there`);
  const { version } = JSON.parse(fs.readFileSync(path.join(packageFolder, 'package.json'), 'utf8')) as { version: string };
  return { entry, version };
}

/** Actual's server as its `actual-server` command starts it: production mode, its data in a fresh folder. */
async function startActual(entry: string, dataDir: string): Promise<ServerProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    ACTUAL_PORT: String(port),
    ACTUAL_HOSTNAME: HOST,
    ACTUAL_DATA_DIR: dataDir,
  };
  return startProcess(entry, dataDir, env, '/health', port, START);
}

/** `count` GETs of `path`, one at a time over one kept-alive connection; each must answer 200. */
async function requestInTurn(origin: string, path: string, count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let sent = 0; sent < count; sent += 1) {
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(`${origin}${path}`, { agent }, (response) => {
            response.resume();
            response.once('end', () => resolve(response.statusCode ?? 0));
            response.once('error', reject);
          })
          .once('error', reject);
      });
      if (status !== 200) throw new Error(`GET ${origin}${path} answered ${status}`);
    }
  } finally {
    agent.destroy();
  }
}

async function sample(contender: Contender): Promise<Sample> {
  const dataDir = newDataDir();
  try {
    const server = await contender.start(dataDir);
    try {
      await requestInTurn(server.origin, contender.readyPath, REQUESTS_AFTER_START);
      return { readyMs: server.readyMs, rssMb: server.rssBytes() / MB };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function summary(label: string, samples: readonly Sample[]): string {
  return `${label} ${round(median(samples.map((each) => each.readyMs)), 0)} ms, ${round(median(samples.map((each) => each.rssMb)), 1)} MB`;
}

export async function startup(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const actual = actualSyncServer();
  const contenders: Contender[] = [
    {
      label: 'Leftover',
      readyPath: '/readyz',
      start: (dataDir) => startLeftover(build, dataDir, undefined, { ...START, readyPath: '/readyz' }),
    },
    { label: 'bare', readyPath: '/readyz', start: (dataDir) => startBareReadyzServer(build, dataDir, START) },
  ];
  if (actual)
    contenders.push({ label: `Actual ${actual.version}`, readyPath: '/health', start: (dataDir) => startActual(actual.entry, dataDir) });

  // One untimed start each, so the files every server reads are in the page cache for all alike.
  for (const contender of contenders) await sample(contender);
  const rounds = settings.quick ? 3 : 11;
  const samples = new Map<Contender, Sample[]>(contenders.map((contender) => [contender, []]));
  for (let turn = 0; turn < rounds; turn += 1) {
    // Whoever went first last round goes last this round: the machine's other work lands on all alike.
    const order = contenders.map((_each, index) => contenders[(index + turn) % contenders.length] as Contender);
    for (const contender of order) samples.get(contender)?.push(await sample(contender));
  }

  const [ours = [], bare = [], theirs = []] = contenders.map((contender) => samples.get(contender) ?? []);
  const figures = (pick: (each: Sample) => number) => ({
    ours: median(ours.map(pick)),
    bare: median(bare.map(pick)),
    actual: theirs.length > 0 ? median(theirs.map(pick)) : undefined,
  });
  const start = figures((each) => each.readyMs);
  const rss = figures((each) => each.rssMb);
  const listed = (values: readonly Sample[], pick: (each: Sample) => number, digits: number) =>
    values.map((each) => round(pick(each), digits)).join('/');
  const actualNote = (measured: { actual?: number | undefined; bare: number }, unit: string, digits: number) =>
    actual && measured.actual !== undefined
      ? `Actual ${actual.version} ${round(measured.actual, digits)} ${unit} (ratio ${(measured.actual / measured.bare).toFixed(3)})`
      : 'Actual not run (set ACTUAL_SYNC_SERVER)';
  const notes = (pick: (each: Sample) => number, measured: typeof start, unit: string, digits: number) =>
    `Leftover ${round(measured.ours, digits)} ${unit}, bare Fastify + better-sqlite3 ${round(measured.bare, digits)} ${unit}, ` +
    `${actualNote(measured, unit, digits)}; target = Actual's ratio on this machine; ${rounds} rounds: ` +
    contenders.map((contender) => `${contender.label}: ${listed(samples.get(contender) ?? [], pick, digits)}`).join('; ');

  console.log(`  ${contenders.map((contender) => summary(contender.label, samples.get(contender) ?? [])).join('; ')}`);
  return [
    result(
      '10a. start to first /readyz 200 vs bare Fastify (median ms)',
      'ms',
      start.ours,
      start.bare,
      { atMost: ACTUAL_START_RATIO },
      notes((each) => each.readyMs, start, 'ms', 0),
    ),
    result(
      '10b. RSS after start and 100 requests vs bare Fastify (MB)',
      'MB',
      rss.ours,
      rss.bare,
      { atMost: ACTUAL_RSS_RATIO },
      notes((each) => each.rssMb, rss, 'MB', 1),
    ),
  ];
}
