/**
 * POST /api/transfers (issue 25, decision 0043): money moved between two of the user's accounts,
 * written as one linked pair of rows, a debit in From's ledger and a credit in To's. It answers
 * From's whole ledger, as add-transaction does; the rows name each other (`transfer` on each).
 */
import * as z from 'zod/mini';
import { MAX_TRANSACTION_NAME_LENGTH } from '../domain/ledger.js';
import { idSchema, pathsOf } from './common.js';
import { amountSchema, isoDateField, OBJECT_BODY, trimmedText } from './request-fields.js';

export const newTransferSchema = z.object(
  {
    fromAccountId: idSchema,
    toAccountId: idSchema,
    date: isoDateField('Date'),
    amount: amountSchema,
    /** Left out: "Transfer to <To's name>". */
    name: z.optional(trimmedText('Name', MAX_TRANSACTION_NAME_LENGTH)),
  },
  OBJECT_BODY,
);
export type NewTransfer = z.infer<typeof newTransferSchema>;

/** The name of a transfer given none. */
export function defaultTransferName(toAccountName: string): string {
  return `Transfer to ${toAccountName}`;
}

/** The transfers' paths as the endpoint table spells them, for tests and scripts. */
export const TRANSFERS_PATHS = /* @__PURE__ */ pathsOf({ add: 'addTransfer' });
