/**
 * Load: the built server as a child process, 50 connections of mixed reads and writes from many
 * users for LOAD_SECONDS (20 by default), driven by autocannon. Zero 5xx, zero other non-2xx,
 * zero connection errors or timeouts, no user ever sees another's rows, and zero lost writes: every
 * write answered 2xx is in the database afterwards (counted row by row, below the API). p99 latency
 * is printed and kept in reports/reliability/.
 *
 * The per-user rate limit is set to its ceiling: this measures the server, not the limiter (the
 * limiter has its own tests).
 *
 * On SQLite an operator's backup (`npm run backup`, issue 15) is taken halfway through: it opens,
 * passes integrity_check and holds every write acknowledged before it began; `npm run restore`
 * refuses while the server runs and, once it is stopped, puts the backup back.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { depositsInfoSchema } from '../../src/contract/deposits.js';
import { expensesInfoSchema } from '../../src/contract/expenses.js';
import { ledgerInfoSchema, type LedgerTransaction } from '../../src/contract/ledger.js';
import { openDatabaseReader } from '../support/database-reader.js';
import { type HttpUser, httpUser } from '../support/http-user.js';
import { recordFigures } from '../support/reliability-figures.js';
import { processRunOn } from '../support/process-run.js';
import { databaseKinds } from '../support/test-databases.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONNECTIONS = 50;
const USERS = 200;
const LOAD_SECONDS = loadSeconds(process.env.LOAD_SECONDS);
/** Setup (users, ledgers) and the row count afterwards, beside the load itself. */
const SETUP_ALLOWANCE_MS = 90_000;
/** Kept so a failure shows what went wrong without printing thousands of lines. */
const MAX_PROBLEMS_KEPT = 20;

function loadSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return 20;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600)
    throw new Error(`LOAD_SECONDS must be a whole number from 1 to 600, not ${value}`);
  return seconds;
}

type WriteKind = 'add-deposit' | 'add-expense' | 'add-transaction' | 'pay' | 'clear';
const WRITE_KINDS: readonly WriteKind[] = ['add-deposit', 'add-expense', 'add-transaction', 'pay', 'clear'];

/** One pass of a connection through the request list: one user, the row it added, paid, cleared. */
interface Cycle {
  readonly user: HttpUser;
  readonly tag: string;
  readonly names: { readonly deposit: string; readonly expense: string; readonly transaction: string };
  row?: LedgerTransaction;
}

interface Tally {
  readonly acknowledged: Set<string>;
  sent: number;
}

