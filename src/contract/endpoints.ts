/**
 * The endpoint table's schemas (decision 0036): for each row of ENDPOINTS (common.ts), what its
 * request may carry and what it answers. The server registers each call from its row and these
 * (the OpenAPI document is generated from them), and the API tests walk them. The page never
 * imports this module: its first view would carry every request schema (benchmark 4a). Its
 * dialogs import the request schemas they check forms with themselves.
 */
import * as z from 'zod/mini';
import { RESTORE_BODY_LIMIT_BYTES, yourDataCountsSchema, yourDataExportSchema } from './your-data.js';
import { restoreYourDataRequestSchema, deleteYourDataRequestSchema } from './your-data-requests.js';
import { profileSchema } from './app-config.js';
import { accountTransactionParamsSchema, accountUpdateSchema, newAccountSchema, removeAccountRequestSchema } from './account-input.js';
import { accountForecastSchema, accountSchema, accountsInfoSchema } from './accounts.js';
import { type ApiOperation, type EndpointRow, ENDPOINTS } from './common.js';
import { depositInputSchema } from './deposit-input.js';
import { depositsInfoSchema } from './deposits.js';
import { expenseInputSchema } from './expense-input.js';
import { expensesInfoSchema } from './expenses.js';
import { ledgerInfoSchema } from './ledger.js';
import { ledgerAnswerQuerySchema, ledgerWriteAnswerSchema } from './ledger-changes.js';
import { ledgerWindowQuerySchema, ledgerWindowSchema } from './ledger-window.js';
import { createLedgerRequestSchema, extendLedgerRequestSchema, newTransactionSchema, transactionUpdateSchema } from './ledger-requests.js';
import { idParamsSchema } from './request-fields.js';
import { statementImportRequestSchema, statementPreviewRequestSchema } from './statement-requests.js';
import { STATEMENT_BODY_LIMIT_BYTES, statementImportSchema, statementPreviewSchema } from './statements.js';
import { notificationSettingsSchema, pushKeySchema, testDeliverySchema } from './notifications.js';
import { newChannelSchema, notificationPreferencesSchema, profileUpdateSchema } from './notification-requests.js';
import { newTransferSchema } from './transfers.js';
import { undoAnswerSchema, undoRequestSchema } from './undo.js';

/** An answer that is a file to save, not JSON: its media type and what it is, for the OpenAPI document. */
export interface FileAnswer {
  readonly mediaType: string;
  readonly description: string;
}

export interface EndpointSchemas {
  /** The path's parameters (`:id`). */
  readonly params?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly headers?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  /** A 200 answer: JSON checked by its schema, or a file. */
  readonly answer: z.ZodMiniType | FileAnswer;
  /** The call's own request body limit in bytes, when it is not the app's (it carries a whole file). */
  readonly bodyLimit?: number;
}

export function isFileAnswer(answer: EndpointSchemas['answer']): answer is FileAnswer {
  return 'mediaType' in answer;
}

/** The If-Match a ledger write may carry (decision 0030). */
/**
 * The headers a ledger write may carry: If-Match with the ETag of the ledger the caller holds
 * (`W/"<version>"`, `"<version>"`, or `*` for any ledger) makes it go ahead only at that version;
 * at another it answers 412 precondition_failed and changes nothing. Loose: every other header
 * passes through as sent.
 */
/* Here, not in ledger-requests.ts: the page never sends it, and its zod (looseObject, describe)
 * would otherwise join the first view's script (benchmark 4a). */
export const ledgerWriteHeadersSchema = z.looseObject({
  'if-match': z.optional(
    z
      .string()
      .check(
        z.describe(
          'Write only if the ledger is still at this version: the ETag of the ledger you hold (W/"<version>"), or * for any ledger. Otherwise 412 precondition_failed, and nothing changes.',
        ),
      ),
  ),
});

const headers = ledgerWriteHeadersSchema;
/** A write of one ledger row: If-Match, and `?answer=changes` for only what it changed (decision 0030). */
const rowWrite = { headers, query: ledgerAnswerQuerySchema, answer: ledgerWriteAnswerSchema } as const;
/** The whole ledger, or a window of it when the query asks for one (decision 0053). */
const ledgerRead = { query: ledgerWindowQuerySchema, answer: z.union([ledgerInfoSchema, ledgerWindowSchema]) } as const;

