/**
 * Bank connections (issue 37, decision 0082): connect with a SimpleFIN Setup Token, list, link or
 * unlink a bridge account, sync now or on the schedule, disconnect. The protocol is the client's
 * (simplefin-client.ts), the secret's sealing secrets.ts', the plan the domain's (sync-plan.ts); the
 * ledger is written through its one unit of work, so one sync of a connection is one transaction
 * over every linked ledger and its record: nothing half-written.
 *
 * The Access URL lives only in memory between opening it and the request: no answer, log line,
 * error or record here holds it (the client keeps it out of its reasons and warnings too).
 */
import {
  type BankConnection,
  type BankSyncAnswer,
  type BankSyncRecord,
  DOLLARS_ONLY,
  MAX_BANK_CONNECTIONS,
  NOT_YOUR_BANK_CONNECTION,
  SETUP_TOKEN_ALREADY_USED,
  TOO_MANY_BANK_CONNECTIONS,
} from '../../contract/bank-connections.js';
import { dateRangeWindows } from '../../domain/date-windows.js';
import type { BudgetRole } from '../../domain/budgets.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, TooManyRequestsError } from '../../domain/errors.js';
import { centsToDollars, cents } from '../../domain/money.js';
import { todayInZone } from '../../domain/time-zones.js';
import type { AccountFields } from '../ledger/index.js';
import { describeChange } from '../../domain/activity.js';
import { recordActivity } from '../activity/activity-store.js';
import type { Caller, SignedInUser } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { withOwnerLock } from '../db/owner-lock.js';
import { newId } from '../db/ids.js';
import { listAccounts } from '../ledger/index.js';
import { userTimeZone } from '../profile/user-today.js';
import { type BankSecrets, bankSecrets, SealedSecretError } from './secrets.js';
import type { SecretsConfig } from '../config.js';
import { type BankConnectionStore, MAX_REQUESTS_PER_DAY, type StoredConnection } from './bank-connection-store.js';
import { type BridgeOptions, claim, fetchAccounts } from './simplefin-client.js';
import { type BankSyncUnits, summaries, type SyncTrigger } from './bank-sync-unit.js';

/** The bridge allows 90 days per request (decision 0079). */
const WINDOW_DAYS = 90;
/** Sync now, at most once a minute per connection. */
export const SYNC_NOW_GAP_MS = 60_000;

export const SYNC_TOO_SOON = 'Sync now works once a minute for each connection. Try again in a minute.';
export const SYNC_QUOTA = `This connection asked the bridge ${MAX_REQUESTS_PER_DAY} times today, the most Leftover asks in a day so the bridge never disables it. It syncs again tomorrow.`;
const NO_SUCH_CONNECTION = 'No such bank connection.';
export const SECRET_LOST =
  "Leftover can no longer open this connection's access: the server's secrets key changed. Disconnect it and connect again with a new Setup Token.";
const NO_SUCH_REMOTE = 'No such account at this bank connection.';
const NOT_YOUR_ACCOUNT = 'Account must be the id of one of your accounts, or null to unlink.';

/** What the service needs of the app. */
export interface BankServiceOptions {
  readonly database: OpenDatabase;
  /** Where a sync reads and writes the ledgers (bank-sync-unit.ts): this thread, or one of its own on SQLite. */
  readonly units: BankSyncUnits;
  readonly store: BankConnectionStore;
  readonly now: () => Date;
  readonly defaultTimeZone: string;
  readonly secrets: SecretsConfig;
  /** NOTIFY_ALLOW_PRIVATE_URLS: the same outbound rule as webhooks (decision 0067). */
  readonly allowPrivateUrls: boolean;
  /** Adds an account of the caller's, as POST /api/accounts does: the accounts' own rules and limits. */
  readonly addAccount: (owner: Caller, fields: AccountFields) => Promise<{ readonly id: string }>;
  /**
   * Told once a sync changed a ledger: the user's shortfall and bills-due checks run (through the
   * outbox). Awaited before the sync answers, so the next outbox round sees it.
   */
  readonly ledgerChanged?: (owner: Caller) => Promise<void>;
  /** The display names of the members of the budget `owner` names: who connected what (decision 0106). */
  readonly memberNames: (owner: Caller) => Promise<MemberNames>;
  /** Test seam: shorter bridge timeouts or a resolver. */
  readonly bridge?: Partial<BridgeOptions>;
}

