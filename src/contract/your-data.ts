/**
 * Your data (issue 15): the ledger as CSV, everything as one JSON document, restore and delete.
 * The answers and the limits; what a restore accepts is in your-data-requests.ts, so the
 * page's first view, which only reads answers, does not carry its checks (benchmark 4a).
 */
import * as z from 'zod/mini';
import { CLOSED_BANK_KEY_REASONS } from '../domain/bank-sync/bank-rows.js';
import { BANK_STATES, SCHEDULE_KINDS, SOURCE_KINDS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../domain/ledger.js';
import { dollarsAnswerSchema, idSchema, pathsOf } from './common.js';
import { depositSchema } from './deposits.js';
import { expenseSchema } from './expenses.js';
import { rowSourceSchema, transferLinkSchema } from './ledger.js';
import { cardAnswerSchema } from './accounts.js';
import { ACCOUNT_KINDS } from '../domain/accounts.js';

/** Your data's paths as the endpoint table spells them, for tests and scripts. */
export const YOUR_DATA_PATHS = /* @__PURE__ */ pathsOf({
  ledgerCsv: 'exportLedgerCsv',
  export: 'exportYourData',
  restore: 'restoreYourData',
  delete: 'deleteYourData',
});

export const EXPORT_FORMAT = 'leftover-export';
/**
 * Raised whenever a restore could not read an older document as it is. Version 2 (decision 0042)
 * holds accounts, each with its ledger; a version 1 document (one ledger) still restores.
 */
export const EXPORT_VERSION = 2;
export const EXPORT_VERSIONS = [1, 2] as const;

/**
 * A restore's body limit in bytes: a 5-year ledger with every row paid, edited and imported is
 * about 1 MB of JSON; 10 MB leaves room for ledgers with many rows added by hand. Past it,
 * Fastify answers 413 before parsing.
 */
export const RESTORE_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/** A stored row's creation time, as the server writes it (Date.toISOString). */
const createdAtSchema = z.string();

/** A deposit as its answer gives it, and when it was stored: the list's order and a new ledger's row numbering break ties by it. */
export const exportedDepositSchema = z.extend(depositSchema, { createdAt: createdAtSchema });

/** An expense as its answer gives it, and when it was stored. */
export const exportedExpenseSchema = z.extend(expenseSchema, { createdAt: createdAtSchema });

/** A row's bank mark (decision 0081): the bridge's account and transaction ids, never anything of the connection. */
const exportedBankMarkSchema = z.object({
  account: z.string(),
  transaction: z.string(),
  state: z.enum(BANK_STATES),
  /** The first day a sync missed it while pending; null while the bank lists it. */
  missingSince: z.nullable(z.string()),
});

/** A bridge transaction that never comes back into the ledger: deleted by the user, or a pending replaced by its posting (decision 0081). */
const exportedClosedBankKeySchema = z.object({
  account: z.string(),
  transaction: z.string(),
  reason: z.enum(CLOSED_BANK_KEY_REASONS),
  /** What a pending deleted was, so its posting under a new id stays deleted; null otherwise. */
  pending: z.nullable(z.object({ date: z.string(), type: z.enum(TRANSACTION_TYPES), amount: dollarsAnswerSchema })),
});

export const exportedTransactionSchema = z.object({
  id: idSchema,
  /** Creation order within the ledger: the last tie-break of row order. */
  sequence: z.number(),
  date: z.string(),
  name: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  amount: dollarsAnswerSchema,
  status: z.enum(TRANSACTION_STATUSES),
  source: z.nullable(rowSourceSchema),
  /** On a side of a transfer only: the other side's row and account (decision 0043). */
  transfer: z.optional(transferLinkSchema),
  /** On a row a bank sync wrote or matched only: its bridge account and transaction, and where the bank stands on it (decision 0084). */
  bank: z.optional(exportedBankMarkSchema),
});

const scheduleRefSchema = z.object({ kind: z.enum(SCHEDULE_KINDS), id: z.string() });

export const exportedLedgerSchema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  openingBalance: dollarsAnswerSchema,
  /** The sequence the next added row takes. */
  nextSequence: z.number(),
  /** In row order, as the register shows them (balances are derived, so they are not here). */
  transactions: z.array(exportedTransactionSchema),
  /** Occurrences the user deleted: never projected into the ledger again (a card's: its statement's payment, decision 0045). */
  skippedOccurrences: z.array(z.object({ kind: z.enum(SOURCE_KINDS), id: z.string(), occurrence: z.string() })),
  /** Statement rows the ledger took in, as the SHA-256 of their import ids (decision 0021). */
  importedStatementRows: z.array(z.object({ key: z.string(), transactionId: z.string(), importedAt: z.string() })),
  /** Deleted deposits and expenses that rows still name as their source (paid or past rows outlive their schedule). */
  removedSchedules: z.array(scheduleRefSchema),
  /** The bank keys that never come back (decision 0084); left out when there are none, so documents without bank sync are as before. */
  closedBankKeys: z.optional(z.array(exportedClosedBankKeySchema)),
});

/**
 * A bridge account linked to this account (decision 0086): the connection's id and the bridge's
 * account id, nothing of the connection's access. A restore into the user who still has the
 * connection links it to the restored account again.
 */
const exportedBankLinkSchema = z.object({ connectionId: z.string(), remoteId: z.string() });

/** An account as its answer gives it, without balances (they are its ledger's), and when it was stored. */
export const exportedAccountSchema = z.object({
  id: idSchema,
  name: z.string(),
  kind: z.enum(ACCOUNT_KINDS),
  primary: z.boolean(),
  card: z.nullable(cardAnswerSchema),
  /** The oldest remaining account becomes primary when the primary one is deleted. */
  createdAt: createdAtSchema,
  ledger: z.nullable(exportedLedgerSchema),
  /** Left out when no bridge account is linked to it, so documents without bank sync are as before. */
  bankLinks: z.optional(z.array(exportedBankLinkSchema)),
});

/**
 * "Keep at least" and everyday spending (issue 36, decision 0075): in a document only when either is
 * set, so a document of a user who never set them is what it was before. Left out, they are $0.00
 * and off. Everyday spending names an account of the document.
 */
export const exportedSettingsSchema = z.object({
  buffer: dollarsAnswerSchema,
  everydaySpending: z.nullable(z.object({ weekly: dollarsAnswerSchema, accountId: idSchema })),
});

/**
 * GET /api/account/export: everything the caller owns, and nothing that names their sign-in
 * account. Each deposit and expense names its account (accountId).
 */
export const yourDataExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string(),
  accounts: z.array(exportedAccountSchema),
  deposits: z.array(exportedDepositSchema),
  expenses: z.array(exportedExpenseSchema),
  settings: z.optional(exportedSettingsSchema),
});
export type YourDataExport = z.infer<typeof yourDataExportSchema>;

export { type YourDataCounts, yourDataCountsSchema } from './your-data-counts.js';
