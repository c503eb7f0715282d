/**
 * The two steps of a bank sync that read and write the ledgers (decision 0082): the window it asks
 * the bridge about, worked out from each linked ledger, and the write of every linked ledger and the
 * connection's record in one unit of work. Both run where `BankSyncUnits` says: in the server's own
 * thread on PostgreSQL, or on SQLite in a thread of their own with its own connection
 * (bank-sync-runner.ts, decision 0098), so that reading, planning and writing 5 ledgers of 2,000 rows
 * never holds the thread every other user's requests are served on.
 */
import type { BankSyncAnswer, BankSyncRecord } from '../../contract/bank-connections.js';
import { bridgeBalanceText, reconcileWithBridge } from '../../domain/bank-sync/bank-balance.js';
import { applyBankSyncPlan, oldestPendingDate, planBankSync } from '../../domain/bank-sync/sync-plan.js';
import { addDays, type IsoDate } from '../../domain/calendar-date.js';
import { ConflictError } from '../../domain/errors.js';
import type { Caller } from '../auth/access-token.js';
import { type LedgerWrites, readBankLedger, writeBankPlan } from '../ledger/index.js';
import type { BankConnectionStore, BridgeAccountSummary, StoredConnection } from './bank-connection-store.js';
import { type AccountsOutcome, type AccountsRequest, type BridgeOptions, fetchAccounts } from './simplefin-client.js';

/** A later sync asks again from 5 days before the last that succeeded: late postings and pendings settle within that. */
const OVERLAP_DAYS = 5;
/** The first sync asks no further back than this. */
const FIRST_SYNC_DAYS = 90;

export type SyncTrigger = BankSyncRecord['trigger'];

export interface SyncWindow {
  readonly start: IsoDate;
  readonly end: IsoDate;
}

/** What one sync knows before it writes: when it ran, why, the owner's today and the window asked. */
export interface SyncFacts {
  readonly at: string;
  readonly trigger: SyncTrigger;
  readonly today: IsoDate;
  readonly window: SyncWindow | null;
}

export type SyncedAccounts = Extract<AccountsOutcome, { ok: true }>;

/** A sync's write, answered with the rows it touched: the caller charges them to the request (issue 34). */
export interface SyncWritten {
  readonly answer: BankSyncAnswer;
  readonly rowsTouched: number;
}

/**
 * The bridge's accounts a sync fetched, where the write will find them: here, or held in the sync's
 * thread under a handle, so that 1,000 transactions are not copied to this thread and back (benchmark 14b).
 */
export type AccountsHeld = { readonly here: SyncedAccounts } | { readonly inThread: string };

/** What fetching gave: the bridge's failure, or its accounts where the write will find them. */
export type FetchedAccounts =
  Extract<AccountsOutcome, { ok: false }> | { readonly ok: true; readonly requests: number; readonly accounts: AccountsHeld };

/** Where a sync's fetching, reading and writing of ledgers runs. */
export interface BankSyncUnits {
  window(owner: Caller, connection: StoredConnection, today: IsoDate): Promise<SyncWindow>;
  fetch(accessUrl: string, request: AccountsRequest, options: BridgeOptions): Promise<FetchedAccounts>;
  write(owner: Caller, connection: StoredConnection, accounts: AccountsHeld, sync: SyncFacts): Promise<SyncWritten>;
  close(): Promise<void>;
}

/** What the steps need: the ledger's unit of work and the connections' store, on one database. */
export interface BankSyncUnitDeps {
  readonly writes: LedgerWrites;
  readonly store: BankConnectionStore;
}

/** Both steps in the calling thread (PostgreSQL: other users' queries have connections of their own). */
export function unitsInProcess(deps: BankSyncUnitDeps): BankSyncUnits {
  return {
    window: (owner, connection, today) => syncWindow(deps, owner, connection, today),
    fetch: async (accessUrl, request, options) => {
      const outcome = await fetchAccounts(accessUrl, request, options);
      return outcome.ok ? { ok: true, requests: outcome.requests, accounts: { here: outcome } } : outcome;
    },
    write: (owner, connection, accounts, sync) => {
      if (!('here' in accounts)) throw new Error('accounts held in a thread, written in this one');
      return writeSync(deps, owner, connection, accounts.here, sync);
    },
    close: async () => undefined,
  };
}

export function summaries(
  accounts: readonly Pick<SyncedAccounts['accounts'][number], 'id' | 'institution' | 'name' | 'currency' | 'balance' | 'balanceDate'>[],
): BridgeAccountSummary[] {
  return accounts.map((account) => ({
    remoteId: account.id,
    institution: account.institution,
    name: account.name,
    currency: account.currency,
    balance: account.balance,
    balanceDate: account.balanceDate,
  }));
}

/**
 * The window a sync asks about, to tomorrow: from the earliest linked account's start, each one's
 * the day it last synced less 5 days, or, never synced since linked, the later of its ledger's
 * start and 90 days ago.
 */
