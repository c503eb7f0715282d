/**
 * Benchmark 14, bank sync (issue 37's "Done when", decision 0087). One user with 5 accounts, each a
 * ledger of about 2,000 rows made from its own deposits and expenses (starting months before today,
 * so the bank's last 90 days fall inside it), and a SimpleFIN bridge (the repository's simulator, in
 * a child process on 127.0.0.1) holding those 5 accounts with 90 days of transactions, 200 each:
 * every paycheck and every other bill of the ledger's schedules, posted a day late (to be matched),
 * card purchases, refunds and fees the ledger does not know (to be added), and the last days'
 * purchases still pending.
 *  - 14a: Sync now (`POST /api/bank-connections/{id}/sync`, a fresh connection with the 5 accounts
 *    linked, into 5 freshly replaced ledgers) against statement imports of the same transactions, one
 *    CSV per account (`POST /api/accounts/{id}/ledger/statements/import`), into the same 5 ledgers
 *    freshly replaced: benchmark 8b's method (each request timed from sending to its answer's last
 *    byte, one at a time, fresh identical data every round, medians), the two taking turns.
 *  - 14b: another user's `GET /api/me`, one call every 10 ms the whole run, its p95 over the calls
 *    sent while a sync was under way against its p95 over calls sent in an idle window just before
 *    each sync (nothing else in flight), both pooled over every round.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ACCOUNT_LEDGER_PATHS, ACCOUNTS_PATHS, accountSchema, accountsInfoSchema } from '../../src/contract/accounts.js';
import { bankConnectionSchema, bankSyncAnswerSchema } from '../../src/contract/bank-connections.js';
import { pathsOf, withId } from '../../src/contract/common.js';
import { ledgerInfoSchema } from '../../src/contract/ledger.js';
import { statementImportSchema } from '../../src/contract/statements.js';
import { addDays, daysBetween, type IsoDate, yearMonthOf } from '../../src/domain/calendar-date.js';
import { generateLedgerDrafts, type TransactionDraft } from '../../src/domain/ledger.js';
import { cents } from '../../src/domain/money.js';
import { todayInZone } from '../../src/domain/time-zones.js';
import type { SimData } from '../../tests/support/simplefin-simulator.js';
import { type PrivateBuild, REPO_ROOT } from '../lib/build.js';
import type { ApiClient } from '../lib/http-client.js';
import { type BenchResult, result } from '../lib/report.js';
import {
  addSchedules,
  createLedgerBody,
  type LedgerPlan,
  plannedRowCount,
  schedulePlanFrom,
  seedSchedulesAndLedger,
  signIn,
} from '../lib/seed.js';
import { newDataDir, type ServerProcess, startLeftover } from '../lib/server-process.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';

const ACCOUNTS = 5;
const TRANSACTIONS_PER_ACCOUNT = 200;
/** The first sync asks for 90 days back (bank-service.ts): the bank's data span them. */
const DAYS = 90;
/** Purchases of the last two days are still pending at the bank. */
const PENDING_DAYS = 2;
/** 29 monthly bills and two bi-weekly paychecks over 60 months: about 2,000 rows. */
const BILLS = 29;
const MONTHS = 60;
/** The other user calls /api/me at most this often, as tests/reliability/heavy-user.test.ts does (every 20 ms there). */
const PACE_MS = 10;
const IDLE_WINDOW_MS = 400;
/** A pause after each step, so what the server does after an answer (a sync's notification check) is over before the next. */
const SETTLE_MS = 100;
/** The server's zone and the user's: "today" is the same day for the bench's data and the server. */
const ZONE = 'UTC';

const BANK_PATHS = pathsOf({ connect: 'connectBank', link: 'linkBankAccount', sync: 'syncBankConnection', disconnect: 'disconnectBank' });
const PROFILE_PATHS = pathsOf({ me: 'getProfile' });

type Transaction = SimData['accounts'][number]['transactions'][number];
/** The simulator's record of the requests it answered (GET /control/requests), as far as read here. */
type Recorded = { requests: { windowDays: number | null; query: Record<string, string[]> }[] };

/** A path of the endpoint table with its `:id` in place (withId takes only paths that end in it). */
const pathWith = (route: string, id: string): string => route.replace(':id', encodeURIComponent(id));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A day's noon, in Unix seconds: what the bridge sends as `posted` or `transacted_at`. */
function noon(date: IsoDate): number {
  return Date.parse(`${date}T12:00:00Z`) / 1000;
}

