/**
 * Big undos in a thread of their own, on SQLite (decision 0103). better-sqlite3 runs every statement
 * in the thread that calls it, so an undo of a 20,000-row Extend held the thread every other user is
 * served on while it parsed the journal, checked it against the ledger's rows, deleted them and
 * committed (60-140 ms at a time, issue 34 item 5), however it gave way between statements. Here the
 * undo runs in a worker thread (undo-worker.ts) with its own connection to the file, as the bank
 * sync's write does (decision 0098); the server's thread only waits for the answer. While the
 * worker writes, this process's own writes wait their turn without blocking
 * (OpenDatabase.whileWritesWait), and its reads go on beside it on the reading connection.
 */
import type { Piscina } from 'piscina';
import type { Caller } from './auth/access-token.js';
import { errorFromThread } from './bank/errors-in-thread.js';
import type { OpenDatabase } from './db/database.js';
import type { UndoingMember } from './ledger/index.js';
import { noteChangeText } from './live/change-text.js';
import type { UndoneInThread, UndoTask, UndoTaskOutcome } from './undo-worker.js';

/** Far beyond any undo (a 20,000-row one takes about a second): a stuck thread must not hold every write for ever. */
const TASK_TIMEOUT_MS = 120_000;
/** A server that undoes big writes only now and then frees the thread's memory (and its connection) a minute after the last. */
const IDLE_MS = 60_000;

/** Where the worker's entry is: the built .js beside this module, or the .ts source under tsx (tests, benchmarks). */
function workerEntry(): { filename: string; execArgv?: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = new URL(fromSource ? './undo-worker.ts' : './undo-worker.js', import.meta.url).href;
  return fromSource ? { filename, execArgv: ['--import', 'tsx'] } : { filename };
}

export interface UndoThreadOptions {
  readonly file: string;
  readonly database: OpenDatabase;
  readonly defaultTimeZone: string;
  readonly now: () => Date;
  /** Rows the undo touched, charged to the request it came with (issue 34), as the unit of work does in this thread. */
  readonly charge: (owner: Caller, rows: number) => void;
}

/** The member as plain data: no undefined field across the copy. */
function memberInThread({ user, role }: UndoingMember): UndoingMember {
  return { user: { issuer: user.issuer, subject: user.subject, ...(user.name !== undefined && { name: user.name }) }, role };
}

/** The big undos' thread: started on first use, stopped a minute after its last task. */
export class UndoThread {
  private pool: Promise<Piscina> | null = null;

  constructor(
    private readonly options: UndoThreadOptions,
    private readonly log: { warn(details: object, message: string): void },
  ) {}

  private workers(): Promise<Piscina> {
    this.pool ??= import('piscina').then(({ Piscina: WorkerPool }) => {
      const started = new WorkerPool({ ...workerEntry(), minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS });
      started.on('error', (error: unknown) => this.log.warn({ err: error }, 'the undo thread failed outside a task'));
      return started;
    });
    return this.pool;
  }

  private async run(task: UndoTask): Promise<UndoneInThread | null> {
    const outcome = (await (await this.workers()).run(task, { signal: AbortSignal.timeout(TASK_TIMEOUT_MS) })) as UndoTaskOutcome;
    if (!outcome.ok) throw errorFromThread(outcome.error, 'undo');
    return outcome.value;
  }

  /** The undo `token` names, done in the thread while this process's writes wait; answered as the route sends it. */
  async undo(owner: Caller, member: UndoingMember, token: string): Promise<UndoneInThread> {
    const { database, file, defaultTimeZone, now, charge } = this.options;
    const whileWritesWait = database.whileWritesWait;
    if (!whileWritesWait) throw new Error('An undo in a thread of its own needs SQLite');
    // The thread started (or found running) before this process's writes wait: starting one takes a while.
    await this.run({ kind: 'ready' });
    const undone = await whileWritesWait(() =>
      this.run({
        kind: 'undo',
        file,
        defaultTimeZone,
        now: now().toISOString(),
        owner: { issuer: owner.issuer, subject: owner.subject },
        member: memberInThread(member),
        token,
      }),
    );
    if (!undone) throw new Error('the undo thread answered nothing');
    charge(owner, undone.rowsTouched);
    // What the thread's activity entry said, for the other members' pages (decision 0096).
    if (undone.changeText !== null) noteChangeText(owner, undone.changeText);
    return undone;
  }

  async close(): Promise<void> {
    const started = this.pool;
    this.pool = null;
    await (await started?.catch(() => null))?.destroy();
  }
}
