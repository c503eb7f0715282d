/** The ledger: one schema per payload, for the server and the page's forms. */
import * as z from 'zod/mini';
import {
  latestLedgerEnd,
  MAX_LEDGER_YEARS,
  MAX_TRANSACTION_NAME_LENGTH,
  SCHEDULE_KINDS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from '../domain/ledger.js';
import { isIsoDate } from '../domain/calendar-date.js';
import { amountSchema, balanceSchema, dollarsAnswerSchema, idSchema, isoDateField, OBJECT_BODY, trimmedText } from './common.js';

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

/** Where a generated row came from: a deposit's or expense's id and the date it put the row on. */
export const rowSourceSchema = z.object({
  kind: z.enum(SCHEDULE_KINDS),
  id: z.string(),
  /** The date the schedule put the row on, whatever date the row has now. */
  occurrence: z.string(),
  /** True once the user changed the row's date, name or amount: schedule changes leave it alone. */
  edited: z.boolean(),
});
export type RowSourceInfo = z.infer<typeof rowSourceSchema>;

export const ledgerTransactionSchema = z.object({
  id: idSchema,
  date: z.string(),
  name: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  amount: dollarsAnswerSchema,
  /** The running balance after this row, in row order. */
  balance: dollarsAnswerSchema,
  status: z.enum(TRANSACTION_STATUSES),
  /** null for a row added by hand (or stored before rows named their schedule). */
  source: z.nullable(rowSourceSchema),
});
export type LedgerTransaction = z.infer<typeof ledgerTransactionSchema>;

export const ledgerSchema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  openingBalance: dollarsAnswerSchema,
  /** Opening balance plus the CLEARED rows: what the bank shows. */
  currentBalance: dollarsAnswerSchema,
  /** Opening balance plus the PAID and CLEARED rows: after what is paid but not cleared. */
  pendingBalance: dollarsAnswerSchema,
  transactions: z.array(ledgerTransactionSchema),
});
export type Ledger = z.infer<typeof ledgerSchema>;

/** Every ledger call answers the whole ledger; `ledger` is null while the user has none. */
export const ledgerInfoSchema = z.object({ ledger: z.nullable(ledgerSchema) });
export type LedgerInfo = z.infer<typeof ledgerInfoSchema>;

/** A row that marks a moment of the forecast: its date, name and the running balance after it. */
const balancePointSchema = z.object({ date: z.string(), name: z.string(), balance: dollarsAnswerSchema });

export const payPeriodSchema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  /** The period's credits. */
  income: dollarsAnswerSchema,
  /** The period's debits. */
  bills: dollarsAnswerSchema,
  /** income - bills. */
  leftover: dollarsAnswerSchema,
  /** The lowest running balance after any of its rows; the balance it started with when it has none. */
  lowest: dollarsAnswerSchema,
  /** The balance after its last row; the balance it started with when it has none. */
  endBalance: dollarsAnswerSchema,
});
export type PayPeriodInfo = z.infer<typeof payPeriodSchema>;

/** GET /api/ledger/forecast: will the money last, for scripts (the page computes the same from the ledger). */
export const forecastSchema = z.object({
  /** The server's today (decision 0015): what "ahead" means below. */
  today: z.string(),
  /** The lowest running balance of the rows dated today or later; null when none is ahead. */
  lowest: z.nullable(balancePointSchema),
  /** The first row dated today or later after which the balance is below $0. */
  firstBelowZero: z.nullable(balancePointSchema),
  payPeriods: z.array(payPeriodSchema),
});
export type Forecast = z.infer<typeof forecastSchema>;

export const LEDGER_PATHS = {
  create: '/api/ledger/create-ledger',
  extend: '/api/ledger/extend-ledger',
  retrieve: '/api/ledger/retrieve-ledger',
  forecast: '/api/ledger/forecast',
  addTransaction: '/api/ledger/add-transaction',
  updateTransaction: '/api/ledger/update-transaction',
  transaction: '/api/ledger/transactions/:id',
} as const satisfies Record<string, string>;
