/**
 * Big writes in a thread of their own (decision 0103): a restore of your data, and an undo whose
 * journal is long. On SQLite better-sqlite3 runs every statement, and waits for every commit's fsync,
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
import type { Piscina } from 'piscina';
import type { YourDataCounts } from '../contract/your-data.js';
import { BACKGROUND_THREAD_NICENESS } from './background-priority.js';
import type { Actor } from './activity/activity-store.js';
import type { Caller, SignedInUser } from './auth/access-token.js';
import { errorFromThread } from './bank/errors-in-thread.js';
import type { OpenDatabase } from './db/database.js';
import type { UndoingMember } from './ledger/index.js';
import { noteChangeText } from './live/change-text.js';
import type { BigWriteTask, BigWriteTaskOutcome, RestoredInThread, ThreadDatabase, UndoneInThread } from './big-write-worker.js';
import type { Undone } from './undo/undo-service.js';
import type { PackedStorableData } from './your-data/your-data.js';

/** Far beyond any restore or undo (a 20,000-row one takes a few seconds): a stuck thread must not hold every write for ever. */
const TASK_TIMEOUT_MS = 120_000;
/** A server that writes big only now and then frees the thread's memory (and its connection) a minute after the last. */
const IDLE_MS = 60_000;

/** Where the worker's entry is: the built .js beside this module, or the .ts source under tsx (tests, benchmarks). */
function workerEntry(): { filename: string; execArgv?: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = new URL(fromSource ? './big-write-worker.ts' : './big-write-worker.js', import.meta.url).href;
  return fromSource ? { filename, execArgv: ['--import', 'tsx'] } : { filename };
}

export interface BigWriteThreadOptions {
  readonly where: ThreadDatabase;
  readonly database: OpenDatabase;
  readonly defaultTimeZone: string;
  readonly now: () => Date;
  /** Rows the write touched, charged to the request it came with (issue 34), as the unit of work does in this thread. */
  readonly charge: (owner: Caller, rows: number) => void;
  /** Who a write in this owner's name is made by (decision 0094), found here: the request is this thread's. */
  readonly actorOf: (owner: Caller) => Actor;
}

/** A signed-in person as plain data: no undefined field across the copy. */
function personInThread(user: SignedInUser): SignedInUser {
  return { issuer: user.issuer, subject: user.subject, ...(user.name !== undefined && { name: user.name }) };
}

/** The big writes' thread: started on first use, stopped a minute after its last task. */
export class BigWriteThread {
  private pool: Promise<Piscina> | null = null;

  constructor(
    private readonly options: BigWriteThreadOptions,
    private readonly log: { warn(details: object, message: string): void },
  ) {}

  private workers(): Promise<Piscina> {
    this.pool ??= import('piscina').then(({ Piscina: WorkerPool }) => {
      const started = new WorkerPool({
        ...workerEntry(),
        minThreads: 0,
        maxThreads: 1,
        idleTimeout: IDLE_MS,
        niceIncrement: BACKGROUND_THREAD_NICENESS,
      });
      started.on('error', (error: unknown) => this.log.warn({ err: error }, 'the big writes thread failed outside a task'));
      return started;
    });
    return this.pool;
  }

  private async run(task: BigWriteTask): Promise<BigWriteTaskOutcome> {
    return (await (await this.workers()).run(task, { signal: AbortSignal.timeout(TASK_TIMEOUT_MS) })) as BigWriteTaskOutcome;
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
  ): Promise<UndoneInThread | RestoredInThread> {
    const { database, where, defaultTimeZone, now, charge, actorOf } = this.options;
    // On SQLite this process's writes wait while the thread writes; PostgreSQL's own locks order them.
    const whileWritesWait = database.whileWritesWait ?? (<T>(work: () => Promise<T>) => work());
    // Only while the server's own database is open: once it is closed (the server stopping), a write
    // fails here as every other call's does, rather than going on through the thread's connection.
    await database.db.selectNoFrom(sql<number>`1`.as('open')).execute();
    // The thread started (or found running) before this process's writes wait: starting one takes a while.
    await this.run({ kind: 'ready' });
    const actor = actorOf(owner);
    const outcome = await whileWritesWait(() =>
      this.run(
        task({
          database: where,
          defaultTimeZone,
          now: now().toISOString(),
          owner: { issuer: owner.issuer, subject: owner.subject },
          actor: actor ? personInThread(actor) : null,
        }),
      ),
    );
    if (!outcome.ok) throw errorFromThread(outcome.error, 'big writes');
    if (!outcome.value) throw new Error('the big writes thread answered nothing');
    const made = outcome.value;
    charge(owner, made.rowsTouched);
    // What the thread's activity entry said, for the other members' pages (decision 0096).
    if (made.changeText !== null) noteChangeText(owner, made.changeText);
    return made;
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

  async close(): Promise<void> {
    const started = this.pool;
    this.pool = null;
    await (await started?.catch(() => null))?.destroy();
  }
}