function signed(draft: Pick<TransactionDraft, 'type' | 'amount'>): string {
  return `${draft.type === 'D' ? '-' : ''}${(draft.amount / 100).toFixed(2)}`;
}

const MERCHANTS = [
  'POS DEBIT FRESH MARKET #0423 SPRINGFIELD IL',
  'CORNER COFFEE 118 MAIN ST SPRINGFIELD IL',
  'SHELL OIL 57442183 SPRINGFIELD IL',
  'AMZN MKTP US*2K4LM81Q3 AMZN.COM/BILL WA',
  'TARGET T-1893 SPRINGFIELD IL',
  'CITY TRANSIT FARE 04471',
  'SQ *FARMERS STAND SPRINGFIELD IL',
  'WALGREENS #5521 SPRINGFIELD IL',
  'CHIPOTLE 2231 SPRINGFIELD IL',
  'HOME DEPOT #1907 SPRINGFIELD IL',
];

/**
 * One bridge account's 90 days for a ledger of `plan`: every paycheck on its day and every other bill
 * a day late (posted, to be matched: the same amount within 5 days), then card purchases of amounts
 * no schedule has, now and then a refund or a fee, the last two days' purchases still pending: 200 in all.
 */
function bankTransactions(plan: LedgerPlan, today: IsoDate, account: number): Transaction[] {
  const from = addDays(today, -DAYS + 2);
  const lastPosted = addDays(today, -PENDING_DAYS - 1);
  const transactions: Transaction[] = [];
  const id = (kind: string, index: number) => `TRN-${account + 1}-${kind}-${String(index).padStart(4, '0')}`;
  const scheduled = generateLedgerDrafts(plan.deposits, plan.expenses, { from, to: addDays(lastPosted, -1) });
  const scheduledAmounts = new Set(
    generateLedgerDrafts(plan.deposits, plan.expenses, { from: plan.startDate, to: plan.endDate }).map((draft) => draft.amount),
  );
  let bill = 0;
  scheduled.forEach((draft, index) => {
    if (draft.type === 'D' && bill++ % 2 === 1) return;
    const postedOn = draft.type === 'C' ? draft.date : addDays(draft.date, 1);
    const description = draft.type === 'C' ? `${draft.name.toUpperCase()} DIRECT DEP PPD ID 9101` : `${draft.name.toUpperCase()} AUTOPAY`;
    transactions.push({
      id: id('sched', index),
      posted: noon(postedOn),
      transactedAt: noon(draft.date),
      amount: signed(draft),
      description,
    });
  });
  const purchases = TRANSACTIONS_PER_ACCOUNT - transactions.length;
  // 4 to 8 pending purchases an account.
  const pendingFrom = purchases - 4 - account;
  const postedDays = daysBetween(from, lastPosted) + 1;
  for (let index = 0; index < purchases; index += 1) {
    // $1.03 to $150.97, never a schedule's amount: these are the rows a sync or an import adds.
    let amount = 103 + ((index * 7919 + account * 104_729) % 14_995);
    while (scheduledAmounts.has(cents(amount))) amount += 1;
    const dollars = (amount / 100).toFixed(2);
    const merchant = MERCHANTS[(index + account) % MERCHANTS.length] ?? 'CARD PURCHASE';
    if (index >= pendingFrom) {
      const day = addDays(today, -((index - pendingFrom) % PENDING_DAYS));
      transactions.push({
        id: id('pend', index),
        posted: 0,
        transactedAt: noon(day),
        amount: `-${dollars}`,
        description: merchant,
        pending: true,
      });
      continue;
    }
    const day = addDays(from, index % postedDays);
    const refund = index % 41 === 40;
    const fee = index % 97 === 96;
    transactions.push({
      id: id('card', index),
      posted: noon(day),
      transactedAt: noon(addDays(day, -1)),
      amount: fee ? '-2.50' : `${refund ? '' : '-'}${dollars}`,
      description: fee ? 'NON-NETWORK ATM FEE' : refund ? `REFUND ${merchant}` : merchant,
    });
  }
  return transactions;
}

