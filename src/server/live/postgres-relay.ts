/**
 * Changes between server processes on one PostgreSQL (decision 0096): NOTIFY on one channel per
 * schema, and one dedicated LISTEN connection per process, outside the pool, which reconnects with
 * backoff when it is lost (PostgreSQL restarted) and never stops the server starting or serving.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Database } from '../db/database.js';
import { type BudgetChange, decodeNotice, encodeNotice } from './budget-change.js';
import type { ChangeRelay, LiveBus } from './live-bus.js';

/** How long the first LISTEN may take at start before the server goes on without it (it keeps trying). */
const FIRST_LISTEN_MS = 5_000;
const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 30_000;

/**
 * The channel of the database's current schema: processes on one schema hear each other, and tests
 * on other schemas of the same database do not. Hashed, so any schema's name fits a channel's 63 bytes.
 */
const CHANNEL = sql<string>`'leftover_changes_' || left(md5(current_schema()), 16)`;

export interface PostgresRelayOptions {
  readonly url: string;
  readonly db: Database;
  readonly bus: LiveBus;
  readonly onError: (error: unknown, what: string) => void;
}

export class PostgresRelay implements ChangeRelay {
  /** This process: its own notices come back to it, and its streams were told already. */
  private readonly self = crypto.randomUUID();
  private client: pg.Client | undefined;
  private closed = false;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private listenedOnce = false;

  constructor(private readonly options: PostgresRelayOptions) {}

  /** Starts listening; settles once the first LISTEN is in place, or after a few seconds without it. */
  async start(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.listen(), new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_LISTEN_MS)))]);
    clearTimeout(timer);
  }

  async send(change: BudgetChange): Promise<void> {
    // Through the pool, after the write committed: NOTIFY outside a transaction is sent at once.
    await sql`select pg_notify(${CHANNEL}, ${encodeNotice(change, this.self)})`.execute(this.options.db);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** One attempt at a LISTEN connection; a failure, now or later, tries again after a longer wait. */
  private async listen(): Promise<void> {
    const { default: driver } = await import('pg');
    const client = new driver.Client({ connectionString: this.options.url });
    let lost = false;
    const reconnect = (error: unknown) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.options.onError(error, 'the connection that hears other processes’ changes was lost; trying again');
      this.retryTimer = setTimeout(() => void this.listen(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, LONGEST_RETRY_MS);
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect(new Error('the LISTEN connection ended')));
    client.on('notification', (message) => {
      const notice = decodeNotice(message.payload);
      if (notice && notice.from !== this.self) this.options.bus.deliver(notice.change);
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string }>(`select 'leftover_changes_' || left(md5(current_schema()), 16) as channel`);
      const channel = rows[0]?.channel;
      if (channel === undefined) throw new Error('no current schema');
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      reconnect(error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    // Whatever was sent while this process could not hear it: its pages reload quietly.
    if (this.listenedOnce) this.options.bus.deliverEverywhere();
    this.listenedOnce = true;
  }
}