export const ENDPOINT_SCHEMAS = {
  getProfile: { answer: profileSchema },
  updateProfile: { body: profileUpdateSchema, answer: profileSchema },

  getDeposits: { answer: depositsInfoSchema },
  addDeposit: { body: depositInputSchema, answer: depositsInfoSchema },
  updateDeposit: { params: idParamsSchema, body: depositInputSchema, answer: depositsInfoSchema },
  deleteDeposit: { params: idParamsSchema, answer: depositsInfoSchema },

  getExpenses: { answer: expensesInfoSchema },
  addExpense: { body: expenseInputSchema, answer: expensesInfoSchema },
  updateExpense: { params: idParamsSchema, body: expenseInputSchema, answer: expensesInfoSchema },
  deleteExpense: { params: idParamsSchema, answer: expensesInfoSchema },

  getLedger: ledgerRead,
  createLedger: { headers, body: createLedgerRequestSchema, answer: ledgerInfoSchema },
  getForecast: { answer: accountForecastSchema },
  extendLedger: { headers, body: extendLedgerRequestSchema, answer: ledgerInfoSchema },
  addTransaction: { ...rowWrite, body: newTransactionSchema },
  updateTransaction: { ...rowWrite, body: transactionUpdateSchema },
  deleteTransaction: { ...rowWrite, params: idParamsSchema },

  previewStatement: { body: statementPreviewRequestSchema, answer: statementPreviewSchema, bodyLimit: STATEMENT_BODY_LIMIT_BYTES },
  importStatement: {
    headers,
    body: statementImportRequestSchema,
    answer: statementImportSchema,
    bodyLimit: STATEMENT_BODY_LIMIT_BYTES,
  },

  exportLedgerCsv: { answer: { mediaType: 'text/csv', description: 'The ledger as a CSV file.' } },
  exportYourData: { answer: yourDataExportSchema },
  restoreYourData: { body: restoreYourDataRequestSchema, answer: yourDataCountsSchema, bodyLimit: RESTORE_BODY_LIMIT_BYTES },
  deleteYourData: { body: deleteYourDataRequestSchema, answer: yourDataCountsSchema },

  undo: { body: undoRequestSchema, answer: undoAnswerSchema },

  listAccounts: { answer: accountsInfoSchema },
  addAccount: { body: newAccountSchema, answer: accountSchema },
  updateAccount: { params: idParamsSchema, body: accountUpdateSchema, answer: accountSchema },
  removeAccount: { params: idParamsSchema, body: removeAccountRequestSchema, answer: accountsInfoSchema },

  // Each the twin of its /api/ledger row, with the account's id in the path.
  getAccountLedger: { ...ledgerRead, params: idParamsSchema },
  createAccountLedger: { params: idParamsSchema, headers, body: createLedgerRequestSchema, answer: ledgerInfoSchema },
  getAccountForecast: { params: idParamsSchema, answer: accountForecastSchema },
  extendAccountLedger: { params: idParamsSchema, headers, body: extendLedgerRequestSchema, answer: ledgerInfoSchema },
  addAccountTransaction: { ...rowWrite, params: idParamsSchema, body: newTransactionSchema },
  updateAccountTransaction: { ...rowWrite, params: idParamsSchema, body: transactionUpdateSchema },
  deleteAccountTransaction: { ...rowWrite, params: accountTransactionParamsSchema },
  previewAccountStatement: {
    params: idParamsSchema,
    body: statementPreviewRequestSchema,
    answer: statementPreviewSchema,
    bodyLimit: STATEMENT_BODY_LIMIT_BYTES,
  },
  importAccountStatement: {
    params: idParamsSchema,
    headers,
    body: statementImportRequestSchema,
    answer: statementImportSchema,
    bodyLimit: STATEMENT_BODY_LIMIT_BYTES,
  },
  exportAccountLedgerCsv: { params: idParamsSchema, answer: { mediaType: 'text/csv', description: "The account's ledger as a CSV file." } },

  addTransfer: { headers, body: newTransferSchema, answer: ledgerInfoSchema },

  getNotifications: { answer: notificationSettingsSchema },
  updateNotifications: { body: notificationPreferencesSchema, answer: notificationSettingsSchema },
  addNotificationChannel: { body: newChannelSchema, answer: notificationSettingsSchema },
  removeNotificationChannel: { params: idParamsSchema, answer: notificationSettingsSchema },
  testNotificationChannel: { params: idParamsSchema, answer: testDeliverySchema },
  getPushKey: { answer: pushKeySchema },
} as const satisfies { readonly [Operation in ApiOperation]: EndpointSchemas };

/** Every row of the table, whole (method, path, failure message and schemas), in its order. */
export function endpointRows(): readonly (EndpointRow & EndpointSchemas & { readonly operation: ApiOperation })[] {
  return (Object.keys(ENDPOINTS) as ApiOperation[]).map((operation) => ({
    operation,
    ...ENDPOINTS[operation],
    ...ENDPOINT_SCHEMAS[operation],
  }));
}
