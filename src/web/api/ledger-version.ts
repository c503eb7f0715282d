/**
 * The version of each ledger the page holds (decision 0030): a whole ledger's from the ETag header
 * of the answer that brought it, an applied one's from its changes. Kept beside the ledgers, not in
 * them, so the page's ledger is exactly what the contract answers.
 */
import { type Ledger, versionOfEtag } from '../../contract/ledger.js';

const versions = new WeakMap<Ledger, string>();

/** Notes the version an answer with the whole ledger named in its ETag header. */
export function noteLedgerVersion(ledger: Ledger | null, etag: string | null): void {
  const version = versionOfEtag(etag);
  if (ledger !== null && version !== null) versions.set(ledger, version);
}

export function ledgerVersion(ledger: Ledger): string | undefined {
  return versions.get(ledger);
}

export function setLedgerVersion(ledger: Ledger, version: string): void {
  versions.set(ledger, version);
}
