/** The words for a transaction's type code, in the dialogs' Type field and for screen readers in the compact rows. */
import type { TransactionType } from '../../../domain/ledger.js';

export const TYPE_LABELS: Readonly<Record<TransactionType, string>> = { D: 'Debit', C: 'Credit' };