/** A budget's members by sign-in and display name. */
export type MemberNames = readonly { readonly user: Caller; readonly name: string | null }[];

/** The place a connection's secret is sealed for: a sealed value copied into another row or user's does not open. */
function sealContext(owner: Caller, id: string): string {
  return JSON.stringify(['bank-connection', owner.issuer, owner.subject, id]);
}

function last4(id: string): string {
  return id.slice(-4);
}

/**
 * A connection as the API answers it: never its secret. A link to an account deleted since reads as
 * unlinked (`accounts`: the owner's account ids now).
 */
function connectionAnswer(
  connection: StoredConnection,
  accounts: ReadonlySet<string>,
  member: BankMember,
  names: MemberNames,
): BankConnection {
  const maker = connection.madeBy;
  return {
    id: connection.id,
    yours: mayUse(connection, member),
    madeBy: maker === null ? null : (names.find(({ user }) => sameCaller(user, maker))?.name ?? null),
    status: { state: connection.state, reason: connection.reason, scheduled: connection.scheduled },
    lastSync: connection.lastSync,
    accounts: connection.accounts.map((account) => ({
      id: account.remoteId,
      institution: account.institution,
      name: account.name,
      last4: last4(account.remoteId),
      balance: account.balance === null ? null : centsToDollars(cents(account.balance)),
      currency: account.currency,
      accountId: account.accountId !== null && accounts.has(account.accountId) ? account.accountId : null,
    })),
  };
}

/**
 * When the schedule next syncs a connection: a random minute of the next quarter of the UTC day, so
 * at most 4 scheduled syncs a day (one per quarter), at minutes no two users share by design.
 */
export function nextScheduledSync(after: Date, random: () => number = Math.random): Date {
  const quarter = 6 * 3_600_000;
  const minute = 60_000;
  const nextQuarter = (Math.floor(after.getTime() / quarter) + 1) * quarter;
  return new Date(nextQuarter + Math.floor(random() * (quarter / minute)) * minute);
}

/** Who asks to change a connection: the signed-in person and their role in the budget. */
export interface BankMember {
  readonly user: SignedInUser;
  readonly role: BudgetRole;
}

/**
 * A bank connection belongs to the member who made it (issue 38 point 7, decision 0095): it holds
 * their bank login. One made before budgets names nobody: it is the owner's of its rows, so the
 * personal budget's user, or in a shared budget its owners. Whether `member` may link, sync or
 * disconnect it; answers say so as `yours` (decision 0100).
 */
function mayUse(connection: StoredConnection, member: BankMember): boolean {
  const maker = connection.madeBy;
  return maker === null ? sameCaller(member.user, connection.owner) || member.role === 'OWNER' : sameCaller(member.user, maker);
}

function sameCaller(a: Caller, b: Caller): boolean {
  return a.issuer === b.issuer && a.subject === b.subject;
}

function checkMaker(connection: StoredConnection, member: BankMember): void {
  if (!mayUse(connection, member)) throw new ForbiddenError(NOT_YOUR_BANK_CONNECTION);
}

export class BankService {
  private secretsRead: BankSecrets | undefined;

  constructor(private readonly options: BankServiceOptions) {}

  private get store(): BankConnectionStore {
    return this.options.store;
  }

  private get bridgeOptions(): BridgeOptions {
    return { allowPrivate: this.options.allowPrivateUrls, ...this.options.bridge };
  }

  /** The box, read once (it may read the key file); on PostgreSQL without SECRETS_KEY, the refusal saying why. */
  private box() {
    this.secretsRead ??= bankSecrets(this.options.secrets);
    if (!this.secretsRead.available) throw new ConflictError(this.secretsRead.reason);
    return this.secretsRead.box;
  }

  private async timeZone(owner: Caller): Promise<string> {
    return userTimeZone(this.options.database.db, owner, this.options.defaultTimeZone);
  }

  /** The budget's connections, each saying whether it is `member`'s to link, sync or disconnect. */
  async list(owner: Caller, member: BankMember): Promise<BankConnection[]> {
    const accounts = await this.accountIds(owner);
    const names = await this.options.memberNames(owner);
    return (await this.store.list(owner)).map((connection) => connectionAnswer(connection, accounts, member, names));
  }

  private async accountIds(owner: Caller): Promise<Set<string>> {
    return new Set((await listAccounts(this.options.database.db, owner)).map((account) => account.id));
  }

