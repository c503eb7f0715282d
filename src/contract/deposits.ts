/** Deposits (recurring income): one schema per answer; what a user enters is in deposit-input.ts. */
import * as z from 'zod/mini';
import { DEPOSIT_DAYS, DEPOSIT_TYPES, FREQUENCIES } from '../domain/schedules.js';
import { dollarsAnswerSchema, idSchema, pathsOf } from './common.js';

export const depositSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: z.enum(DEPOSIT_TYPES),
  day: z.enum(DEPOSIT_DAYS),
  amount: dollarsAnswerSchema,
  startDate: z.string(),
  frequency: z.enum(FREQUENCIES),
  /** The account it is paid into; answered only while the user has more than one account (decision 0042). */
  accountId: z.optional(idSchema),
});
export type Deposit = z.infer<typeof depositSchema>;

export const depositsInfoSchema = z.object({
  deposits: z.array(depositSchema),
  /** Sum of the monthly equivalents: weekly x 52 / 12, bi-weekly x 26 / 12, twice a month x 2. */
  totalDeposits: dollarsAnswerSchema,
});
export type DepositsInfo = z.infer<typeof depositsInfoSchema>;

/** The deposits' paths as the endpoint table spells them, for tests and scripts. */
export const DEPOSITS_PATHS = /* @__PURE__ */ pathsOf({ retrieve: 'getDeposits', add: 'addDeposit', one: 'updateDeposit' });
