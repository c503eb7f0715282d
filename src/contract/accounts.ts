/**
 * Accounts (issue 25, decision 0042): one schema per answer; what a user enters is in
 * account-input.ts. Each account has its own ledger, whose calls are the ledger's own under
 * /api/accounts/{id}/ledger, with the same requests and answers.
 */
import * as z from 'zod/mini';
import { ACCOUNT_KINDS, CARD_RULES } from '../domain/accounts.js';
import { accountPathsOf, dollarsAnswerSchema, idSchema, pathsOf } from './common.js';
import { balancePointSchema, forecastSchema } from './ledger.js';

/** A card's settings as stored: the payment projection that uses them comes with phase B of issue 25. */
export const cardAnswerSchema = z.object({
  closingDay: z.number(),
  dueDay: z.number(),
  payFromAccountId: idSchema,
  rule: z.enum(CARD_RULES),
  /** What a MINIMUM or FIXED rule pays; null under STATEMENT. */
  amount: z.nullable(dollarsAnswerSchema),
  creditLimit: z.nullable(dollarsAnswerSchema),
});

export const accountSchema = z.object({
  id: idSchema,
  name: z.string(),
  kind: z.enum(ACCOUNT_KINDS),
  /** Its ledger's current and pending balances; 0 while it has no ledger. */
  currentBalance: dollarsAnswerSchema,
  pendingBalance: dollarsAnswerSchema,
  /** The account SPEC.md's /api/ledger calls act on: exactly one is. */
  primary: z.boolean(),
  /** null except for a card. */
  card: z.nullable(cardAnswerSchema),
});
export type AccountInfo = z.infer<typeof accountSchema>;

/** Oldest first. */
export const accountsInfoSchema = z.object({ accounts: z.array(accountSchema) });
export type AccountsInfo = z.infer<typeof accountsInfoSchema>;

/**
 * GET /api/accounts/{id}/ledger/forecast (and /api/ledger/forecast for the primary account), with
 * what several accounts add (decision 0045).
 * Apart from forecastSchema so the page's first view, which reads the primary account's forecast
 * and needs only the account's name, does not carry the rest (benchmark 4a).
 */
export const accountForecastSchema = z.extend(forecastSchema, {
  /**
   * Whose forecast this is, while the user has more than one account: the warning names it.
   * Absent with one account, so SPEC.md's answers stay as they were.
   */
  account: z.optional(z.object({ id: idSchema, name: z.string(), kind: z.enum(ACCOUNT_KINDS) })),
  /**
   * On a credit card's forecast only: the first row dated today or later after which the card owes
   * more than its credit limit; null when it never does, or it has no limit.
   */
  firstOverLimit: z.optional(z.nullable(balancePointSchema)),
});
export type AccountForecast = z.infer<typeof accountForecastSchema>;

/** The accounts' paths as the endpoint table spells them, for tests and scripts. */
export const ACCOUNTS_PATHS = /* @__PURE__ */ pathsOf({ list: 'listAccounts', one: 'updateAccount' });

/** The per-account ledger's paths as the endpoint table spells them (`:id` the account), for tests and scripts. */
export const ACCOUNT_LEDGER_PATHS = /* @__PURE__ */ accountPathsOf({
  retrieve: 'getLedger',
  create: 'createLedger',
  forecast: 'getForecast',
  extend: 'extendLedger',
  addTransaction: 'addTransaction',
  updateTransaction: 'updateTransaction',
  deleteTransaction: 'deleteTransaction',
  previewStatement: 'previewStatement',
  importStatement: 'importStatement',
  ledgerCsv: 'exportLedgerCsv',
});
