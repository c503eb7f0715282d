/**
 * The tasks of the process a bank sync reads and writes its ledgers in on SQLite (decisions 0098 and
 * 0115; the server's side is bank-sync-runner.ts, the process background-process.ts). It opens the database file with a connection of its own and builds
 * the ledger's unit of work as the app does, so the sync's steps (bank/bank-sync-unit.ts) run here
 * unchanged: what they cost in reading 5 ledgers, planning 1,000 transactions and writing them is
 * this process's, never the thread that serves every other user.
 *
 * Tasks and answers are plain data. The app's clock comes with each task (tests fix it), and a
 * refusal comes back as its kind and words, which the server throws again as the same error.
 */
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import type { Caller, SignedInUser } from './auth/access-token.js';
import type { StoredConnection } from './bank/bank-connection-store.js';
import { BankConnectionStore } from './bank/bank-connection-store.js';
import {
  type BankSyncUnitDeps,
  type FetchedAccounts,
  type SyncedAccounts,
  type SyncFacts,
  syncWindow,
  writeSync,
} from './bank/bank-sync-unit.js';
import { type OpenDatabase, openSqliteInThread } from './db/database.js';
import { LedgerWrites } from './ledger/index.js';
import { readLedgerSchedules } from './ledger-schedules.js';
import { userToday } from './profile/user-today.js';
import { changeTextOf } from './live/change-text.js';
import { type AccountsAnswer, type AccountsRequest, fetchAccounts, readAccountsAnswer } from './bank/simplefin-client.js';
import { type ErrorInThread, errorInThread } from './bank/errors-in-thread.js';
import type { IsoDate } from '../domain/calendar-date.js';

interface TaskBase {
  readonly file: string;
  readonly defaultTimeZone: string;
  /** The app's clock at the task's start, as an ISO string. */
  readonly now: string;
  readonly owner: Caller;
  /** The member the write is made by (decision 0094); null for no person. */
  readonly actor: SignedInUser | null;
  readonly connection: StoredConnection;
}

export type BankSyncTask =
  | { readonly kind: 'ready' }
  | { readonly kind: 'read-accounts'; readonly answer: AccountsAnswer }
  | {
      readonly kind: 'fetch';
      readonly accessUrl: string;
      readonly request: AccountsRequest;
      readonly bridge: { readonly allowPrivate: boolean; readonly timeoutMs?: number; readonly maxBytes?: number };
    }
  | (TaskBase & { readonly kind: 'window'; readonly today: IsoDate })
  | (TaskBase & { readonly kind: 'write'; readonly held: string; readonly sync: SyncFacts });

export type BankSyncTaskOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: ErrorInThread };

/**
 * The bridge's accounts fetched here, until their write takes them (the next task, as the server
 * runs them): at most a few, the oldest dropped first, in case a write never came.
 */
const held = new Map<string, SyncedAccounts>();
const MAX_HELD = 8;

function hold(accounts: SyncedAccounts): string {
  const handle = randomUUID();
  held.set(handle, accounts);
  for (const oldest of held.keys()) {
    if (held.size <= MAX_HELD) break;
    held.delete(oldest);
  }
  return handle;
}

function take(handle: string): SyncedAccounts {
  const accounts = held.get(handle);
  held.delete(handle);
  // The process stopped between the fetch and the write (it crashed, say): the sync fails, and the next one asks again.
  if (!accounts) throw new Error("the bridge's answer is no longer held in the sync process");
  return accounts;
}

/** One connection per file for the process's life. */
const opened = new Map<string, OpenDatabase>();

function depsFor(task: TaskBase): BankSyncUnitDeps {
  let database = opened.get(task.file);
  if (!database) {
    database = openSqliteInThread(SQLite, task.file);
    opened.set(task.file, database);
  }
  const now = new Date(task.now);
  const clock = () => now;
  return {
    writes: new LedgerWrites(
      database,
      clock,
      { schedules: readLedgerSchedules, todayOf: userToday(task.defaultTimeZone, clock) },
      // Charged by the server, which knows the request (bank-sync-runner.ts).
      () => undefined,
      () => task.actor ?? undefined,
    ),
    store: new BankConnectionStore(database.db),
  };
}

export default async function runBankSyncTask(task: BankSyncTask): Promise<BankSyncTaskOutcome> {
  try {
    if (task.kind === 'ready') return { ok: true, value: null };
    if (task.kind === 'read-accounts') return { ok: true, value: readAccountsAnswer(task.answer) };
    if (task.kind === 'fetch') {
      const outcome = await fetchAccounts(task.accessUrl, task.request, task.bridge);
      const value: FetchedAccounts = outcome.ok ? { ok: true, requests: outcome.requests, accounts: { inThread: hold(outcome) } } : outcome;
      return { ok: true, value };
    }
    const deps = depsFor(task);
    const value =
      task.kind === 'window'
        ? await syncWindow(deps, task.owner, task.connection, task.today)
        : {
            ...(await writeSync(deps, task.owner, task.connection, take(task.held), task.sync)),
            changeText: changeTextOf(task.owner) ?? null,
          };
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: errorInThread(error) };
  }
}
