/** The error body every failed API call answers with, and the page's catalogue of messages. */
import * as z from 'zod/mini';

const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'not_found',
  'conflict',
  'payload_too_large',
  'precondition_failed',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
] as const;

export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    /** One message per bad field, keyed by the field's path ("ledger.startDate"). */
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The same body with nothing else in it: what tests hold every answer to. */
export const strictErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});

/** What the page says when a call fails (SPEC.md section 8), before the server's own message. */
export const FAILURE_MESSAGES = {
  getDeposits: 'Failed to get deposits!',
  addDeposit: 'Failed to add deposit!',
  updateDeposit: 'Failed to update deposit!',
  deleteDeposit: 'Failed to delete deposit!',
  getExpenses: 'Failed to get expenses!',
  addExpense: 'Failed to add expense!',
  updateExpense: 'Failed to update expense!',
  deleteExpense: 'Failed to delete expense!',
  createLedger: 'Failed to create ledger!',
  extendLedger: 'Failed to extend ledger!',
  getLedger: 'Failed to get ledger!',
  getForecast: 'Failed to get forecast!',
  addTransaction: 'Failed to add transaction!',
  updateTransaction: 'Failed to update transaction!',
  deleteTransaction: 'Failed to delete transaction!',
  previewStatement: 'Failed to read statement!',
  importStatement: 'Failed to import statement!',
  exportLedgerCsv: 'Failed to export the ledger!',
  exportAccount: 'Failed to download your data!',
  importAccount: 'Failed to restore your data!',
  deleteAccount: 'Failed to delete your data!',
} as const;
export type ApiOperation = keyof typeof FAILURE_MESSAGES;
