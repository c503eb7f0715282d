/**
 * "Can I afford it?" and the everyday spending suggestion (issue 36, decisions 0075 and 0076): the
 * answers. The requests are in what-if-requests.ts, the calls in the endpoint table (common.ts).
 */
import * as z from 'zod/mini';
import { UNTIL_REASONS } from '../domain/safe-to-spend.js';
import { dollarsAnswerSchema, idSchema, pathsOf } from './common.js';
import { balancePointSchema, safeToSpendSchema } from './ledger.js';

/** What is ahead of an account, as the forecast answers it: its lowest balance, its first below $0, safe to spend. */
export const outlookSchema = z.object({
  lowest: z.nullable(balancePointSchema),
  firstBelowZero: z.nullable(balancePointSchema),
  safeToSpend: z.nullable(safeToSpendSchema),
});

/** POST /api/what-if: per account the purchases touch, the forecast before and after them; nothing is stored. */
export const whatIfAnswerSchema = z.object({
  accounts: z.array(
    z.object({
      accountId: idSchema,
      before: outlookSchema,
      after: outlookSchema,
      /**
       * After the purchases, the lowest end-of-day balance from the first one's date to the day before
       * the paycheck after the last one (`until`), or to the ledger's end: what `affordable` weighs.
       */
      lowestBeforePayday: z.object({
        date: z.string(),
        name: z.nullable(z.string()),
        balance: dollarsAnswerSchema,
        until: z.string(),
        untilReason: z.enum(UNTIL_REASONS),
      }),
      /** That lowest balance stays at or above "Keep at least". */
      affordable: z.boolean(),
    }),
  ),
});
export type WhatIfAnswer = z.infer<typeof whatIfAnswerSchema>;

/** GET /api/everyday-spending/suggestion: the median of the last 13 full weeks of everything else the account spent. */
export const everydaySuggestionSchema = z.object({
  accountId: idSchema,
  /** The full weeks (Monday to Sunday) the account's ledger covers of the last 13, oldest first, each with its total. */
  weeks: z.array(z.object({ startDate: z.string(), total: dollarsAnswerSchema })),
  /** The median of those totals; null with fewer than 4 weeks of history. */
  suggestion: z.nullable(dollarsAnswerSchema),
});
export type EverydaySuggestion = z.infer<typeof everydaySuggestionSchema>;

/** The calls' paths as the endpoint table spells them, for tests and scripts. */
export const WHAT_IF_PATHS = /* @__PURE__ */ pathsOf({ whatIf: 'whatIf', everydaySuggestion: 'getEverydaySuggestion' });
