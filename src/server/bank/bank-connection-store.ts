/**
 * The bank connections' tables (migration 0023, decision 0082): bank_connections, bank_accounts and
 * bank_sync_log. Every query is scoped by the owner, except the scheduler's election, which reads
 * due connections of everyone and then acts as their owner. The sealed Access URL is read by one
 * function only (sealedAccessUrl), for a sync.
 */
import type { BankSyncRecord } from '../../contract/bank-connections.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { newId } from '../db/ids.js';
import { ownerColumns } from '../db/owner.js';

/** At most this many requests to one connection's bridge per UTC day, whatever is pressed (issue 37 item 3). */
export const MAX_REQUESTS_PER_DAY = 24;

/**
 * The sync log keeps this many entries per connection, the latest (decision 0086): two days of a
 * connection that asks 24 times a day, and months of the schedule's four. Older ones go with each insert.
 */
export const KEPT_SYNC_LOG_ENTRIES = 50;

/** A bridge account as this user stored it: what the bridge said, and where it is linked. */
export interface StoredBankAccount extends BridgeAccountSummary {
  readonly accountId: string | null;
  /** The owner's day it last synced into its linked ledger; null before (or since it was linked anew). */
  readonly lastSuccessOn: IsoDate | null;
}

export interface StoredConnection {
  readonly id: string;
  readonly owner: Caller;
  /** The member who connected it (decision 0088); null for one made before budgets, by the owner of its rows. */
  readonly madeBy: Caller | null;
  readonly state: 'Connected' | 'Needs attention';
  readonly reason: string | null;
  readonly scheduled: boolean;
  readonly lastSuccessOn: IsoDate | null;
  readonly lastSync: BankSyncRecord | null;
  readonly accounts: readonly StoredBankAccount[];
}

/** A bridge account linked to a Leftover account: which connection, which of its accounts. */
export interface BankLink {
  readonly connectionId: string;
  readonly remoteId: string;
}

/** A bridge account as a claim or a sync read it: what the list shows of it. */
export interface BridgeAccountSummary {
  readonly remoteId: string;
  readonly institution: string;
  readonly name: string;
  readonly currency: string;
  readonly balance: number | null;
  readonly balanceDate: IsoDate | null;
}

function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function parseRecord(text: string | null): BankSyncRecord | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as BankSyncRecord;
  } catch {
    // A record is only ever written by this module; one unreadable is shown as none rather than failing the list.
    return null;
  }
}

export class BankConnectionStore {
  constructor(private readonly db: Database) {}

