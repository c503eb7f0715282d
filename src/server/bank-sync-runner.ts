/**
 * A bank sync's ledger steps in a process of their own, on SQLite (decision 0098). better-sqlite3
 * runs every statement in the thread that calls it, so a sync that reads 5 ledgers of 2,000 rows,
 * plans 1,000 transactions and writes them held the thread every other user is served on for the
 * whole of it (benchmark 14b: another user's calls waited 26 to 50 times their idle time). Here the
 * steps run in a process of their own (bank-sync-worker.ts in background-process.ts, decision 0115;
 * a worker thread until then) with its own connection to the file; the server's thread only waits
 * for the answer. While the sync process writes, this process's own writes
 * wait their turn without blocking (OpenDatabase.whileWritesWait), and its reads go on beside it on
 * the reading connection, as WAL lets them. PostgreSQL keeps the steps in the server's thread
 * (bank-sync-unit.ts' unitsInProcess): there other users' queries have connections of their own.
 */
import type { Caller } from './auth/access-token.js';
import type { StoredConnection } from './bank/bank-connection-store.js';
import type { BankSyncUnits, FetchedAccounts, SyncWindow, SyncWritten } from './bank/bank-sync-unit.js';
import { errorFromThread } from './bank/errors-in-thread.js';
import { BackgroundProcess } from './background-process.js';
import type { BankSyncTask, BankSyncTaskOutcome } from './bank-sync-worker.js';
import { noteWriteFromThread, type WritesInThreadOptions, writerInThread } from './background-thread.js';
import type { AccountsAnswerReader } from './bank/simplefin-client.js';

export interface ThreadUnitsOptions extends WritesInThreadOptions {
  readonly file: string;
}

/**
 * The one bank sync process of this Node process, shared by the apps in it (tests start many): it
 * starts on first use, ends a minute after its last task, when the last app using it closes, or
 * with this process (its channel closes).
 */
let syncProcess: BackgroundProcess<BankSyncTask, BankSyncTaskOutcome> | null = null;
/** The apps using it now. */
let syncProcessUsers = 0;

/** The bank sync's steps, run in the sync process (decision 0115). */
export class BankSyncProcess {
  private readonly process: BackgroundProcess<BankSyncTask, BankSyncTaskOutcome>;
  private closed = false;

  constructor(log: { warn(details: object, message: string): void }) {
    syncProcess ??= new BackgroundProcess('bank-sync-worker', 'the bank sync process', log);
    syncProcessUsers += 1;
    this.process = syncProcess;
  }

  private async run(task: BankSyncTask): Promise<unknown> {
    const outcome = await this.process.run(task);
    if (!outcome.ok) throw errorFromThread(outcome.error);
    return outcome.value;
  }

  /** Reads a bridge's answer in the sync process, whatever the database: up to 10 MB of JSON parsed and checked there. */
  readonly readAnswer: AccountsAnswerReader = async (answer) =>
    (await this.run({ kind: 'read-accounts', answer })) as Awaited<ReturnType<AccountsAnswerReader>>;

  /** On SQLite: the sync's window and write in the sync process, with a connection of its own. */
  units(options: ThreadUnitsOptions): BankSyncUnits {
    const whileWritesWait = options.database.whileWritesWait;
    if (!whileWritesWait) throw new Error('A sync in a process of its own needs SQLite');
    const base = (owner: Caller, connection: StoredConnection) => ({ file: options.file, ...writerInThread(options, owner), connection });
    return {
      // Reads only: the sync process's snapshot is the last commit, as a read beside a write sees it here.
      window: async (owner, connection, today) => (await this.run({ ...base(owner, connection), kind: 'window', today })) as SyncWindow,
      // The bridge asked from the sync process: its answer is read there and stays there for the write.
      fetch: async (accessUrl, request, bridge) =>
        (await this.run({
          kind: 'fetch',
          accessUrl,
          request,
          bridge: {
            allowPrivate: bridge.allowPrivate,
            ...(bridge.timeoutMs !== undefined && { timeoutMs: bridge.timeoutMs }),
            ...(bridge.maxBytes !== undefined && { maxBytes: bridge.maxBytes }),
          },
        })) as FetchedAccounts,
      write: async (owner, connection, accounts, sync) => {
        if (!('inThread' in accounts)) throw new Error('accounts fetched in this thread, written in the sync process');
        // The sync process started (or found running) before this process's writes wait: starting one takes a while.
        await this.run({ kind: 'ready' });
        const written = (await whileWritesWait(() =>
          this.run({ ...base(owner, connection), kind: 'write', held: accounts.inThread, sync }),
        )) as SyncWritten & { readonly changeText: string | null };
        noteWriteFromThread(options, owner, written);
        return written;
      },
      close: () => this.close(),
    };
  }

  /** This app is done with the sync process: the last app to close ends it, tasks under way included. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    syncProcessUsers -= 1;
    if (syncProcessUsers > 0) return;
    syncProcess = null;
    await this.process.close();
  }
}