/** The same transactions as a bank's CSV statement: posted ones on their posted day, pending ones on the day they happened. */
function statementOf(transactions: readonly Transaction[]): string {
  const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
  const lines = ['Date,Description,Amount'];
  for (const transaction of transactions) {
    lines.push(`${day(transaction.posted || transaction.transactedAt || 0)},${transaction.description},${transaction.amount}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The simulator as its own process (npm run simplefin:simulator), driven through its control API. */
interface SimulatorProcess {
  readonly origin: string;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

async function startSimulator(): Promise<SimulatorProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/simplefin-simulator.ts'), '--port', '0'],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-5000)));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator did not start within 30 s:\n${output}`)), 30_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output = (output + chunk).slice(-5000);
      const found = /SimpleFIN simulator at (http:\/\/127\.0\.0\.1:\d+)\/simplefin/.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited with ${code}:\n${output}`));
    });
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    origin,
    control: (method, controlPath, body) =>
      new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const request = http.request(
          `${origin}/control${controlPath}`,
          {
            method,
            agent,
            headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              if (response.statusCode !== 200)
                reject(new Error(`simulator ${method} /control${controlPath} answered ${response.statusCode}: ${text}`));
              else resolve(JSON.parse(text) as unknown);
            });
          },
        );
        request.on('error', reject);
        request.end(payload);
      }),
    stop: async () => {
      agent.destroy();
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

type Phase = 'idle' | 'sync' | 'import';

/**
 * Another user calling `GET /api/me` every PACE_MS the whole run, one call at a time; each call's
 * time is kept under the phase it was sent in. A phase changes only between calls, so no call is
 * counted under one phase while another's work ran beside it.
 */
class Neighbour {
  private phase: Phase | null = null;
  private running = true;
  private current: Promise<void> = Promise.resolve();
  private readonly loop: Promise<void>;
  readonly samples: Record<Phase, number[]> = { idle: [], sync: [], import: [] };

  constructor(private readonly client: ApiClient) {
    this.loop = this.run();
    // A failed call ends the loop; stop() rethrows it, and enter() the call's own failure.
    this.loop.catch(() => undefined);
  }

  private async run(): Promise<void> {
    while (this.running) {
      const phase = this.phase;
      let took = 0;
      this.current = (async () => {
        const response = await this.client.request('GET', PROFILE_PATHS.me);
        if (response.status !== 200) throw new Error(`GET /api/me answered ${response.status}`);
        took = response.ms;
      })();
      await this.current;
      if (phase) this.samples[phase].push(took);
      if (took < PACE_MS) await sleep(PACE_MS - took);
    }
  }

  /** Waits for the call under way to end, then counts the following calls under `phase` (null: not at all). */
  async enter(phase: Phase | null): Promise<void> {
    // The loop may have sent its next call before this resumes: wait for that one too.
    for (let call = this.current; ; call = this.current) {
      await call;
      if (call === this.current) break;
    }
    this.phase = phase;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

function p95(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error('p95 of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] as number;
}

async function timed(client: ApiClient, method: string, requestPath: string, body?: unknown): Promise<{ ms: number; body: string }> {
  const response = await client.request(method, requestPath, body);
  if (response.status !== 200) throw new Error(`${method} ${requestPath} answered ${response.status}: ${response.body.slice(0, 300)}`);
  return { ms: response.ms, body: response.body };
}

/** A GET over its own connection, with the Access URL's user and password as Basic auth: its time to the last byte. */
function timedGet(url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    const plain = new URL(url);
    plain.username = '';
    plain.password = '';
    const request = http.get(plain, { agent: false, headers: { authorization } }, (response) => {
      response.resume();
      response.once('end', () =>
        response.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`the bridge answered ${response.statusCode}`)),
      );
    });
    request.once('error', reject);
  });
}

/**
 * What the sync waited for the bridge: the requests it made, asked again from this process with an
 * Access URL of its own (a Setup Token claimed here), their times summed, the median of 5.
 */
async function bridgeAlone(simulator: SimulatorProcess, queries: Recorded['requests']): Promise<number> {
  const { setupToken } = (await simulator.control('POST', '/setup-token')) as { setupToken: string };
  const claimUrl = Buffer.from(setupToken, 'base64').toString('utf8');
  if (!claimUrl.startsWith('http://127.0.0.1:')) throw new Error(`the simulator's claim URL is not on 127.0.0.1: ${claimUrl}`);
  const accessUrl = await new Promise<string>((resolve, reject) => {
    const request = http.request(claimUrl, { method: 'POST', agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8').trim()));
    });
    request.on('error', reject);
    request.end();
  });
  const totals: number[] = [];
  for (let sample = 0; sample < 6; sample += 1) {
    let total = 0;
    for (const { query } of queries) {
      const url = new URL(`${accessUrl}/accounts`);
      for (const [name, values] of Object.entries(query)) for (const value of values) url.searchParams.append(name, value);
      total += await timedGet(url);
    }
    // The first warms the connection's code paths on both sides.
    if (sample > 0) totals.push(total);
  }
  return median(totals);
}

