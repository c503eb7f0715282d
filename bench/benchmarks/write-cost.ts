/**
 * Benchmark 2, writes cost about a read. On one server:
 *  - PATCH update-transaction (paying a row) on a 5,000-row ledger against GET of the same ledger:
 *    both answer the whole ledger, so the ratio is what the write itself adds (the lock, the row
 *    check, the update and a durable commit);
 *  - create-ledger over five years from 2 deposits and 25 expenses against GET of the result: what
 *    generating and storing ~1,800 rows adds to answering them;
 *  - changing an expense's amount (PUT, which re-projects that expense's future rows in the same
 *    transaction: about 60 of a 5-year ledger) against GET of the ledger.
 * Requests run one at a time, alternating write and read, and the figures are medians.
 */
import fs from 'node:fs';
import { withId } from '../../src/contract/common.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { type Ledger, LEDGER_PATHS } from '../../src/contract/ledger.js';
import type { PrivateBuild } from '../lib/build.js';
import type { ApiClient } from '../lib/http-client.js';
import { type BenchResult, result } from '../lib/report.js';
import { addSchedules, createLedgerBody, plannedRowCount, schedulePlan, seedLedger, seedSchedulesAndLedger, signIn } from '../lib/seed.js';
import { newDataDir, startLeftover } from '../lib/server-process.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';

const UPDATE_LEDGER_ROWS = 5000;

async function timed(client: ApiClient, method: string, path: string, body?: unknown): Promise<number> {
  const response = await client.request(method, path, body);
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${response.body.slice(0, 300)}`);
  return response.ms;
}

async function updateVersusRead(client: ApiClient, ledger: Ledger, samples: number): Promise<BenchResult> {
  // Every PATCH pays a different PENDING row: a real status move, never a no-op.
  const rows = ledger.transactions.filter((row) => row.status === 'PENDING');
  const warmup = 10;
  if (rows.length < samples + warmup) throw new Error('not enough PENDING rows to pay');
  const patches: number[] = [];
  const reads: number[] = [];
  for (let index = 0; index < samples + warmup; index += 1) {
    const row = rows[index];
    if (!row) break;
    const patch = await timed(client, 'PATCH', LEDGER_PATHS.updateTransaction, { ...row, status: 'PAID' });
    const read = await timed(client, 'GET', LEDGER_PATHS.retrieve);
    if (index < warmup) continue;
    patches.push(patch);
    reads.push(read);
  }
  const patch = median(patches);
  const read = median(reads);
  return result(
    `2a. PATCH pay vs GET, ${UPDATE_LEDGER_ROWS} rows (median ms)`,
    'ms',
    round(patch),
    round(read),
    { atMost: 1.5 },
    `${samples} pairs`,
  );
}

interface CreateTimes {
  readonly creates: number[];
  readonly reads: number[];
  rows: number;
}

/**
 * A user who has added their 2 deposits and 25 expenses creates a 5-year ledger, then reads it.
 * With `fresh`, every sample is a new user's first ledger; otherwise one user replaces theirs each
 * time, which also deletes the ~1,800 rows of the previous one.
 */
async function createVersusRead(origin: string, samples: number, fresh: boolean): Promise<CreateTimes> {
  const plan = schedulePlan(60, 25);
  const times: CreateTimes = { creates: [], reads: [], rows: 0 };
  const warmup = 3;
  let client: ApiClient | undefined;
  for (let index = 0; index < samples + warmup; index += 1) {
    if (fresh || !client) {
      client?.close();
      client = await signIn(origin, `bench-create-${fresh ? 'first' : 'replace'}-${index}`);
      await addSchedules(client, plan);
    }
    const create = await timed(client, 'POST', LEDGER_PATHS.create, createLedgerBody(plan));
    const read = await timed(client, 'GET', LEDGER_PATHS.retrieve);
    if (index < warmup) continue;
    times.creates.push(create);
    times.reads.push(read);
  }
  client?.close();
  times.rows = plannedRowCount(plan);
  return times;
}

/**
 * One user with a 5-year ledger changes the amount of one of their expenses, then reads the ledger.
 * Every sample changes the amount again (to a new value), so every PUT replaces that expense's
 * future rows rather than finding them already matching.
 */
async function reprojectionVersusRead(origin: string, samples: number): Promise<BenchResult> {
  const plan = schedulePlan(60, 25);
  const client = await signIn(origin, 'bench-reproject');
  try {
    const ledger = await seedSchedulesAndLedger(client, plan);
    const { expenses } = expensesInfoSchema.parse(await client.json('GET', EXPENSES_PATHS.retrieve));
    const expense = expenses[0];
    if (!expense) throw new Error('the plan has no expense to change');
    const warmup = 5;
    const changes: number[] = [];
    const reads: number[] = [];
    for (let index = 0; index < samples + warmup; index += 1) {
      const body = {
        name: expense.name,
        type: expense.type,
        day: expense.day,
        amount: expense.amount + index + 1,
        endDate: expense.endDate ?? '',
      };
      const change = await timed(client, 'PUT', withId(EXPENSES_PATHS.one, expense.id), body);
      const read = await timed(client, 'GET', LEDGER_PATHS.retrieve);
      if (index < warmup) continue;
      changes.push(change);
      reads.push(read);
    }
    return result(
      `2c. change an expense (re-projects it) vs GET, ${ledger.transactions.length} rows (median ms)`,
      'ms',
      round(median(changes)),
      round(median(reads)),
      { atMost: 2 },
      `one of 25 expenses on a 5-year ledger, a new amount each time; ${samples} pairs`,
    );
  } finally {
    client.close();
  }
}

export async function writeCost(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const dataDir = newDataDir();
  const server = await startLeftover(build, dataDir);
  try {
    const updater = await signIn(server.origin, 'bench-update');
    const ledger = await seedLedger(updater, UPDATE_LEDGER_ROWS);
    const update = await updateVersusRead(updater, ledger, settings.quick ? 40 : 200);
    updater.close();
    const samples = settings.quick ? 10 : 40;
    const first = await createVersusRead(server.origin, samples, true);
    const replace = await createVersusRead(server.origin, samples, false);
    const replaceRatio = median(replace.creates) / median(replace.reads);
    const create = result(
      `2b. create 5-year ledger vs GET it, ${first.rows} rows (median ms)`,
      'ms',
      round(median(first.creates)),
      round(median(first.reads)),
      { atMost: 3 },
      `2 deposits, 25 expenses; each sample a new user's first ledger; ${samples} pairs. Replacing an existing ledger (deleting its rows too): ${round(median(replace.creates))} / ${round(median(replace.reads))} ms = ${replaceRatio.toFixed(2)}`,
    );
    const reprojection = await reprojectionVersusRead(server.origin, samples);
    return [update, create, reprojection];
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
