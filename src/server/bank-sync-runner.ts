/**
 * A bank sync's ledger steps in a thread of their own, on SQLite (decision 0098). better-sqlite3
 * runs every statement in the thread that calls it, so a sync that reads 5 ledgers of 2,000 rows,
 * plans 1,000 transactions and writes them held the thread every other user is served on for the
 * whole of it (benchmark 14b: another user's calls waited 26 to 50 times their idle time). Here the
 * steps run in a worker thread (bank-sync-worker.ts) with its own connection to the file; the
 * server's thread only waits for the answer. While the worker writes, this process's own writes
 * wait their turn without blocking (OpenDatabase.whileWritesWait), and its reads go on beside it on
 * the reading connection, as WAL lets them. PostgreSQL keeps the steps in the server's thread
 * (bank-sync-unit.ts' unitsInProcess): there other users' queries have connections of their own.
 */
import type { Caller } from './auth/access-token.js';
import type { StoredConnection } from './bank/bank-connection-store.js';
import type { BankSyncUnits, FetchedAccounts, SyncWindow, SyncWritten } from './bank/bank-sync-unit.js';
import { errorFromThread } from './bank/errors-in-thread.js';
import type { BankSyncTask, BankSyncTaskOutcome } from './bank-sync-worker.js';
import { BackgroundThread, noteWriteFromThread, type WritesInThreadOptions, writerInThread } from './background-thread.js';
import type { AccountsAnswerReader } from './bank/simplefin-client.js';

export interface ThreadUnitsOptions extends WritesInThreadOptions {
  readonly file: string;
}

/** The bytes themselves when they own their whole buffer (moved, not copied); a view into a shared pool is copied. */
function transferOf(body: Uint8Array): ArrayBuffer[] {
  return body.buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? [body.buffer] : [];
}

/** The bank sync's thread: started on first use, stopped a minute after its last task. */
export class BankSyncThread {
  private readonly thread: BackgroundThread<BankSyncTask, BankSyncTaskOutcome>;

  constructor(log: { warn(details: object, message: string): void }) {
    this.thread = new BackgroundThread('bank-sync-worker', 'the bank sync thread', log);
  }

  private async run(task: BankSyncTask, transferList: ArrayBuffer[] = []): Promise<unknown> {
    const outcome = await this.thread.run(task, transferList);
    if (!outcome.ok) throw errorFromThread(outcome.error);
    return outcome.value;
  }

  /** Reads a bridge's answer in the thread, whatever the database: up to 10 MB of JSON parsed and checked there. */
  readonly readAnswer: AccountsAnswerReader = async (answer) =>
    (await this.run({ kind: 'read-accounts', answer }, transferOf(answer.body))) as Awaited<ReturnType<AccountsAnswerReader>>;

  /** On SQLite: the sync's window and write in the thread, with a connection of its own. */
  units(options: ThreadUnitsOptions): BankSyncUnits {
    const whileWritesWait = options.database.whileWritesWait;
    if (!whileWritesWait) throw new Error('A sync in a thread of its own needs SQLite');
    const base = (owner: Caller, connection: StoredConnection) => ({ file: options.file, ...writerInThread(options, owner), connection });
    return {
      // Reads only: the thread's snapshot is the last commit, as a read beside a write sees it here.
      window: async (owner, connection, today) => (await this.run({ ...base(owner, connection), kind: 'window', today })) as SyncWindow,
      // The bridge asked from the thread: its answer is read there and stays there for the write.
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
        if (!('inThread' in accounts)) throw new Error("accounts fetched in this thread, written in the sync's");
        // The thread started (or found running) before this process's writes wait: starting one takes a while.
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

  close(): Promise<void> {
    return this.thread.close();
  }
}
