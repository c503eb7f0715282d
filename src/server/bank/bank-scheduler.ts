/**
 * Bank sync on the server's own schedule (issue 37 item 3, decision 0082): every process ticks each
 * minute; each tick elects the connections whose time has come through the database (a
 * compare-and-set on their next time and lease, as the notification outbox leases its messages), so
 * two processes on one PostgreSQL make one request per connection per tick. A connection is synced
 * up to 4 times a day, each at a random minute of its quarter of the day; the 24 requests a day are
 * counted in the database whatever triggers them (BankService.sync).
 */
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../domain/errors.js';
import { TooManyRequestsError } from '../../domain/errors.js';
import type { BankConnectionStore } from './bank-connection-store.js';
import { type BankService, nextScheduledSync } from './bank-service.js';

/** Far longer than a sync takes (a few bridge requests of at most 30 s each). */
const LEASE_MS = 10 * 60_000;
/** Connections one process syncs per tick: the others wait for the next tick (or another process). */
const PER_TICK = 20;

export class BankScheduler {
  private readonly leaseOwner = randomUUID();

  constructor(
    private readonly store: BankConnectionStore,
    private readonly bank: BankService,
    private readonly now: () => Date,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** One round: the connections this process won, synced one after another. Answers how many it synced. */
  async tick(): Promise<number> {
    const now = this.now();
    const won = await this.store.claimDue(now, this.leaseOwner, LEASE_MS, () => nextScheduledSync(now), PER_TICK);
    let synced = 0;
    for (const { id, owner } of won) {
      try {
        await this.bank.sync(owner, id, 'schedule');
        synced += 1;
      } catch (error) {
        // A bridge failure is recorded on the connection (it needs attention); a spent quota waits for tomorrow.
        if (!(error instanceof ConflictError || error instanceof TooManyRequestsError)) this.onError(error);
      } finally {
        await this.store.release(id, this.leaseOwner).catch(this.onError);
      }
    }
    return synced;
  }
}

/** Runs the scheduler's ticks on an unref'd timer, one at a time; answers the stop that waits for the tick under way. */
export function startBankTimer(scheduler: BankScheduler, everyMs: number, onError: (error: unknown) => void): () => Promise<void> {
  let stopped = false;
  let round: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      round = scheduler
        .tick()
        .catch(onError)
        .finally(() => {
          if (!stopped) schedule();
        });
    }, everyMs);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await round;
  };
}
