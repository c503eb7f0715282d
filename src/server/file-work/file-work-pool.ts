/**
 * Worker threads for untrusted files (issue 22, decision 0031). The main thread serves every user;
 * a statement or a restore is read and matched here instead, in a thread with a heap limit and a
 * time limit, so a file that costs too much fails alone with 413 while the server carries on.
 * Each user has at most one file in the works at a time, so one user cannot fill the queue.
 */
import type { Piscina } from 'piscina';
import { type Caller, callerKey } from '../auth/access-token.js';
import type { FileWorkerConfig } from '../config.js';
import { BACKGROUND_THREAD_NICENESS } from '../background-priority.js';
import { InvalidInputError, TooLargeError } from '../../domain/errors.js';
import { TooManyRequestsError } from '../../domain/errors.js';
import { type FileTask, type FileTaskAnswers, type FileTaskOutcome, transferOf } from './file-tasks.js';

export const FILE_TOO_COMPLEX = 'This file is too large or too complex to read.';
export const FILE_ALREADY_IN_THE_WORKS = 'Another of your files is still being read. Wait for it to finish, then try again.';

/** Where the worker's entry is: the compiled .js beside this file, or the .ts source under tsx (tests, benchmarks). */
function workerEntry(): { filename: string; execArgv?: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = new URL(fromSource ? './file-worker.ts' : './file-worker.js', import.meta.url).href;
  return fromSource ? { filename, execArgv: ['--import', 'tsx'] } : { filename };
}

export interface FileWorkLog {
  warn(details: object, message: string): void;
}

export class FileWorkPool {
  private pool: Promise<Piscina> | null = null;
  private readonly busyOwners = new Set<string>();

  constructor(
    private readonly config: FileWorkerConfig,
    private readonly log: FileWorkLog,
  ) {}

  /**
   * Runs the owner's file work: `work` gets a runner for the tasks of one request (read, then
   * match, say), and no other request of the same owner may run file tasks until it is done.
   * `field` names what a file too costly to read is reported on.
   */
  async forOwner<T>(
    owner: Caller,
    field: string,
    work: (run: <K extends FileTask>(task: K) => Promise<FileTaskAnswers[K['kind']]>) => Promise<T>,
  ): Promise<T> {
    const key = callerKey(owner);
    if (this.busyOwners.has(key)) throw new TooManyRequestsError(FILE_ALREADY_IN_THE_WORKS, 1);
    this.busyOwners.add(key);
    try {
      return await work((task) => this.run(task, field));
    } finally {
      this.busyOwners.delete(key);
    }
  }

  private async run<K extends FileTask>(task: K, field: string): Promise<FileTaskAnswers[K['kind']]> {
    const workers = await this.workers();
    let outcome: FileTaskOutcome<FileTaskAnswers[K['kind']]>;
    try {
      outcome = (await workers.run(task, {
        signal: AbortSignal.timeout(this.config.timeoutMs),
        transferList: transferOf(task),
      })) as FileTaskOutcome<FileTaskAnswers[K['kind']]>;
    } catch (error) {
      // Out of memory, out of time, or a stack or other failure the file caused: the worker is
      // gone (piscina starts a new one) and only this request hears of it.
      this.log.warn({ err: error, task: task.kind }, 'a file task failed in its worker');
      throw new TooLargeError(FILE_TOO_COMPLEX, field);
    }
    if (outcome.ok) return outcome.answer;
    const { failure } = outcome;
    if (failure.kind === 'invalid') throw new InvalidInputError(failure.message, failure.fields);
    throw new TooLargeError(failure.message, failure.field);
  }

  /**
   * Started on first use: a server that never reads a file never starts a thread, nor loads
   * piscina (decision 0041).
   */
  private workers(): Promise<Piscina> {
    this.pool ??= import('piscina').then(({ Piscina }) => this.startWorkers(Piscina));
    return this.pool;
  }

  private startWorkers(WorkerPool: typeof Piscina): Piscina {
    const pool = new WorkerPool({
      ...workerEntry(),
      minThreads: 0,
      maxThreads: this.config.threads,
      idleTimeout: 60_000,
      niceIncrement: BACKGROUND_THREAD_NICENESS,
      resourceLimits: {
        maxOldGenerationSizeMb: this.config.memoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(this.config.memoryMb / 8))),
      },
    });
    // A worker that dies outside a task (out of memory while its task was being cancelled, say)
    // is reported here; without a listener the pool's 'error' event would end the process.
    pool.on('error', (error: unknown) => this.log.warn({ err: error }, 'a file worker failed outside a task'));
    return pool;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    // A pool that never started (piscina failed to load) has nothing to stop.
    await (await pool?.catch(() => null))?.destroy();
  }
}
