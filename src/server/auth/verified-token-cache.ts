/**
 * Access tokens already verified, so a page that calls the API many times with one token pays for
 * the RS256 signature check once: a signature check costs more than a whole small request.
 *
 * Only tokens that passed the full check are stored (a failure is never remembered, so a flood of
 * forged tokens cannot fill it), an entry never outlives the token's own `exp`, and the number of
 * entries is bounded with least-recently-used eviction, so memory stays flat however many tokens
 * the server sees.
 */
import crypto from 'node:crypto';

/** Enough for every signed-in user of one server process to stay cached for a token's lifetime. */
const DEFAULT_MAX_CACHED_TOKENS = 10_000;
/**
 * An entry is trusted at most this long even if the token lives longer: the uncached path notices a
 * key withdrawn from the issuer's key set when its cached copy of the set is refreshed (ten
 * minutes, see createDiscoveredKeySet), so the cache honours a withdrawn key no longer than that.
 */
const DEFAULT_MAX_ENTRY_AGE_MS = 10 * 60_000;

export interface VerifiedTokenCacheOptions {
  readonly maxEntries?: number;
  readonly maxEntryAgeMs?: number;
}

interface Entry<Value> {
  readonly value: Value;
  readonly expiresAtMs: number;
}

export class VerifiedTokenCache<Value> {
  private readonly maxEntries: number;
  private readonly maxEntryAgeMs: number;
  /** A Map iterates in insertion order; re-inserting on every hit keeps the least recent first. */
  private readonly entries = new Map<string, Entry<Value>>();

  constructor({ maxEntries = DEFAULT_MAX_CACHED_TOKENS, maxEntryAgeMs = DEFAULT_MAX_ENTRY_AGE_MS }: VerifiedTokenCacheOptions = {}) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`maxEntries must be a positive whole number, got ${maxEntries}`);
    this.maxEntries = maxEntries;
    this.maxEntryAgeMs = maxEntryAgeMs;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the token verified as, while it has not reached its expiry; undefined otherwise. */
  get(token: string, nowMs: number): Value | undefined {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (nowMs >= entry.expiresAtMs) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * Remembers a token that has just passed the full check, until its `exp` (seconds since the
   * epoch) at the latest. The caller must only pass tokens it verified.
   */
  set(token: string, value: Value, expSeconds: number, nowMs: number): void {
    const expiresAtMs = Math.min(expSeconds * 1000, nowMs + this.maxEntryAgeMs);
    // Accepted only thanks to the clock tolerance: not worth keeping, and never past exp.
    if (!(expiresAtMs > nowMs)) return;
    const key = keyOf(token);
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAtMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}

/**
 * The SHA-256 of the token, not the token: a short fixed-size key keeps the memory bound small,
 * and no usable bearer token sits in a long-lived structure (a heap dump shows only digests).
 */
function keyOf(token: string): string {
  return crypto.createHash('sha256').update(token).digest('base64url');
}
