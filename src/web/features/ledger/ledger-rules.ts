/** What an update of one ledger row sends, and whether it is worth sending at all. */
import type { LedgerTransaction, TransactionUpdate } from '../../../contract/ledger.js';

/**
 * True when the update differs from the row as the server last answered it. Only these fields can
 * change: the type is fixed once a row exists and the balance is derived by the server.
 */
export function changesTransaction(original: LedgerTransaction, update: TransactionUpdate): boolean {
  return (
    original.date !== update.date || original.name !== update.name || original.amount !== update.amount || original.status !== update.status
  );
}
