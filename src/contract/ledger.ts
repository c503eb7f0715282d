/** The ledger: one schema per answer; the requests are in ledger-requests.ts, the calls in the endpoint table (common.ts). */
import * as z from 'zod/mini';
import { BANK_BADGES } from '../domain/bank-sync/bank-rows.js';
import { SOURCE_KINDS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../domain/ledger.js';
import { UNTIL_REASONS } from '../domain/safe-to-spend.js';
import { dollarsAnswerSchema, idSchema, pathsOf } from './common.js';

/**
 * Where a generated row came from: a deposit's or expense's id and the date it put the row on, or a
 * credit card's id and the closing date of the statement the row pays (decision 0045).
 */
export const rowSourceSchema = z.object({
  kind: z.enum(SOURCE_KINDS),
  id: z.string(),
  /** The date the schedule put the row on, whatever date the row has now. */
  occurrence: z.string(),
  /** True once the user changed the row's date, name or amount: schedule changes leave it alone. */
  edited: z.boolean(),
});
export type RowSourceInfo = z.infer<typeof rowSourceSchema>;

/** The other side of a transfer between two of the user's accounts (decision 0043): its row's id and its account's. */
export const transferLinkSchema = z.object({ id: idSchema, accountId: idSchema });
export type TransferLinkInfo = z.infer<typeof transferLinkSchema>;

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
  /**
   * On a side of a transfer only, naming the other side; absent on every other row (decision 0043),
   * so the answers of a user without transfers are what they were before.
   */
  transfer: z.optional(transferLinkSchema),
  /**
   * On a row a bank sync wrote or matched, while the bank still calls it pending ("Pending at the
   * bank") or no longer lists it ("No longer at the bank": it counts in no balance); absent on every
   * other row (issue 37, decision 0084), so the answers of a user without bank sync are what they were.
   */
  bankBadge: z.optional(z.enum(BANK_BADGES)),
  /**
   * True on every row a bank sync wrote or matched, posted ones too: it can be deleted whatever its
   * status, and the bank never brings it back (decision 0084); absent on every other row.
   */
  fromBank: z.optional(z.literal(true)),
});
export type LedgerTransaction = z.infer<typeof ledgerTransactionSchema>;

/**
 * The ledger's own fields and balances: in the whole ledger, and as they are in the forecast, a
 * window of the ledger and a write's changes (one shape, so the four answers cannot drift apart).
 */
export const LEDGER_HEADER_FIELDS = {
  startDate: z.string(),
  endDate: z.string(),
  openingBalance: dollarsAnswerSchema,
  /** Opening balance plus the CLEARED rows: what the bank shows. */
  currentBalance: dollarsAnswerSchema,
  /** Opening balance plus the PAID and CLEARED rows: after what is paid but not cleared. */
  pendingBalance: dollarsAnswerSchema,
};

export const ledgerSchema = z.object({ ...LEDGER_HEADER_FIELDS, transactions: z.array(ledgerTransactionSchema) });
export type Ledger = z.infer<typeof ledgerSchema>;

/**
 * Every ledger call answers the whole ledger; `ledger` is null while the user has none. An answer
 * with a ledger names its version in an ETag header, `W/"<version>"` (decision 0030).
 */
export const ledgerInfoSchema = z.object({ ledger: z.nullable(ledgerSchema) });
export type LedgerInfo = z.infer<typeof ledgerInfoSchema>;

/** The ETag header of an answer with the ledger at this version. */
export function ledgerEtag(version: string): string {
  return `W/"${version}"`;
}

/** The version an ETag header names, or null when it names none. */
export function versionOfEtag(etag: string | null): string | null {
  const found = etag === null ? null : /^W\/"([^"]+)"$/.exec(etag);
  return found?.[1] ?? null;
}

/** A row that marks a moment of the forecast: its date, name and the running balance after it. */
export const balancePointSchema = z.object({ date: z.string(), name: z.string(), balance: dollarsAnswerSchema });

/** A point of the balance forecast chart: a balance point, and whether its row is a paycheck. */
const chartPointSchema = z.extend(balancePointSchema, { paycheck: z.boolean() });

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
  /** While everyday spending is counted (issue 36): how much of it falls in the period ("Everyday about $X"); absent otherwise. */
  everyday: z.optional(dollarsAnswerSchema),
});
export type PayPeriodInfo = z.infer<typeof payPeriodSchema>;

/**
 * Safe to spend until payday (issue 36, decision 0074): the lowest end-of-day balance from today to
 * the day before the next paycheck into the account (to the ledger's end without one), minus the
 * buffer. Null when today is past the ledger's end.
 */
export const safeToSpendSchema = z.object({
  /** May be below zero: then it is how much is short. */
  amount: dollarsAnswerSchema,
  /** amount over the days from today to the window's last day, both counted, to the cent; null when amount is below zero. */
  perDay: z.nullable(dollarsAnswerSchema),
  /** The paycheck's date (PAYDAY), or the ledger's end date (LEDGER_END), which the window then includes. */
  until: z.string(),
  untilReason: z.enum(UNTIL_REASONS),
  lowestDate: z.string(),
  /** The row that took the balance there; "Everyday spending" when it alone did; null for today's balance as it stands. */
  lowestName: z.nullable(z.string()),
  /** "Keep at least". */
  buffer: dollarsAnswerSchema,
});
export type SafeToSpendInfo = z.infer<typeof safeToSpendSchema>;

/**
 * GET /api/ledger/forecast: will the money last. Scripts read it, and so does the page's Home, which
 * paints its answer from it without the whole ledger (issue 24); the Ledger view computes the same from the ledger.
 */
export const forecastSchema = z.object({
  /** The server's today (decision 0015): what "ahead" means below. */
  today: z.string(),
  /** The lowest running balance of the rows dated today or later; null when none is ahead. */
  lowest: z.nullable(balancePointSchema),
  /** The first row dated today or later after which the balance is below $0. */
  firstBelowZero: z.nullable(balancePointSchema),
  payPeriods: z.array(payPeriodSchema),
  /** The ledger's own fields: what the chart spans and the page's Add Transaction allows. */
  ...LEDGER_HEADER_FIELDS,
  /** The running balance after the last row of each date and after every paycheck, in row order: the chart's points. */
  chart: z.array(chartPointSchema),
  /** The rows dated today through 13 days later, in row order, as the whole ledger answers them (issue 24: Home). */
  upcoming: z.array(ledgerTransactionSchema),
  safeToSpend: z.nullable(safeToSpendSchema),
  /**
   * While everyday spending comes out of this account (issue 36): the amount a week, which every
   * balance above counts from tomorrow on ("includes everyday spending"). Absent while it is off,
   * so the answer is then byte for byte the forecast of scheduled items alone.
   */
  everyday: z.optional(z.object({ weekly: dollarsAnswerSchema })),
});
export type Forecast = z.infer<typeof forecastSchema>;

/** The ledger's paths as the endpoint table spells them, for tests and scripts. */
export const LEDGER_PATHS = /* @__PURE__ */ pathsOf({
  create: 'createLedger',
  extend: 'extendLedger',
  retrieve: 'getLedger',
  forecast: 'getForecast',
  addTransaction: 'addTransaction',
  updateTransaction: 'updateTransaction',
  transaction: 'deleteTransaction',
});