export async function syncWindow(deps: BankSyncUnitDeps, owner: Caller, connection: StoredConnection, today: IsoDate): Promise<SyncWindow> {
  const end = addDays(today, 1);
  let start: IsoDate = today;
  for (const account of connection.accounts) {
    if (account.accountId === null) continue;
    // One read of each linked ledger: its start and its marked rows (it was read three times, benchmark 14).
    const ledger = await markedLedger(deps.writes, owner, account.accountId);
    let from: IsoDate;
    if (account.lastSuccessOn !== null) from = addDays(account.lastSuccessOn, -OVERLAP_DAYS);
    else {
      from = addDays(today, -FIRST_SYNC_DAYS);
      if (ledger && ledger.startDate > from) from = ledger.startDate;
    }
    if (from < start) start = from;
    if (!ledger) continue;
    // Every pending row still judged must be inside the window, or it is never missed nor replaced (decision 0081).
    const alsoLinked = new Set(
      (await deps.store.linkedTo(owner, account.accountId))
        .map((link) => link.remoteId)
        .filter((remoteId) => remoteId !== account.remoteId),
    );
    const oldest = oldestPendingDate(ledger.rows, account.remoteId, alsoLinked);
    if (oldest !== null && oldest < start) start = oldest;
  }
  if (start > today) start = today;
  return { start, end };
}

/** A ledger's start and its rows with their marks, read in a unit that writes nothing (the marks are the ledger's to read); undefined without a ledger. */
function markedLedger(writes: LedgerWrites, owner: Caller, accountId: string) {
  return writes.run(
    owner,
    { growth: 'import', undo: null, follow: false },
    {
      apply: async (write) => {
        const store = await write.storeOf(accountId);
        return store?.ledger ? { startDate: store.ledger.startDate, rows: (await readBankLedger(store)).rows } : undefined;
      },
      answer: async (_write, ledger) => ledger,
    },
  );
}

/** Every linked ledger and the connection's record, written in one unit of work: nothing half-written. */
export async function writeSync(
  deps: BankSyncUnitDeps,
  owner: Caller,
  connection: StoredConnection,
  outcome: SyncedAccounts,
  sync: SyncFacts,
): Promise<SyncWritten> {
  const { store } = deps;
  const warnings: string[] = [...outcome.warnings];
  for (const skipped of outcome.skipped) warnings.push(skipped.name === '' ? skipped.reason : `${skipped.name}: ${skipped.reason}`);
  const byRemote = new Map(outcome.accounts.map((account) => [account.id, account]));
  const counts = { added: 0, matched: 0, replaced: 0, flagged: 0 };
  const { window } = sync;
  const synced: string[] = [];
  const balances: { remoteId: string; text: string }[] = [];
  // Read before the unit: on SQLite its one connection is the unit's while it runs.
  const alsoLinkedOf = new Map<string, Set<string>>();
  for (const account of connection.accounts) {
    if (account.accountId === null) continue;
    const links = await store.linkedTo(owner, account.accountId);
    alsoLinkedOf.set(account.remoteId, new Set(links.map((link) => link.remoteId).filter((remoteId) => remoteId !== account.remoteId)));
  }
  // Bank syncs are not undoable: the next sync would bring back what an undo took away (decision 0082).
  const rowsTouched = await deps.writes.run(
    owner,
    { growth: 'import', undo: null },
    {
      apply: async (write) => {
        for (const account of connection.accounts) {
          if (!window || account.accountId === null || account.currency !== 'USD') continue;
          const bridge = byRemote.get(account.remoteId);
          // Skipped by the bridge (act.failed): this account only waits for the next sync.
          if (!bridge) continue;
          const ledgerStore = await write.storeOf(account.accountId);
          if (!ledgerStore?.ledger) {
            warnings.push(
              `${bridge.name}: its Leftover account is gone or has no ledger yet. Link it to an account with a ledger, then sync again.`,
            );
            continue;
          }
          const ledger = ledgerStore.ledger;
          const state = await readBankLedger(ledgerStore);
          const alsoLinked = alsoLinkedOf.get(account.remoteId) ?? new Set<string>();
          const plan = planBankSync({
            account: bridge,
            rows: state.rows,
            closed: state.closed,
            window: { from: window.start, to: window.end },
            today: sync.today,
            ledgerDates: { from: ledger.startDate, to: ledger.endDate },
            alsoLinked,
          });
          if (!(await writeBankPlan(ledgerStore, state, plan))) throw new ConflictError('The ledger changed during the sync. Sync again.');
          counts.added += plan.counts.added;
          counts.matched += plan.counts.matched;
          counts.replaced += plan.counts.replaced;
          counts.flagged += plan.counts.flagged;
          warnings.push(...plan.warnings);
          const after = applyBankSyncPlan(state, plan, (position) => `added-${position}`);
          synced.push(bridge.id);
          balances.push({ remoteId: bridge.id, text: bridgeBalanceText(reconcileWithBridge(ledger.openingBalance, after.rows, bridge)) });
        }
        const brought = counts.added + counts.matched + counts.replaced;
        if (brought > 0) write.noteActivity({ kind: 'bank', rows: brought });
        await store.saveAccounts(write.db, owner, connection.id, summaries(outcome.accounts));
        await store.markSynced(write.db, owner, connection.id, synced, sync.today);
        const record: BankSyncRecord = { at: sync.at, trigger: sync.trigger, ...counts, warnings, failure: null, balances };
        const attention = outcome.attention;
        await store.recordSync(
          owner,
          connection.id,
          record,
          attention
            ? { state: 'Needs attention', reason: attention.reason, stopSchedule: attention.stopSchedule }
            : { state: 'Connected', reason: null, stopSchedule: false },
          sync.today,
          outcome.requests,
          sync.window,
          write.db,
        );
      },
      answer: async (write) => write.rowsTouched,
    },
  );
  return { answer: { ...counts, warnings }, rowsTouched };
}
