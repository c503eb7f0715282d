/**
 * The ledger's version as clients see it (decision 0030), and the check of the version a write
 * expects (If-Match) against the one read under the owner's lock.
 */
import { createHash } from 'node:crypto';
import { StaleVersionError } from '../../domain/errors.js';
import type { StoredLedger } from './ledger-record.js';

/** 22 base64url characters: 132 bits of the digest. */
const VERSION_LENGTH = 22;

/**
 * The ledger's version as clients see it (decision 0030): opaque, naming neither the ledger's id nor
 * how many writes it has seen. A digest of both, so it is still one of its own for each ledger and
 * version: a restored ledger, whose count starts again, never shares one with the ledger it replaced.
 */
export function versionOf(ledger: StoredLedger, version = ledger.version): string {
  return createHash('sha256').update(`${ledger.id}.${version}`).digest('base64url').slice(0, VERSION_LENGTH);
}

/** `If-Match: *`: any version, as long as there is a ledger. Never a version: those are base64url. */
export const ANY_LEDGER_VERSION = '*';

const STALE_LEDGER = 'The ledger changed since you read it: reload it and try again.';

/**
 * Refuses a write whose If-Match (expectedVersionOf) names another version than the ledger's, read
 * under the owner's lock so no other write can come between the check and this one. null: the
 * write asked for nothing and goes ahead as it always did.
 */
export function checkExpectedVersion(ledger: StoredLedger | undefined, expected: string | null): void {
  if (expected === null) return;
  if (ledger === undefined || (expected !== ANY_LEDGER_VERSION && expected !== versionOf(ledger))) {
    throw new StaleVersionError(STALE_LEDGER);
  }
}
