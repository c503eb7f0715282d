/**
 * The accounts' answers as the page holds them (decision 0034): balances and card amounts in
 * Cents. Apart from codecs.ts, as statement-codecs.ts is: only the views' lazy chunks load it, so
 * the page's first view does not carry the accounts' schemas (benchmark 4a, decision 0044).
 */
import * as z from 'zod/mini';
import { accountForecastSchema, accountSchema, accountsInfoSchema, cardAnswerSchema } from './accounts.js';
import { centsFromDollars, isoDateFrom } from './codecs.js';

export const cardCodec = z.extend(cardAnswerSchema, { amount: z.nullable(centsFromDollars), creditLimit: z.nullable(centsFromDollars) });

export const accountCodec = z.extend(accountSchema, {
  currentBalance: centsFromDollars,
  pendingBalance: centsFromDollars,
  card: z.nullable(cardCodec),
});
export type AccountView = z.output<typeof accountCodec>;

export const accountsInfoCodec = z.extend(accountsInfoSchema, { accounts: z.array(accountCodec) });
export type AccountsInfoView = z.output<typeof accountsInfoCodec>;

const balancePointCodec = z.object({ date: isoDateFrom, name: z.string(), balance: centsFromDollars });

/**
 * What Home reads of another account's forecast (decision 0045): its warnings, no more. The rest
 * of the answer (the chart, the pay periods, the next 14 days) is not decoded.
 */
export const forecastWarningsCodec = z.object({
  today: isoDateFrom,
  firstBelowZero: z.nullable(balancePointCodec),
  firstOverLimit: z.optional(z.nullable(balancePointCodec)),
  account: accountForecastSchema.shape.account,
});
export type ForecastWarningsView = z.output<typeof forecastWarningsCodec>;