  private async answerOf(owner: Caller, id: string, member: BankMember): Promise<BankConnection> {
    return connectionAnswer(await this.one(owner, id), await this.accountIds(owner), member, await this.options.memberNames(owner));
  }

  /** The connection, checked to be the member's own when a member asks (a scheduled sync is nobody's). */
  private async one(owner: Caller, id: string, member?: BankMember): Promise<StoredConnection> {
    const found = await this.store.find(owner, id);
    if (!found) throw new NotFoundError(NO_SUCH_CONNECTION);
    if (member) checkMaker(found, member);
    return found;
  }

  /**
   * Claims the token and stores the connection with the bridge's accounts (one balances-only
   * request, counted). Refused before the claim when the user has 5 connections: a claim spends the
   * token. A claim the bridge answers 403 stores nothing. `maker`: the member connecting it (decision 0088).
   */
  async connect(owner: Caller, maker: BankMember, setupToken: string): Promise<BankConnection> {
    const madeBy = maker.user;
    const box = this.box();
    if ((await this.store.count(owner)) >= MAX_BANK_CONNECTIONS) throw new ConflictError(TOO_MANY_BANK_CONNECTIONS);
    const claimed = await claim(setupToken, this.bridgeOptions);
    if (!claimed.ok) {
      const message = claimed.failure.kind === 'already-claimed' ? SETUP_TOKEN_ALREADY_USED : claimed.failure.reason;
      throw new InvalidInputError(message, { setupToken: message });
    }
    const now = this.options.now();
    const listed = await fetchAccounts(claimed.accessUrl, { timeZone: await this.timeZone(owner), balancesOnly: true }, this.bridgeOptions);
    const id = newId(now.getTime());
    const sealed = box.seal(claimed.accessUrl, sealContext(owner, id));
    const state = listed.ok
      ? { state: 'Connected' as const, reason: listed.attention?.reason ?? null, scheduled: true }
      : { state: 'Needs attention' as const, reason: listed.failure.reason, scheduled: !listed.failure.stopSchedule };
    // Under the budget's lock, with its activity entry (decision 0100): the lock numbers the entries.
    const stored = await withOwnerLock(this.options.database, owner, async (trx) => {
      const inserted = await this.store.insert(
        owner,
        madeBy,
        id,
        sealed,
        listed.ok ? summaries(listed.accounts) : [],
        listed.ok && listed.attention ? { ...state, state: 'Needs attention' } : state,
        listed.requests,
        nextScheduledSync(now),
        now,
        MAX_BANK_CONNECTIONS,
        trx,
      );
      if (inserted) await recordActivity(trx, owner, madeBy, describeChange({ kind: 'bank connection', verb: 'connected' }), now);
      return inserted;
    });
    if (!stored) throw new ConflictError(TOO_MANY_BANK_CONNECTIONS);
    return this.answerOf(owner, id, maker);
  }

  /**
   * Links a bridge account to one of the caller's accounts, to a new one made through the accounts'
   * own rules, or unlinks it (null). A bridge account in another currency is never linked.
   */
  async link(
    owner: Caller,
    member: BankMember,
    id: string,
    remoteId: string,
    target: { readonly accountId: string | null } | { readonly newAccount: AccountFields },
  ): Promise<BankConnection> {
    const connection = await this.one(owner, id, member);
    const remote = connection.accounts.find((account) => account.remoteId === remoteId);
    if (!remote) throw new NotFoundError(NO_SUCH_REMOTE);
    let accountId: string | null;
    if ('newAccount' in target) {
      if (remote.currency !== 'USD') throw new InvalidInputError(DOLLARS_ONLY, { newAccount: DOLLARS_ONLY });
      accountId = (await this.options.addAccount(owner, target.newAccount)).id;
    } else {
      accountId = target.accountId;
      if (accountId !== null) {
        if (remote.currency !== 'USD') throw new InvalidInputError(DOLLARS_ONLY, { accountId: DOLLARS_ONLY });
        const accounts = await listAccounts(this.options.database.db, owner);
        if (!accounts.some((account) => account.id === accountId))
          throw new InvalidInputError(NOT_YOUR_ACCOUNT, { accountId: NOT_YOUR_ACCOUNT });
      }
    }
    if (!(await this.store.link(owner, id, remoteId, accountId))) throw new NotFoundError(NO_SUCH_REMOTE);
    return this.answerOf(owner, id, member);
  }

