/**
 * The version of each ledger the page holds (decision 0030): a whole ledger's from the ETag header
 * of the answer that brought it, an applied one's from its changes. Kept beside the ledgers, not in
 * them, so the page's ledger is exactly what the contract answers. A ledger as the wire carries it
 * (applyLedgerChanges' callers: scripts, the API tests) is kept the same way.
 */
import type { LedgerView } from '../../contract/codecs.js';
import { type Ledger, versionOfEtag } from '../../contract/ledger.js';
import type { LedgerWindowView } from '../../contract/ledger-window-codec.js';

/** The whole ledger as the wire or the page has it, or a window of it (decision 0053). */
type AnyLedger = Ledger | LedgerView | LedgerWindowView;

const versions = new WeakMap<AnyLedger, string>();

/** Notes the version an answer with the whole ledger named in its ETag header. */
export function noteLedgerVersion(ledger: AnyLedger | null, etag: string | null): void {
  const version = versionOfEtag(etag);
  if (ledger !== null && version !== null) versions.set(ledger, version);
}

export function ledgerVersion(ledger: AnyLedger): string | undefined {
  return versions.get(ledger);
}

export function setLedgerVersion(ledger: AnyLedger, version: string): void {
  versions.set(ledger, version);
}
