/** How the ledger shows amounts and types. */
import type { TransactionType } from '../../../domain/ledger.js';

export const TYPE_LABELS: Readonly<Record<TransactionType, string>> = { D: 'Debit', C: 'Credit' };
