/**
 * One background worker thread (decisions 0098, 0103, 0107): a piscina pool of one thread, started on
 * first use, stopped a minute after its last task (freeing its memory and its database connection),
 * at the background threads' priority, and each task bounded in time so a stuck thread cannot hold
 * every write for ever. The bank sync and the big writes each have one.
 */
import type { Piscina } from 'piscina';
import type { Actor } from './activity/activity-store.js';
import type { Caller, SignedInUser } from './auth/access-token.js';
import { BACKGROUND_THREAD_NICENESS } from './background-priority.js';
import type { OpenDatabase } from './db/database.js';
import { noteChangeText } from './live/change-text.js';

/** Far beyond any task (a 20,000-row restore takes a few seconds, benchmark 14's sync well under one). */
const TASK_TIMEOUT_MS = 120_000;
/** A server that needs the thread only now and then frees it a minute after the last task. */
const IDLE_MS = 60_000;

/**
 * Where a module beside this one is, as a file URL: the built .js, or the .ts source under tsx (tests,
 * benchmarks), with the Node options that load it. A worker thread's entry, and a background
 * process's (background-process.ts).
 */
export function entryBeside(entry: string): { filename: string; execArgv?: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = new URL(`./${entry}${fromSource ? '.ts' : '.js'}`, import.meta.url).href;
  return fromSource ? { filename, execArgv: ['--import', 'tsx'] } : { filename };
}

export class BackgroundThread<Task, Outcome> {
  private pool: Promise<Piscina> | null = null;

  /** `entry`: the worker's module beside this one, without its extension; `name`: the thread as the log says it. */
  constructor(
    private readonly entry: string,
    private readonly name: string,
    private readonly log: { warn(details: object, message: string): void },
  ) {}

  private workers(): Promise<Piscina> {
    this.pool ??= import('piscina').then(({ Piscina: WorkerPool }) => {
      const started = new WorkerPool({
        ...entryBeside(this.entry),
        minThreads: 0,
        maxThreads: 1,
        idleTimeout: IDLE_MS,
        niceIncrement: BACKGROUND_THREAD_NICENESS,
      });
      started.on('error', (error: unknown) => this.log.warn({ err: error }, `${this.name} failed outside a task`));
      return started;
    });
    return this.pool;
  }

  /** `transferList`: buffers moved to the thread, not copied. */
  async run(task: Task, transferList: ArrayBuffer[] = []): Promise<Outcome> {
    return (await (await this.workers()).run(task, { signal: AbortSignal.timeout(TASK_TIMEOUT_MS), transferList })) as Outcome;
  }

  async close(): Promise<void> {
    const started = this.pool;
    this.pool = null;
    await (await started?.catch(() => null))?.destroy();
  }
}

/** A signed-in person as plain data: no undefined field across the copy to the thread. */
export function personInThread(user: SignedInUser): SignedInUser {
  return { issuer: user.issuer, subject: user.subject, ...(user.name !== undefined && { name: user.name }) };
}

/** What the server's side of a write made in a background thread needs (the bank sync's, decision 0098; the big writes', decision 0103). */
export interface WritesInThreadOptions {
  readonly database: OpenDatabase;
  readonly defaultTimeZone: string;
  readonly now: () => Date;
  /** Rows the write touched, charged to the request it came with (issue 34), as the unit of work does in this thread. */
  readonly charge: (owner: Caller, rows: number) => void;
  /** Who a write in this owner's name is made by (decision 0094), found here: the request is this thread's. */
  readonly actorOf: (owner: Caller) => Actor;
}

/** Who writes and when, as plain data for the thread: the app's clock, the owner, and the member (null for no person, a scheduled sync). */
export function writerInThread(options: WritesInThreadOptions, owner: Caller) {
  const actor = options.actorOf(owner);
  return {
    defaultTimeZone: options.defaultTimeZone,
    now: options.now().toISOString(),
    owner: { issuer: owner.issuer, subject: owner.subject },
    actor: actor ? personInThread(actor) : null,
  };
}

/** A write the thread made, back here: its rows charged to the request, its activity's words passed on to the other members' pages (decision 0096). */
export function noteWriteFromThread(
  options: WritesInThreadOptions,
  owner: Caller,
  made: { readonly rowsTouched: number; readonly changeText: string | null },
): void {
  options.charge(owner, made.rowsTouched);
  if (made.changeText !== null) noteChangeText(owner, made.changeText);
}
