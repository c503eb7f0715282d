/**
 * The changes answer of a write of one row (decision 0030) as the page holds it (decision 0034):
 * the same field codecs as the whole ledger's. Apart from codecs.ts, as ledger-changes.ts is apart
 * from ledger.ts, so the page's first view does not carry it (benchmark 4a).
 */
import * as z from 'zod/mini';
import { LEDGER_FIELDS, LEDGER_TRANSACTION_FIELDS } from './codecs.js';
import { ledgerChangesSchema } from './ledger-changes.js';

const changesSchema = ledgerChangesSchema.shape.changes;
const changedTransactionCodec = z.extend(changesSchema.shape.rows._zod.def.element, LEDGER_TRANSACTION_FIELDS);
export type ChangedTransactionView = z.output<typeof changedTransactionCodec>;

export const ledgerChangesCodec = z.extend(ledgerChangesSchema, {
  changes: z.extend(changesSchema, { ...LEDGER_FIELDS, rows: z.array(changedTransactionCodec) }),
});
export type LedgerChangesView = z.output<typeof ledgerChangesCodec>['changes'];