  /** Deletes the connection and its sealed secret at once; the ledgers keep their rows and marks. */
  async disconnect(owner: Caller, member: BankMember, id: string): Promise<BankConnection[]> {
    await this.one(owner, id, member);
    // Under the budget's lock, with its activity entry (decision 0100).
    await withOwnerLock(this.options.database, owner, async (trx) => {
      if (!(await this.store.delete(owner, id, trx))) throw new NotFoundError(NO_SUCH_CONNECTION);
      const what = describeChange({ kind: 'bank connection', verb: 'disconnected' });
      await recordActivity(trx, owner, member.user, what, this.options.now());
    });
    return this.list(owner, member);
  }

  /**
   * One sync of one connection: takes its requests from today's quota first (refused past 24, and a
   * Sync now within a minute of the last request), asks the bridge for every linked account, and
   * writes every linked ledger and the record in one unit of work. A bridge failure writes nothing
   * to any ledger: the connection needs attention, with the reason, and after a 402 or a 403 the
   * schedule stops asking it until the user reconnects.
   */
  async sync(owner: Caller, id: string, trigger: SyncTrigger, member?: BankMember): Promise<BankSyncAnswer> {
    const box = this.box();
    const connection = await this.one(owner, id, member);
    const zone = await this.timeZone(owner);
    const now = this.options.now();
    const today = todayInZone(now, zone);
    const linked = connection.accounts.filter((account) => account.accountId !== null && account.currency === 'USD');
    // With nothing linked, a sync only refreshes the balances: one request, no dates.
    const window = linked.length > 0 ? await this.options.units.window(owner, connection, today) : null;
    const requests = window ? dateRangeWindows(window.start, window.end, zone, WINDOW_DAYS).length : 1;
    const taken = await this.store.takeRequests(owner, id, requests, now, trigger === 'now' ? SYNC_NOW_GAP_MS : null);
    if (taken === 'missing') throw new NotFoundError(NO_SUCH_CONNECTION);
    if (taken === 'too-soon') throw new TooManyRequestsError(SYNC_TOO_SOON, SYNC_NOW_GAP_MS / 1000);
    if (taken === 'quota') {
      const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      throw new TooManyRequestsError(SYNC_QUOTA, Math.max(1, Math.ceil((midnight - now.getTime()) / 1000)));
    }
    const sealed = await this.store.sealedAccessUrl(owner, id);
    if (sealed === undefined) throw new NotFoundError(NO_SUCH_CONNECTION);
    let accessUrl: string;
    try {
      accessUrl = box.open(sealed, sealContext(owner, id));
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      // Another key than the one it was sealed with (SECRETS_KEY changed, or the key file was replaced): only a reconnect helps.
      await this.store.recordSync(
        owner,
        id,
        { at: now.toISOString(), trigger, added: 0, matched: 0, replaced: 0, flagged: 0, warnings: [], failure: SECRET_LOST, balances: [] },
        { state: 'Needs attention', reason: SECRET_LOST, stopSchedule: true },
        null,
        0,
        window,
      );
      throw new ConflictError(SECRET_LOST);
    }
    const outcome = await this.options.units.fetch(
      accessUrl,
      window
        ? // Every account, not only the linked ones: an account the bank relinked at the bridge (a new id) must show up to be linked.
          { start: window.start, end: window.end, timeZone: zone, pending: true }
        : { timeZone: zone, balancesOnly: true },
      this.bridgeOptions,
    );
    const at = now.toISOString();
    if (!outcome.ok) {
      const record: BankSyncRecord = {
        at,
        trigger,
        added: 0,
        matched: 0,
        replaced: 0,
        flagged: 0,
        warnings: [],
        failure: outcome.failure.reason,
        balances: [],
      };
      await this.store.recordSync(
        owner,
        id,
        record,
        { state: 'Needs attention', reason: outcome.failure.reason, stopSchedule: outcome.failure.stopSchedule },
        null,
        outcome.requests,
        window,
      );
      throw new ConflictError(outcome.failure.reason);
    }
    const { answer } = await this.options.units.write(owner, connection, outcome.accounts, { at, trigger, today, window });
    if (answer.added + answer.matched + answer.replaced + answer.flagged > 0) await this.options.ledgerChanged?.(owner);
    return answer;
  }
}
