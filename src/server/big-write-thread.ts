/**
 * Big writes in a thread of their own (decision 0103): a restore of your data, an undo whose
 * journal is long, and a create that may write thousands of rows (decision 0123). On SQLite better-sqlite3 runs every statement, and waits for every commit's fsync,
 * in the thread that calls it, so restoring 20,000 rows (about 80 staged inserts, each its own
 * commit, then the unit of work and the old ledger's deletes) or undoing a 20,000-row Extend held the
 * thread every other user is served on for 50-500 ms at a time (issue 34 item 5), however it gave way
 * between statements; on PostgreSQL the statements wait on a socket, but parsing a journal, checking
 * it against 20,000 rows, building their statements and the garbage of it all were still this
 * thread's. Here they run in a worker thread (big-write-worker.ts) with its own connection, as the
 * bank sync's write does on SQLite (decision 0098); the server's thread only waits for the answer.
 * On SQLite this process's own writes wait their turn meanwhile without blocking
 * (OpenDatabase.whileWritesWait) and its reads go on beside it on the reading connection; on
 * PostgreSQL the owner's advisory lock orders writes across connections as before.
 */
import { sql } from 'kysely';
import type { YourDataCounts } from '../contract/your-data.js';
import { BackgroundThread, noteWriteFromThread, personInThread, type WritesInThreadOptions, writerInThread } from './background-thread.js';
import type { Caller, SignedInUser } from './auth/access-token.js';
import { errorFromThread } from './bank/errors-in-thread.js';
import type { AccountChoice, LedgerFields, LedgerText, UndoingMember } from './ledger/index.js';
import type {
  BigWriteTask,
  BigWriteTaskOutcome,
  CreatedInThread,
  RestoredInThread,
  ThreadDatabase,
  UndoneInThread,
} from './big-write-worker.js';
import type { Undone } from './undo/undo-service.js';
import type { PackedStorableData } from './your-data/your-data.js';

export interface BigWriteThreadOptions extends WritesInThreadOptions {
  readonly where: ThreadDatabase;
}

/** The big writes' thread: started on first use, stopped a minute after its last task. */
export class BigWriteThread {
  private readonly thread: BackgroundThread<BigWriteTask, BigWriteTaskOutcome>;

  constructor(
    private readonly options: BigWriteThreadOptions,
    log: { warn(details: object, message: string): void },
  ) {
    this.thread = new BackgroundThread('big-write-worker', 'the big writes thread', log);
  }

  private run(task: BigWriteTask): Promise<BigWriteTaskOutcome> {
    return this.thread.run(task);
  }

  /** Runs the write in the thread while this process's writes wait; charges its rows and passes on its words. */
  private async write(
    owner: Caller,
    task: (base: {
      database: ThreadDatabase;
      defaultTimeZone: string;
      now: string;
      owner: Caller;
      actor: SignedInUser | null;
    }) => BigWriteTask,
  ): Promise<UndoneInThread | RestoredInThread | CreatedInThread> {
    const { database, where } = this.options;
    // On SQLite this process's writes wait while the thread writes; PostgreSQL's own locks order them.
    const whileWritesWait = database.whileWritesWait ?? (<T>(work: () => Promise<T>) => work());
    // Only while the server's own database is open: once it is closed (the server stopping), a write
    // fails here as every other call's does, rather than going on through the thread's connection.
    await database.db.selectNoFrom(sql<number>`1`.as('open')).execute();
    // The thread started (or found running) before this process's writes wait: starting one takes a while.
    await this.run({ kind: 'ready' });
    const outcome = await whileWritesWait(() => this.run(task({ database: where, ...writerInThread(this.options, owner) })));
    if (!outcome.ok) throw errorFromThread(outcome.error, 'big writes');
    if (!outcome.value) throw new Error('the big writes thread answered nothing');
    noteWriteFromThread(this.options, owner, outcome.value);
    return outcome.value;
  }

  /** A create of thousands of rows (decision 0123), answered as the route sends it. */
  async create(owner: Caller, account: AccountChoice, fields: LedgerFields, expected: string | null): Promise<LedgerText> {
    const created = await this.write(owner, (base) => ({ ...base, kind: 'create', account, fields, expected }));
    if (!('written' in created)) throw new Error('the big writes thread answered a create with something else');
    return { answer: 'ledger-text', etag: created.etag, body: created.body, rows: created.rows, written: created.written };
  }

  /** The undo `token` names, answered as the route sends it. */
  async undo(owner: Caller, member: UndoingMember, token: string): Promise<Undone> {
    const undone = await this.write(owner, (base) => ({
      ...base,
      kind: 'undo',
      member: { user: personInThread(member.user), role: member.role },
      token,
    }));
    if (!('answer' in undone)) throw new Error('the big writes thread answered an undo with counts');
    return undone;
  }

  /** A restore of the checked data, still as the file worker's text (it is read in the thread). */
  async restore(owner: Caller, data: PackedStorableData): Promise<YourDataCounts> {
    const restored = await this.write(owner, (base) => ({ ...base, kind: 'restore', data }));
    if ('answer' in restored) throw new Error('the big writes thread answered a restore with an undo');
    return { deposits: restored.deposits, expenses: restored.expenses, transactions: restored.transactions };
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
