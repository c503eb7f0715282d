/**
 * Where a process's streams hear of changes (decision 0096). Every change is told at once to the
 * streams of this process; on PostgreSQL it is also sent to the other processes through the
 * database's own NOTIFY (postgres-relay.ts), whose LISTEN tells their streams. SQLite serves one
 * process, so this alone is enough there. No second broker.
 */
import type { Caller } from '../auth/access-token.js';
import { type BudgetChange, ownerKey } from './budget-change.js';

export type ChangeListener = (change: BudgetChange) => void;

/** How changes reach the other processes; absent on SQLite. */
export interface ChangeRelay {
  send(change: BudgetChange): Promise<void>;
  close(): Promise<void>;
}

export class LiveBus {
  private readonly listeners = new Map<string, Set<ChangeListener>>();
  private relay: ChangeRelay | undefined;

  /** Sends every change to the other processes through `relay` from now on. */
  relayThrough(relay: ChangeRelay): void {
    this.relay = relay;
  }

  /** Listens to the changes of the budget with these owner columns; the answer stops listening. */
  subscribe(owner: Caller, listener: ChangeListener): () => void {
    const key = ownerKey(owner);
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  /**
   * Tells this process's streams of a committed change and the other processes. A failure to relay
   * is the caller's to log: the change itself is written, and the other members see it on their next load.
   */
  async publish(change: BudgetChange): Promise<void> {
    this.deliver(change);
    await this.relay?.send(change);
  }

  /** Tells this process's streams of the budget's change, and no one else. */
  deliver(change: BudgetChange): void {
    for (const listener of this.listeners.get(ownerKey(change.owner)) ?? []) listener(change);
  }

  /**
   * Tells every stream to reload quietly: changes sent while this process could not hear the others
   * (its LISTEN connection was lost) are not lost to its members' pages.
   */
  deliverEverywhere(): void {
    for (const set of this.listeners.values()) {
      for (const listener of set) listener({ owner: { issuer: '', subject: '' }, actor: null, by: null, text: null });
    }
  }

  async close(): Promise<void> {
    await this.relay?.close();
  }
}