  async count(owner: Caller, db: Database = this.db): Promise<number> {
    const row = await db
      .selectFrom('bank_connections')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** The owner's connections, oldest first, each with its accounts in the bridge's order. */
  async list(owner: Caller): Promise<StoredConnection[]> {
    const connections = await this.db
      .selectFrom('bank_connections')
      .select(['id', 'state', 'reason', 'scheduled', 'last_success_on', 'last_sync', 'made_by_iss', 'made_by_sub'])
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (connections.length === 0) return [];
    const accounts = await this.db
      .selectFrom('bank_accounts')
      .selectAll()
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .orderBy('connection_id')
      .orderBy('position')
      .execute();
    return connections.map((row) => ({
      id: row.id,
      owner,
      madeBy: row.made_by_iss !== null && row.made_by_sub !== null ? { issuer: row.made_by_iss, subject: row.made_by_sub } : null,
      state: row.state === 'Needs attention' ? 'Needs attention' : 'Connected',
      reason: row.reason,
      scheduled: row.scheduled === 1,
      lastSuccessOn: row.last_success_on as IsoDate | null,
      lastSync: parseRecord(row.last_sync),
      accounts: accounts
        .filter((account) => account.connection_id === row.id)
        .map((account) => ({
          remoteId: account.remote_id,
          institution: account.institution,
          name: account.name,
          currency: account.currency,
          balance: account.balance_cents === null ? null : Number(account.balance_cents),
          balanceDate: account.balance_date as IsoDate | null,
          accountId: account.account_id,
          lastSuccessOn: account.last_success_on as IsoDate | null,
        })),
    }));
  }

  async find(owner: Caller, id: string): Promise<StoredConnection | undefined> {
    return (await this.list(owner)).find((connection) => connection.id === id);
  }

  /**
   * Stores a claimed connection and its accounts in one transaction, unless the owner already has
   * `max` (checked again here: two claims at once must not make a sixth). False when it had.
   * `madeBy`: the member who connected it, in a budget shared with others (decision 0088).
   */
  async insert(
    owner: Caller,
    madeBy: Caller,
    id: string,
    sealedAccessUrl: string,
    accounts: readonly BridgeAccountSummary[],
    state: { readonly state: 'Connected' | 'Needs attention'; readonly reason: string | null; readonly scheduled: boolean },
    requests: number,
    nextSyncAt: Date,
    now: Date,
    max: number,
    /** The caller's transaction (under the budget's lock, decision 0100); else one of its own. */
    within?: Database,
  ): Promise<boolean> {
    const store = async (trx: Database) => {
      if ((await this.count(owner, trx)) >= max) return false;
      await trx
        .insertInto('bank_connections')
        .values({
          id,
          ...ownerColumns(owner),
          sealed_access_url: sealedAccessUrl,
          state: state.state,
          reason: state.reason,
          scheduled: state.scheduled ? 1 : 0,
          requests_day: utcDay(now),
          requests_count: requests,
          last_request_at: null,
          next_sync_at: nextSyncAt.toISOString(),
          lease_until: null,
          lease_owner: null,
          last_success_on: null,
          last_sync: null,
          created_at: now.toISOString(),
          made_by_iss: madeBy.issuer,
          made_by_sub: madeBy.subject,
        })
        .execute();
      await this.saveAccounts(trx, owner, id, accounts);
      return true;
    };
    return within ? store(within) : this.db.transaction().execute(store);
  }

  /** The bridge's accounts as last read: known ones keep their links, new ones come unlinked, none is dropped. */
  async saveAccounts(db: Database, owner: Caller, connectionId: string, accounts: readonly BridgeAccountSummary[]): Promise<void> {
    const known = await db
      .selectFrom('bank_accounts')
      .select(['remote_id', 'position'])
      .where('connection_id', '=', connectionId)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .execute();
    const positions = new Map(known.map((row) => [row.remote_id, row.position]));
    let next = known.reduce((max, row) => Math.max(max, row.position + 1), 0);
    for (const account of accounts) {
      const values = {
        institution: account.institution.slice(0, 200),
        name: account.name.slice(0, 200),
        currency: account.currency.slice(0, 16),
        balance_cents: account.balance,
        balance_date: account.balanceDate,
      };
      if (positions.has(account.remoteId)) {
        await db
          .updateTable('bank_accounts')
          .set(values)
          .where('connection_id', '=', connectionId)
          .where('remote_id', '=', account.remoteId)
          .execute();
      } else {
        positions.set(account.remoteId, next);
        await db
          .insertInto('bank_accounts')
          .values({
            connection_id: connectionId,
            remote_id: account.remoteId,
            ...ownerColumns(owner),
            position: next,
            account_id: null,
            last_success_on: null,
            ...values,
          })
          .execute();
        next += 1;
      }
    }
  }

  /** Notes the day these accounts synced into their ledgers, in the sync's transaction. */
  async markSynced(db: Database, owner: Caller, connectionId: string, remoteIds: readonly string[], day: IsoDate): Promise<void> {
    if (remoteIds.length === 0) return;
    await db
      .updateTable('bank_accounts')
      .set({ last_success_on: day })
      .where('connection_id', '=', connectionId)
      .where('remote_id', 'in', remoteIds)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .execute();
  }

  /** Links (or, with null, unlinks) one bridge account; false when the connection has no such account. */
  async link(owner: Caller, connectionId: string, remoteId: string, accountId: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable('bank_accounts')
      // A new link starts its window afresh, from the ledger's start.
      .set({ account_id: accountId, last_success_on: null })
      .where('connection_id', '=', connectionId)
      .where('remote_id', '=', remoteId)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** The bridge accounts (of any of the owner's connections) linked to this Leftover account, in a fixed order. */
  async linkedTo(owner: Caller, accountId: string): Promise<BankLink[]> {
    const rows = await this.db
      .selectFrom('bank_accounts')
      .select(['connection_id', 'remote_id'])
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .where('account_id', '=', accountId)
      .orderBy('connection_id')
      .orderBy('position')
      .execute();
    return rows.map((row) => ({ connectionId: row.connection_id, remoteId: row.remote_id }));
  }

  /**
   * A restore's links (decision 0086), in its transaction: every bridge account of the owner unlinked
   * (the accounts it was linked to are gone), then each link the document names set to its restored
   * account, if the owner still has that connection and account in dollars. Each starts its window
   * afresh, as a new link does: the restored ledger may be older than the last sync.
   */
  async restoreLinks(owner: Caller, links: readonly (BankLink & { readonly accountId: string })[]): Promise<void> {
    await this.db
      .updateTable('bank_accounts')
      .set({ account_id: null, last_success_on: null })
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .execute();
    for (const link of links) {
      await this.db
        .updateTable('bank_accounts')
        .set({ account_id: link.accountId })
        .where('connection_id', '=', link.connectionId)
        .where('remote_id', '=', link.remoteId)
        .where('currency', '=', 'USD')
        .where('owner_iss', '=', owner.issuer)
        .where('owner_sub', '=', owner.subject)
        .execute();
    }
  }

  /**
   * Deletes the connection, its sealed secret with it, and its accounts' links; false when it is not
   * the owner's. In the caller's transaction when given (`within`), else one of its own.
   */
  async delete(owner: Caller, id: string, within?: Database): Promise<boolean> {
    const remove = async (trx: Database) => {
      await trx
        .deleteFrom('bank_accounts')
        .where('connection_id', '=', id)
        .where('owner_iss', '=', owner.issuer)
        .where('owner_sub', '=', owner.subject)
        .execute();
      const result = await trx
        .deleteFrom('bank_connections')
        .where('id', '=', id)
        .where('owner_iss', '=', owner.issuer)
        .where('owner_sub', '=', owner.subject)
        .executeTakeFirst();
      return result.numDeletedRows === 1n;
    };
    return within ? remove(within) : this.db.transaction().execute(remove);
  }

  /** The sealed Access URL: read only to sync, opened only in memory. */
  async sealedAccessUrl(owner: Caller, id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('bank_connections')
      .select('sealed_access_url')
      .where('id', '=', id)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .executeTakeFirst();
    return row?.sealed_access_url;
  }

  /**
   * Takes `requests` of today's quota in one statement, so two processes (or two presses) cannot both
   * take the last ones: 'ok', 'too-soon' (a Sync now within a minute of the last request), or
   * 'quota' (it would pass MAX_REQUESTS_PER_DAY). The day is the UTC day: the count is the server's,
   * not any user's calendar. A new day's count starts from the request taken.
   */
  async takeRequests(
    owner: Caller,
    id: string,
    requests: number,
    now: Date,
    minGapMs: number | null,
  ): Promise<'ok' | 'too-soon' | 'quota' | 'missing'> {
    const day = utcDay(now);
    const at = now.toISOString();
    const notBefore = minGapMs === null ? null : new Date(now.getTime() - minGapMs).toISOString();
    const taken = await this.db
      .updateTable('bank_connections')
      .set((eb) => ({
        requests_count: eb
          .case()
          .when('requests_day', '=', day)
          .then(eb('requests_count', '+', requests))
          .else(requests)
          .end(),
        requests_day: day,
        last_request_at: at,
      }))
      .where('id', '=', id)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .where((eb) => eb.or([eb('requests_day', '<>', day), eb(eb('requests_count', '+', requests), '<=', MAX_REQUESTS_PER_DAY)]))
      .where((eb) =>
        notBefore === null ? eb.lit(true) : eb.or([eb('last_request_at', 'is', null), eb('last_request_at', '<=', notBefore)]),
      )
      .executeTakeFirst();
    if (taken.numUpdatedRows === 1n) return 'ok';
    const row = await this.db
      .selectFrom('bank_connections')
      .select(['last_request_at'])
      .where('id', '=', id)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .executeTakeFirst();
    if (!row) return 'missing';
    if (notBefore !== null && row.last_request_at !== null && row.last_request_at > notBefore) return 'too-soon';
    return 'quota';
  }

  /** What a sync leaves: its record, the state it puts the connection in, and the day it last succeeded. */
  async recordSync(
    owner: Caller,
    id: string,
    record: BankSyncRecord,
    state: { readonly state: 'Connected' | 'Needs attention'; readonly reason: string | null; readonly stopSchedule: boolean },
    successOn: IsoDate | null,
    requests: number,
    window: { readonly start: IsoDate; readonly end: IsoDate } | null,
    db: Database = this.db,
  ): Promise<void> {
    // One transaction: the record, its log entry and the log's pruning are written together or not at all.
    if (!db.isTransaction) {
      await db.transaction().execute((trx) => this.recordSync(owner, id, record, state, successOn, requests, window, trx));
      return;
    }
    await db
      .updateTable('bank_connections')
      .set({
        state: state.state,
        reason: state.reason,
        last_sync: JSON.stringify(record),
        ...(state.stopSchedule && { scheduled: 0 }),
        ...(successOn !== null && { last_success_on: successOn }),
      })
      .where('id', '=', id)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .execute();
    await db
      .insertInto('bank_sync_log')
      .values({
        id: newId(),
        connection_id: id,
        ...ownerColumns(owner),
        started_at: record.at,
        trigger: record.trigger,
        requests,
        window_start: window?.start ?? null,
        window_end: window?.end ?? null,
        outcome: record.failure === null ? 'ok' : 'failed',
        added: record.added,
        matched: record.matched,
        replaced: record.replaced,
        flagged: record.flagged,
        failure: record.failure?.slice(0, 1000) ?? null,
      })
      .execute();
    await pruneSyncLog(db, owner, id);
  }

  /**
   * The scheduler's election (decision 0082): connections whose time has come, each claimed by a
   * compare-and-set on its next time and lease, so of two processes on one PostgreSQL (or two ticks
   * of one) exactly one wins each: the winner moves its next time on and holds the lease while it
   * syncs. Answers the won connections and their owners.
   */
  async claimDue(
    now: Date,
    leaseOwner: string,
    leaseMs: number,
    next: () => Date,
    limit: number,
  ): Promise<{ id: string; owner: Caller }[]> {
    const at = now.toISOString();
    const due = await this.db
      .selectFrom('bank_connections')
      .select(['id', 'owner_iss', 'owner_sub', 'next_sync_at'])
      .where('scheduled', '=', 1)
      .where('next_sync_at', '<=', at)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .orderBy('next_sync_at')
      .limit(limit)
      .execute();
    const won: { id: string; owner: Caller }[] = [];
    for (const row of due) {
      const claimed = await this.db
        .updateTable('bank_connections')
        .set({ next_sync_at: next().toISOString(), lease_owner: leaseOwner, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
        .where('id', '=', row.id)
        .where('scheduled', '=', 1)
        .where('next_sync_at', '=', row.next_sync_at)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
        .executeTakeFirst();
      if (claimed.numUpdatedRows === 1n) won.push({ id: row.id, owner: { issuer: row.owner_iss, subject: row.owner_sub } });
    }
    return won;
  }

  /** Lets go of a lease this process holds. */
  async release(id: string, leaseOwner: string): Promise<void> {
    await this.db
      .updateTable('bank_connections')
      .set({ lease_owner: null, lease_until: null })
      .where('id', '=', id)
      .where('lease_owner', '=', leaseOwner)
      .execute();
  }
}

/**
 * Keeps the connection's latest KEPT_SYNC_LOG_ENTRIES log entries (by when they started, then by id)
 * and deletes the rest: the oldest kept is found first, so the delete is one range on the
 * connection's index on both databases.
 */
async function pruneSyncLog(db: Database, owner: Caller, connectionId: string): Promise<void> {
  const oldestKept = await db
    .selectFrom('bank_sync_log')
    .select(['started_at', 'id'])
    .where('connection_id', '=', connectionId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(KEPT_SYNC_LOG_ENTRIES - 1)
    .executeTakeFirst();
  if (!oldestKept) return;
  await db
    .deleteFrom('bank_sync_log')
    .where('connection_id', '=', connectionId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where((eb) =>
      eb.or([
        eb('started_at', '<', oldestKept.started_at),
        eb.and([eb('started_at', '=', oldestKept.started_at), eb('id', '<', oldestKept.id)]),
      ]),
    )
    .execute();
}

/**
 * Deletes every bank connection of the owner, their sealed secrets, accounts and sync log: "Delete
 * all of your data" leaves nothing of them. In the caller's transaction (the owner's lock).
 */
export async function deleteAllBankConnections(db: Database, owner: Caller): Promise<void> {
  for (const table of ['bank_accounts', 'bank_sync_log', 'bank_connections'] as const) {
    await db.deleteFrom(table).where('owner_iss', '=', owner.issuer).where('owner_sub', '=', owner.subject).execute();
  }
}