describe.each(databaseKinds())('load on %s', (kind) => {
  const processes = processRunOn(kind);

  it(
    `serves ${CONNECTIONS} connections of mixed reads and writes for ${LOAD_SECONDS} s: no 5xx, no non-2xx, no lost write`,
    { timeout: LOAD_SECONDS * 1000 + SETUP_ALLOWANCE_MS },
    async () => {
      const { issuer, database, start } = processes();
      const server = await start({ env: { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000' } });
      const origin = server.origin;
      const users: HttpUser[] = [];
      for (let index = 0; index < USERS; index += 1) users.push(await httpUser(origin, issuer, `load-${kind}-${index}`));
      // Every user starts with an empty ledger, so add-transaction has somewhere to go.
      for (let start = 0; start < USERS; start += 20) {
        const answers = await Promise.all(
          users.slice(start, start + 20).map((user) =>
            user.call('POST', '/api/ledger/create-ledger', {
              ledger: { startDate: '2026-12-01', endDate: '2027-02-28', currentBalance: 100 },
            }),
          ),
        );
        for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      }

      const tallies = Object.fromEntries(
        WRITE_KINDS.map((writeKind) => [writeKind, { acknowledged: new Set<string>(), sent: 0 }]),
      ) as Record<WriteKind, Tally>;
      const problems: string[] = [];
      let problemCount = 0;
      const problem = (text: string) => {
        problemCount += 1;
        if (problems.length < MAX_PROBLEMS_KEPT) problems.push(text);
      };
      const cycles = new WeakMap<object, Cycle>();
      let nextUser = 0;
      let nextName = 0;

      const cycleOf = (context: object): Cycle => {
        const cycle = cycles.get(context);
        if (!cycle) throw new Error('a request ran outside its cycle');
        return cycle;
      };
      const as = (cycle: Cycle, method: string, path: string, body?: unknown): autocannon.RequestParams => ({
        method,
        path,
        headers: { authorization: `Bearer ${cycle.user.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      type OnResponse = NonNullable<autocannon.Request['onResponse']>;
      /** An answer handler runs inside autocannon's socket callback: a throw there is a problem to report, not a crash. */
      const guarded =
        (label: string, handle: OnResponse): OnResponse =>
        (status, body, context, headers) => {
          try {
            handle(status, body, context, headers);
          } catch (error) {
            problem(`${label}: ${error instanceof Error ? error.message : String(error)} (status ${status}, ${body.slice(0, 200)})`);
          }
        };
      /** A read's answer must be 200 and hold only the caller's own rows (their names carry the tag). */
      const read = (
        path: string,
        names: (body: unknown) => readonly string[],
        setupRequest?: autocannon.Request['setupRequest'],
      ): autocannon.Request => ({
        setupRequest: setupRequest ?? ((_request, context) => as(cycleOf(context), 'GET', path)),
        onResponse: guarded(`GET ${path}`, (status, body, context) => {
          const cycle = cycleOf(context);
          if (status !== 200) return problem(`GET ${path}: ${status} ${body.slice(0, 200)}`);
          const foreign = names(JSON.parse(body)).filter((name) => !name.startsWith(`${cycle.tag}-`));
          if (foreign.length > 0) problem(`${cycle.tag} saw rows of another user: ${foreign.slice(0, 3).join(', ')}`);
        }),
      });
      const acknowledge = (writeKind: WriteKind, key: string, status: number, body: string) => {
        if (status >= 200 && status < 300) tallies[writeKind].acknowledged.add(key);
        else problem(`${writeKind} ${key}: ${status} ${body.slice(0, 200)}`);
      };
      const statusMove = (writeKind: 'pay' | 'clear', status: 'PAID' | 'CLEARED'): autocannon.Request => ({
        setupRequest: (_request, context) => {
          const cycle = cycleOf(context);
          // The add failed (already reported): keep the connection busy with a harmless read.
          if (!cycle.row) return as(cycle, 'GET', '/api/me');
          tallies[writeKind].sent += 1;
          return as(cycle, 'PATCH', '/api/ledger/update-transaction', { ...cycle.row, status });
        },
        onResponse: guarded(writeKind, (code, body, context) => {
          const row = cycleOf(context).row;
          if (row) acknowledge(writeKind, row.id, code, body);
        }),
      });

      const requests: autocannon.Request[] = [
        read(
          '/api/deposits/retrieve-deposits',
          (body) => depositsInfoSchema.parse(body).deposits.map((deposit) => deposit.name),
          // The first request of a pass picks the next user: the 50 connections rotate over all of them.
          (_request, context) => {
            const user = users[nextUser % USERS] as HttpUser;
            const tag = `u${nextUser % USERS}`;
            nextUser += 1;
            nextName += 1;
            const cycle: Cycle = {
              user,
              tag,
              names: { deposit: `${tag}-d${nextName}`, expense: `${tag}-e${nextName}`, transaction: `${tag}-t${nextName}` },
            };
            cycles.set(context, cycle);
            return as(cycle, 'GET', '/api/deposits/retrieve-deposits');
          },
        ),
        {
          setupRequest: (_request, context) => {
            const cycle = cycleOf(context);
            tallies['add-deposit'].sent += 1;
            return as(cycle, 'POST', '/api/deposits/add-deposit', {
              name: cycle.names.deposit,
              type: 'Direct Deposit',
              day: 'N/A',
              amount: 1234.56,
              startDate: '2026-12-31',
              frequency: 'EOM',
            });
          },
          onResponse: guarded('add-deposit', (status, body, context) =>
            acknowledge('add-deposit', cycleOf(context).names.deposit, status, body),
          ),
        },
        read('/api/expenses/retrieve-expenses', (body) => expensesInfoSchema.parse(body).expenses.map((expense) => expense.name)),
        {
          setupRequest: (_request, context) => {
            const cycle = cycleOf(context);
            tallies['add-expense'].sent += 1;
            return as(cycle, 'POST', '/api/expenses/add-expense', {
              name: cycle.names.expense,
              type: 'Bills',
              day: 15,
              amount: 99.99,
              endDate: null,
            });
          },
          onResponse: guarded('add-expense', (status, body, context) =>
            acknowledge('add-expense', cycleOf(context).names.expense, status, body),
          ),
        },
        read('/api/ledger/retrieve-ledger', (body) => ledgerInfoSchema.parse(body).ledger?.transactions.map((row) => row.name) ?? []),
        {
          setupRequest: (_request, context) => {
            const cycle = cycleOf(context);
            tallies['add-transaction'].sent += 1;
            return as(cycle, 'POST', '/api/ledger/add-transaction', {
              date: '2027-01-15',
              name: cycle.names.transaction,
              type: 'D',
              amount: 4.2,
            });
          },
          onResponse: guarded('add-transaction', (status, body, context) => {
            const cycle = cycleOf(context);
            acknowledge('add-transaction', cycle.names.transaction, status, body);
            if (status !== 200) return;
            const ledger = ledgerInfoSchema.parse(JSON.parse(body)).ledger;
            cycle.row = ledger?.transactions.find((row) => row.name === cycle.names.transaction);
            if (!cycle.row) problem(`${cycle.names.transaction} is missing from its own add's answer`);
          }),
        },
        statusMove('pay', 'PAID'),
        statusMove('clear', 'CLEARED'),
        read('/api/me', () => []),
      ];

      // SQLite: the operator's backup, halfway through the load, and a restore that must be refused meanwhile.
      const live = kind === 'sqlite' ? database.url.slice('sqlite:'.length) : undefined;
      const backupFile = live && path.join(path.dirname(live), 'backup.sqlite');
      let acknowledgedBeforeBackup: Record<WriteKind, Set<string>> | undefined;
      let refusedRestore: ScriptRun | undefined;
      const backup =
        live && backupFile
          ? new Promise<ScriptRun>((resolve) => setTimeout(resolve, (LOAD_SECONDS * 1000) / 2)).then(async () => {
              acknowledgedBeforeBackup = Object.fromEntries(
                WRITE_KINDS.map((writeKind) => [writeKind, new Set(tallies[writeKind].acknowledged)]),
              ) as Record<WriteKind, Set<string>>;
              const run = await runScript('backup', backupFile, database.url);
              refusedRestore = await runScript('restore', backupFile, database.url);
              return run;
            })
          : undefined;

      const result = await autocannon({ url: origin, connections: CONNECTIONS, duration: LOAD_SECONDS, timeout: 10, requests });
      // A graceful stop first: the rows are counted in a quiet database.
      await server.stop();

      const stored = await storedNames(database.url, issuer.issuer);
      // After the count above: restoring the backup puts the database back as it was halfway.
      if (backup && backupFile && acknowledgedBeforeBackup) {
        const run = await backup;
        expect(run.code, run.output).toBe(0);
        expect(refusedRestore?.code, refusedRestore?.output).toBe(1);
        expect(refusedRestore?.output).toContain('stop it, then restore again');
        const copy = new SQLite(backupFile, { readonly: true, fileMustExist: true });
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        copy.close();
        const inBackup = await storedNames(`sqlite:${backupFile}`, issuer.issuer);
        for (const writeKind of WRITE_KINDS) {
          const before = [...acknowledgedBeforeBackup[writeKind]];
          expect(before.length, writeKind).toBeGreaterThan(0);
          expect(
            before.filter((key) => !inBackup[writeKind].has(key)),
            `${writeKind}: acknowledged before the backup, missing from it`,
          ).toEqual([]);
        }
        // The server is stopped: now the backup goes back in place of the live database.
        const restored = await runScript('restore', backupFile, database.url);
        expect(restored.code, restored.output).toBe(0);
        expect(await storedNames(database.url, issuer.issuer)).toEqual(inBackup);
        recordFigures(`backup-${kind}`, {
          acknowledgedBeforeBackup: WRITE_KINDS.reduce((sum, writeKind) => sum + (acknowledgedBeforeBackup?.[writeKind].size ?? 0), 0),
          rowsInBackup: WRITE_KINDS.reduce((sum, writeKind) => sum + inBackup[writeKind].size, 0),
        });
      }
      const writes = Object.fromEntries(
        WRITE_KINDS.map((writeKind) => {
          const { acknowledged, sent } = tallies[writeKind];
          const found = [...acknowledged].filter((key) => stored[writeKind].has(key)).length;
          // Sent but cut off when the run ended: their answers never came, they may or may not be stored.
          return [writeKind, { sent, acknowledged: acknowledged.size, found, storedInAll: stored[writeKind].size }];
        }),
      ) as Record<WriteKind, { sent: number; acknowledged: number; found: number; storedInAll: number }>;
      const figures = {
        database: kind,
        connections: CONNECTIONS,
        users: USERS,
        seconds: result.duration,
        requests: result.requests.total,
        requestsPerSecond: result.requests.average,
        status2xx: result['2xx'],
        non2xx: result.non2xx,
        status5xx: result['5xx'],
        errors: result.errors,
        timeouts: result.timeouts,
        latencyMs: { average: result.latency.average, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
        writes,
        writesAcknowledged: WRITE_KINDS.reduce((sum, writeKind) => sum + writes[writeKind].acknowledged, 0),
        writesFound: WRITE_KINDS.reduce((sum, writeKind) => sum + writes[writeKind].found, 0),
        problems: problemCount,
      };
      recordFigures(`load-${kind}`, figures);

      expect(problems, `${problemCount} problems; server output:\n${server.output()}`).toEqual([]);
      expect(result['5xx']).toBe(0);
      expect(result.non2xx).toBe(0);
      expect(result.errors).toBe(0);
      expect(result.timeouts).toBe(0);
      expect(result.requests.total).toBeGreaterThan(CONNECTIONS * LOAD_SECONDS);
      for (const writeKind of WRITE_KINDS) {
        expect(writes[writeKind].acknowledged, writeKind).toBeGreaterThan(0);
        expect(writes[writeKind].found, `${writeKind}: acknowledged writes missing from the database`).toBe(writes[writeKind].acknowledged);
        // Nothing is stored that was never sent.
        expect(writes[writeKind].storedInAll, writeKind).toBeLessThanOrEqual(writes[writeKind].sent);
      }
    },
  );
});

interface ScriptRun {
  readonly code: number;
  readonly output: string;
}

/** `npm run backup -- <file>` or `npm run restore -- <file>`, as an operator runs it, against the test database. */
function runScript(name: 'backup' | 'restore', file: string, databaseUrl: string): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `scripts/${name}.ts`, file],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** What the database holds after the run, keyed the way acknowledgements are: names, and row ids by status. */
async function storedNames(url: string, issuer: string): Promise<Record<WriteKind, Set<string>>> {
  const reader = openDatabaseReader(url);
  try {
    const deposits = await reader.db.selectFrom('deposits').select('name').where('owner_iss', '=', issuer).execute();
    const expenses = await reader.db.selectFrom('expenses').select('name').where('owner_iss', '=', issuer).execute();
    const rows = await reader.db
      .selectFrom('ledger_transactions')
      .select(['id', 'name', 'status', 'source_kind'])
      .where('owner_iss', '=', issuer)
      .execute();
    return {
      'add-deposit': new Set(deposits.map((row) => row.name)),
      'add-expense': new Set(expenses.map((row) => row.name)),
      // Rows added by hand; the deposits and expenses added meanwhile bring generated rows of their own (issue 11).
      'add-transaction': new Set(rows.filter((row) => row.source_kind === null).map((row) => row.name)),
      // A paid row may since have been cleared: both show the pay landed.
      pay: new Set(rows.filter((row) => row.status === 'PAID' || row.status === 'CLEARED').map((row) => row.id)),
      clear: new Set(rows.filter((row) => row.status === 'CLEARED').map((row) => row.id)),
    };
  } finally {
    await reader.close();
  }
}
