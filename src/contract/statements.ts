/**
 * Bank statements in (issue 14): preview a file against the ledger, then import it. The answers
 * and the size limits; the requests are in statement-requests.ts, so the page's first
 * view, which loads the api client, does not carry them (benchmark 4a).
 */
import * as z from 'zod/mini';
import { MAX_TRANSACTION_NAME_LENGTH, TRANSACTION_TYPES } from '../domain/ledger.js';
import { dollarsAnswerSchema, pathsOf } from './common.js';
import { ledgerInfoSchema } from './ledger.js';

export { MAX_STATEMENT_CHARACTERS, STATEMENT_BODY_LIMIT_BYTES, STATEMENT_TOO_LARGE } from './statement-limits.js';

export const STATEMENT_ACTIONS = ['match', 'new', 'duplicate', 'outside'] as const;

export const statementRowSchema = z.object({
  /** 0-based position among the file's transactions: what a decision names. */
  index: z.number(),
  date: z.string(),
  /** The bank's description as the row name it would get: one line, at most the name limit. */
  description: z.string().check(z.maxLength(MAX_TRANSACTION_NAME_LENGTH)),
  type: z.enum(TRANSACTION_TYPES),
  /** Positive: the type carries the direction. */
  amount: dollarsAnswerSchema,
  /** match: clears the ledger row matchId; new: added as CLEARED; duplicate: imported before; outside: not within the ledger's dates. */
  action: z.enum(STATEMENT_ACTIONS),
  matchId: z.optional(z.string()),
});
export type StatementRowInfo = z.infer<typeof statementRowSchema>;

/** The closing balance the statement states (negative: overdrawn, or owed on a card). */
export const bankBalanceSchema = z.object({ balance: dollarsAnswerSchema, date: z.string() });

/**
 * Bank balance {bankBalance} on {date} · Leftover {leftover} · Difference {difference}: leftover is
 * the opening balance plus the CLEARED rows dated on or before `date`, with the import applied.
 */
export const reconciliationSchema = z.object({
  bankBalance: dollarsAnswerSchema,
  date: z.string(),
  leftover: dollarsAnswerSchema,
  /** bankBalance - leftover: 0 when the ledger agrees with the bank. */
  difference: dollarsAnswerSchema,
});
export type ReconciliationInfo = z.infer<typeof reconciliationSchema>;

export const statementColumnsSchema = z.object({
  /** Columns in the widest line: a mapping's indexes are below it. */
  count: z.number(),
  /** Up to 5 lines from the start of the table, `count` cells each. */
  firstRows: z.array(z.array(z.string())),
});

/**
 * An OFX or QFX file's account at its bank (issue 25 item 6, decision 0046), answered only while
 * the user has more than one account, so a one-account user's preview is as it always was.
 */
export const fileAccountSchema = z.object({
  /** The last four characters of the file's ACCTID (the whole id when shorter): the page shows "…1234". */
  ending: z.string(),
  /** The user's account a file of this ACCTID was last imported into; null when none was (or that account is gone). */
  accountId: z.nullable(z.string()),
});

export const statementPreviewSchema = z.object({
  format: z.enum(['csv', 'ofx']),
  /** A CSV whose header was not recognised: send a mapping chosen from `columns`; `rows` is empty until then. */
  needsMapping: z.boolean(),
  /** Every CSV's columns (to choose or change a mapping); absent for OFX and QFX. */
  columns: z.optional(statementColumnsSchema),
  rows: z.array(statementRowSchema),
  bank: z.nullable(bankBalanceSchema),
  /** Null when the statement states no closing balance. */
  reconciliation: z.nullable(reconciliationSchema),
  fileAccount: z.optional(fileAccountSchema),
});
export type StatementPreview = z.infer<typeof statementPreviewSchema>;

export const importCountsSchema = z.object({
  matched: z.number(),
  added: z.number(),
  duplicates: z.number(),
  outside: z.number(),
  /** Rows the user chose to skip. */
  skipped: z.number(),
});

/** The ledger after the import, as every ledger call answers it, with what the import did. */
export const statementImportSchema = z.extend(ledgerInfoSchema, {
  imported: importCountsSchema,
  bank: z.nullable(bankBalanceSchema),
  reconciliation: z.nullable(reconciliationSchema),
});
export type StatementImport = z.infer<typeof statementImportSchema>;

/** The statement calls' paths as the endpoint table spells them, for tests and scripts. */
export const STATEMENT_PATHS = /* @__PURE__ */ pathsOf({ preview: 'previewStatement', import: 'importStatement' });
