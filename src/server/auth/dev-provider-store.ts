/**
 * Where the development provider keeps its sessions, interactions, grants and tokens: in memory,
 * bounded by time first. oidc-provider's own memory adapter is one 1,000-entry LRU for everything,
 * so 2,100 anonymous /oidc/auth calls (each an Interaction) evicted every signed-in session
 * (issue 17). Here every kind of entry has a table of its own: an entry is gone when its time to
 * live ends, and only when a table is full of live entries does its oldest make room. A flood of
 * interactions can then only push out other interactions, never a session, a grant or a token.
 */
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

/** Live entries a table holds at most: far above any development use, small enough for memory (~1-2 KB each). */
export const DEV_STORE_ENTRIES_PER_KIND = 10_000;

/** How long a grant's list of tokens is kept: the provider's own Grant lifetime (14 days). */
const GRANT_INDEX_TTL_SECONDS = 14 * 24 * 60 * 60;

/** The kinds whose entries belong to a grant, removed together when it is revoked (as the memory adapter does). */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

interface Entry<Value> {
  readonly value: Value;
  readonly expiresAt: number;
}

/** One kind's entries in insertion order, which is expiry order when the kind has one time to live. */
class TimedTable<Value> {
  private readonly entries = new Map<string, Entry<Value>>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: Value, expiresInSeconds: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + expiresInSeconds * 1000 });
    if (this.entries.size > this.maxEntries) this.makeRoom();
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Drops the expired entries; if the table is still over its size, the oldest live ones. */
  private makeRoom(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}

export interface DevProviderStore {
  /** The adapter factory for oidc-provider's `adapter` setting. */
  readonly adapter: AdapterFactory;
  /** Live entries of one kind (Session, Interaction, AccessToken...): what tests look at. */
  size(kind: string): number;
}

export function createDevProviderStore(maxEntriesPerKind = DEV_STORE_ENTRIES_PER_KIND, now: () => number = Date.now): DevProviderStore {
  const tables = new Map<string, TimedTable<AdapterPayload>>();
  const table = (kind: string) => {
    let found = tables.get(kind);
    if (!found) {
      found = new TimedTable<AdapterPayload>(maxEntriesPerKind, now);
      tables.set(kind, found);
    }
    return found;
  };
  // Lookups by session uid and user code, and what each grant holds, each bounded the same way.
  const sessionUids = new TimedTable<string>(maxEntriesPerKind, now);
  const userCodes = new TimedTable<string>(maxEntriesPerKind, now);
  const grants = new TimedTable<string[]>(maxEntriesPerKind, now);

  const adapter = (kind: string): Adapter => {
    const entries = table(kind);
    return {
      async upsert(id, payload, expiresIn) {
        if (kind === 'Session' && payload.uid) sessionUids.set(payload.uid, id, expiresIn);
        if (payload.userCode) userCodes.set(payload.userCode, id, expiresIn);
        if (GRANTABLE.has(kind) && payload.grantId) {
          const held = grants.get(payload.grantId) ?? [];
          grants.set(payload.grantId, [...held, `${kind}\u0000${id}`], GRANT_INDEX_TTL_SECONDS);
        }
        entries.set(id, payload, expiresIn);
      },
      async find(id) {
        return entries.get(id);
      },
      async findByUid(uid) {
        const id = sessionUids.get(uid);
        return id === undefined ? undefined : entries.get(id);
      },
      async findByUserCode(userCode) {
        const id = userCodes.get(userCode);
        return id === undefined ? undefined : entries.get(id);
      },
      async consume(id) {
        const payload = entries.get(id);
        if (payload) payload.consumed = Math.floor(now() / 1000);
      },
      async destroy(id) {
        entries.delete(id);
      },
      async revokeByGrantId(grantId) {
        for (const held of grants.get(grantId) ?? []) {
          const [heldKind = '', heldId = ''] = held.split('\u0000');
          table(heldKind).delete(heldId);
        }
        grants.delete(grantId);
      },
    };
  };
  return { adapter, size: (kind) => tables.get(kind)?.size ?? 0 };
}
