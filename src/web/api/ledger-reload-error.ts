/**
 * The write went through; only reloading the ledger after it failed (decision 0030). The dialog
 * that sent it closes: sending it again would write it twice. Apart from api-error.ts: only the
 * changes' code and the Ledger view use it, so the first view does not carry it (benchmark 4a).
 */
import { ApiCallError } from './api-error.js';

export class LedgerReloadError extends ApiCallError {}