export async function bankSync(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const today = todayInZone(new Date(), ZONE);
  // The first of the month four months back: at least 120 days before today, so 90 days of the bank fit.
  const { year, month } = yearMonthOf(today);
  const startMonth = ((month - 1 + 12 - 4) % 12) + 1;
  const plan = schedulePlanFrom(month > 4 ? year : year - 1, startMonth, MONTHS, BILLS);
  const rows = plannedRowCount(plan);
  const bankData: SimData = {
    connections: [{ id: 'CON-bench-bank', name: 'Bench Bank', orgName: 'Bench Bank' }],
    accounts: Array.from({ length: ACCOUNTS }, (_, account) => ({
      id: `ACT-bench-${account + 1}`,
      name: `Checking ${account + 1}`,
      connectionId: 'CON-bench-bank',
      currency: 'USD',
      opening: 250_000,
      transactions: bankTransactions(plan, today, account),
    })),
  };
  const statements = bankData.accounts.map((account) => statementOf(account.transactions));
  const transactionCount = bankData.accounts.reduce((sum, account) => sum + account.transactions.length, 0);
  const pendingCount = bankData.accounts.reduce((sum, account) => sum + account.transactions.filter((each) => each.pending).length, 0);

  const dataDir = newDataDir();
  let simulator: SimulatorProcess | undefined;
  let server: ServerProcess | undefined;
  const clients: ApiClient[] = [];
  let neighbour: Neighbour | undefined;
  try {
    const bridgeServer = await startSimulator();
    simulator = bridgeServer;
    server = await startLeftover(build, dataDir, undefined, {
      env: {
        // The simulator is on 127.0.0.1: the bridge guard lets loopback through only with this (decision 0079).
        NOTIFY_ALLOW_PRIVATE_URLS: 'true',
        TZ: ZONE,
      },
    });
    const client = await signIn(server.origin, 'bench-bank-sync');
    clients.push(client);
    const other = await signIn(server.origin, 'bench-bank-neighbour');
    clients.push(other);
    await bridgeServer.control('POST', '/data', bankData);

    // Five accounts, each with the plan's deposits and expenses of its own (the first is the primary one).
    await seedSchedulesAndLedger(client, plan);
    const accountIds: string[] = [];
    const primary = accountsInfoSchema.parse(await client.json('GET', ACCOUNTS_PATHS.list)).accounts[0];
    if (!primary) throw new Error('no primary account');
    accountIds.push(primary.id);
    for (let number = 2; number <= ACCOUNTS; number += 1) {
      const account = accountSchema.parse(await client.json('POST', ACCOUNTS_PATHS.list, { name: `Checking ${number}`, kind: 'CHECKING' }));
      await addSchedules(client, plan, account.id);
      accountIds.push(account.id);
    }

    /** Every account's ledger made again from its schedules: the same rows, nothing synced or imported. */
    const replaceLedgers = async () => {
      for (const accountId of accountIds) {
        const answer = ledgerInfoSchema.parse(
          await client.json('POST', pathWith(ACCOUNT_LEDGER_PATHS.create, accountId), createLedgerBody(plan)),
        );
        if (answer.ledger?.transactions.length !== rows)
          throw new Error(`a replaced ledger has ${answer.ledger?.transactions.length} rows, not ${rows}`);
      }
    };

    let connectionId: string | undefined;
    /** A new connection (the last one disconnected) with every bridge account linked to its account: its first sync asks for 90 days. */
    const connect = async () => {
      if (connectionId) await client.json('DELETE', withId(BANK_PATHS.disconnect, connectionId));
      const { setupToken } = (await bridgeServer.control('POST', '/setup-token')) as { setupToken: string };
      const connection = bankConnectionSchema.parse(await client.json('POST', BANK_PATHS.connect, { setupToken }));
      connectionId = connection.id;
      for (const [index, accountId] of accountIds.entries()) {
        const remoteId = bankData.accounts[index]?.id ?? '';
        await client.json('PUT', pathWith(BANK_PATHS.link, connection.id).replace(':remoteId', encodeURIComponent(remoteId)), {
          accountId,
        });
      }
      return connection.id;
    };

    neighbour = new Neighbour(other);
    const warmup = settings.quick ? 1 : 2;
    const rounds = settings.quick ? 4 : 30;
    const syncs: number[] = [];
    const imports: number[] = [];
    let syncCounts = '';
    let importCounts = '';
    let windows = '';
    let bridgeQueries: Recorded['requests'] = [];

    const runSync = async (turn: number) => {
      await replaceLedgers();
      const id = await connect();
      await sleep(SETTLE_MS);
      await neighbour?.enter(turn < warmup ? null : 'idle');
      await sleep(IDLE_WINDOW_MS);
      const asked = turn === 0 ? ((await bridgeServer.control('GET', '/requests')) as Recorded).requests.length : 0;
      await neighbour?.enter(turn < warmup ? null : 'sync');
      const synced = await timed(client, 'POST', pathWith(BANK_PATHS.sync, id));
      await neighbour?.enter(null);
      if (turn === 0) {
        const answer = bankSyncAnswerSchema.parse(JSON.parse(synced.body));
        syncCounts = `added ${answer.added}, matched ${answer.matched}, replaced ${answer.replaced}, flagged ${answer.flagged}, ${answer.warnings.length} warnings`;
        if (answer.added + answer.matched !== transactionCount)
          throw new Error(
            `the sync took ${answer.added + answer.matched} of ${transactionCount} transactions: ${syncCounts}; ${answer.warnings.join(' ')}`,
          );
        bridgeQueries = ((await bridgeServer.control('GET', '/requests')) as Recorded).requests.slice(asked);
        windows = bridgeQueries.map((each) => `${each.windowDays ?? '?'} days`).join(' + ');
      }
      if (turn >= warmup) syncs.push(synced.ms);
      await sleep(SETTLE_MS);
    };

    const runImports = async (turn: number) => {
      await replaceLedgers();
      await sleep(SETTLE_MS);
      await neighbour?.enter(turn < warmup ? null : 'import');
      let total = 0;
      const counts = { matched: 0, added: 0 };
      for (const [index, accountId] of accountIds.entries()) {
        const imported = await timed(client, 'POST', pathWith(ACCOUNT_LEDGER_PATHS.importStatement, accountId), {
          fileName: `checking-${index + 1}.csv`,
          content: statements[index],
        });
        total += imported.ms;
        if (turn === 0) {
          const answer = statementImportSchema.parse(JSON.parse(imported.body)).imported;
          counts.matched += answer.matched;
          counts.added += answer.added;
        }
      }
      await neighbour?.enter(null);
      if (turn === 0) importCounts = `matched ${counts.matched}, added ${counts.added}`;
      if (turn >= warmup) imports.push(total);
      await sleep(SETTLE_MS);
    };

    for (let turn = 0; turn < warmup + rounds; turn += 1) {
      // Which side goes first alternates, so whatever else the machine does falls on both.
      if (turn % 2 === 0) {
        await runSync(turn);
        await runImports(turn);
      } else {
        await runImports(turn);
        await runSync(turn);
      }
    }
    await neighbour.stop();
    const { samples } = neighbour;
    neighbour = undefined;
    const bridge = await bridgeAlone(bridgeServer, bridgeQueries);

    const shape = `${ACCOUNTS} accounts, ${transactionCount} transactions over ${DAYS} days (${pendingCount} pending), ledgers of ${rows} rows`;
    return [
      result(
        `14a. bank sync vs statement imports of the same rows, ${shape} (median ms)`,
        'ms',
        round(median(syncs)),
        round(median(imports)),
        { atMost: 1.5 },
        `${rounds} rounds, turns alternating, each into freshly replaced ledgers; the sync asked the bridge for ${windows}, which answers them in ${round(bridge, 1)} ms asked from here (median of 5); sync ${syncCounts}; imports ${importCounts}; syncs ${syncs.map((ms) => round(ms, 1)).join(', ')}; imports (5 summed) ${imports.map((ms) => round(ms, 1)).join(', ')}`,
      ),
      result(
        `14b. another user's GET /api/me p95 during the sync vs idle (ms)`,
        'ms',
        round(p95(samples.sync)),
        round(p95(samples.idle)),
        { atMost: 2 },
        `calls every ${PACE_MS} ms; ${samples.sync.length} during syncs (median ${round(median(samples.sync))}, max ${round(Math.max(...samples.sync))}), ${samples.idle.length} idle (median ${round(median(samples.idle))}, max ${round(Math.max(...samples.idle))}); during the statement imports p95 ${round(p95(samples.import))} (${samples.import.length} calls, max ${round(Math.max(...samples.import))})`,
      ),
    ];
  } finally {
    await neighbour?.stop().catch(() => undefined);
    for (const each of clients) each.close();
    await server?.stop();
    await simulator?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
