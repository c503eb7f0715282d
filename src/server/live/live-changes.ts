/**
 * Changes seen live, put together for the app (decision 0096): the bus, on PostgreSQL its relay
 * between processes, and the open streams.
 */
import type { DatabaseConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { BudgetFinder } from '../http/api-scope.js';
import { EventStreams } from './event-streams.js';
import { LiveBus } from './live-bus.js';
import { PostgresRelay } from './postgres-relay.js';

export interface LiveChanges {
  readonly bus: LiveBus;
  readonly streams: EventStreams;
  /** Ends every stream, then stops listening to the other processes. */
  close(): Promise<void>;
}

export async function startLiveChanges(options: {
  readonly database: DatabaseConfig;
  readonly db: Database;
  readonly findBudget: BudgetFinder;
  readonly connectionMs: number;
  readonly onError: (error: unknown, what: string) => void;
}): Promise<LiveChanges> {
  const bus = new LiveBus();
  if (options.database.kind === 'postgres') {
    const relay = new PostgresRelay({ url: options.database.url, db: options.db, bus, onError: options.onError });
    bus.relayThrough(relay);
    await relay.start();
  }
  const streams = new EventStreams({
    bus,
    findBudget: options.findBudget,
    connectionMs: options.connectionMs,
    onError: (error) => options.onError(error, 'a change could not be told to a stream'),
  });
  return {
    bus,
    streams,
    async close() {
      streams.closeAll();
      await bus.close();
    },
  };
}
