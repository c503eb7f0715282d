/**
 * When the server's SQLite log is folded back into the database file (decision 0125): by a thread of
 * its own (wal-checkpoint-worker.ts), a moment after writes, instead of inside whichever commit takes
 * the log past 1,000 pages. Each round looks at the log's modification time (one stat, no query on
 * the server's connection) and asks the thread for a checkpoint only when it changed. The server's
 * connection keeps a checkpoint of its own far above what the rounds let the log reach
 * (database.ts): should the thread fall behind or fail, the log still cannot grow without bound.
 */
import fs from 'node:fs';
import { BackgroundThread } from './background-thread.js';
import type { WalCheckpointOutcome, WalCheckpointTask } from './wal-checkpoint-worker.js';

/** A round a second: a burst of writes is folded back within about a second of it. */
const ROUND_MS = 1_000;

export class WalCheckpoints {
  private readonly thread: BackgroundThread<WalCheckpointTask, WalCheckpointOutcome>;
  private readonly timer: NodeJS.Timeout;
  private seen: number | undefined;
  private running: Promise<void> | null = null;
  /** The last round's answer, for the log and for tests: how much of the log is in the file. */
  last: WalCheckpointOutcome | undefined;

  constructor(
    private readonly file: string,
    private readonly log: { warn(details: object, message: string): void },
    roundMs = ROUND_MS,
  ) {
    this.thread = new BackgroundThread('wal-checkpoint-worker', 'the checkpoint thread', log);
    this.timer = setInterval(() => void this.round(), roundMs);
    this.timer.unref();
  }

  /** One round: a checkpoint when the log changed since the last one asked for. */
  round(): Promise<void> {
    this.running ??= this.checkpointIfWritten().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async checkpointIfWritten(): Promise<void> {
    let modified: number;
    try {
      modified = fs.statSync(`${this.file}-wal`).mtimeMs;
    } catch {
      // No log (not opened yet, or folded away at a close): nothing to do.
      return;
    }
    if (modified === this.seen) return;
    try {
      this.last = await this.thread.run({ file: this.file });
      this.seen = modified;
    } catch (error) {
      // The next round tries again; the server's own connection still checkpoints past its limit.
      this.log.warn({ err: error }, 'the checkpoint thread could not fold the log back');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.thread.close();
  }
}
