/**
 * The ledger's requests: the server's check and the dialogs' forms. Apart from ledger.ts (the
 * answers) so the page's first view, which only reads answers and sends rows back as the server
 * gave them (Pay, Clear), does not carry them (benchmark 4a).
 */
import * as z from 'zod/mini';
import { MAX_LEDGER_YEARS, MAX_TRANSACTION_NAME_LENGTH, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../domain/ledger.js';
import { isIsoDate } from '../domain/calendar-date.js';
import { LATEST_LEDGER_START, latestLedgerEnd } from '../domain/ledger-span.js';
import { idSchema } from './common.js';
import { amountSchema, balanceSchema, isoDateField, OBJECT_BODY, trimmedText } from './request-fields.js';

/** Why a start date past LATEST_LEDGER_START (9994-12-31) is refused, as the user reads it. */
export const LEDGER_START_TOO_LATE = 'Start Date must be in 9994 or earlier: a ledger may span 5 years and dates end at 9999.';

export const newLedgerSchema = z
  .object(
    {
      startDate: isoDateField('Start Date'),
      endDate: isoDateField('End Date'),
      currentBalance: balanceSchema('Current Balance'),
    },
    { error: 'The ledger must be an object with startDate, endDate and currentBalance.' },
  )
  .check(
    z.superRefine((ledger, context) => {
      // Comparing dates only makes sense once both are real dates with their own messages.
      if (!isIsoDate(ledger.startDate) || !isIsoDate(ledger.endDate)) return;
      if (ledger.startDate > LATEST_LEDGER_START) {
        context.addIssue({ code: 'custom', path: ['startDate'], message: LEDGER_START_TOO_LATE });
        return;
      }
      if (ledger.endDate < ledger.startDate) {
        context.addIssue({ code: 'custom', path: ['endDate'], message: 'End Date must be on or after Start Date.' });
        return;
      }
      const latest = latestLedgerEnd(ledger.startDate);
      if (ledger.endDate > latest) {
        context.addIssue({
          code: 'custom',
          path: ['endDate'],
          message: `A ledger spans at most ${MAX_LEDGER_YEARS} years: End Date must be on or before ${latest}.`,
        });
      }
    }),
  );
export type NewLedger = z.infer<typeof newLedgerSchema>;

/** POST /api/ledger/create-ledger: the spec wraps the new ledger in a `ledger` key. */
export const createLedgerRequestSchema = z.object({ ledger: newLedgerSchema }, OBJECT_BODY);
export type CreateLedgerRequest = z.infer<typeof createLedgerRequestSchema>;

/** POST /api/ledger/extend-ledger: the new end date; whether it may be is the domain's to say (checkExtension). */
export const extendLedgerRequestSchema = z.object({ endDate: isoDateField('End Date') }, OBJECT_BODY);
export type ExtendLedgerRequest = z.infer<typeof extendLedgerRequestSchema>;

const transactionTypeSchema = z.enum(TRANSACTION_TYPES, { error: 'Type must be D (debit) or C (credit).' });

export const newTransactionSchema = z.object(
  {
    date: isoDateField('Date'),
    name: trimmedText('Name', MAX_TRANSACTION_NAME_LENGTH),
    type: transactionTypeSchema,
    amount: amountSchema,
  },
  OBJECT_BODY,
);
export type NewTransaction = z.infer<typeof newTransactionSchema>;

/**
 * PATCH /api/ledger/update-transaction: the whole transaction as the page holds it. The server
 * trusts only the id, the editable fields and the status move; balance is ignored.
 */
export const transactionUpdateSchema = z.object(
  {
    id: idSchema,
    date: isoDateField('Date'),
    name: trimmedText('Name', MAX_TRANSACTION_NAME_LENGTH),
    type: transactionTypeSchema,
    amount: amountSchema,
    status: z.enum(TRANSACTION_STATUSES, { error: 'Status must be PENDING, PAID or CLEARED.' }),
    balance: z.optional(z.number()),
  },
  OBJECT_BODY,
);
export type TransactionUpdate = z.infer<typeof transactionUpdateSchema>;
