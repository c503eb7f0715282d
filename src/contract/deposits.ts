/** Deposits (recurring income): one schema per payload, for the server and the page's form. */
import * as z from 'zod/mini';
import { DEPOSIT_DAYS, DEPOSIT_TYPES, expectedDepositDay, FREQUENCIES, MAX_SCHEDULE_NAME_LENGTH } from '../domain/schedules.js';
import { isIsoDate } from '../domain/calendar-date.js';
import { amountSchema, dollarsAnswerSchema, idSchema, isoDateField, OBJECT_BODY, trimmedText } from './common.js';

const depositFields = z.object(
  {
    name: trimmedText('Name', MAX_SCHEDULE_NAME_LENGTH),
    type: z.enum(DEPOSIT_TYPES, { error: 'Type must be Direct Deposit or Check.' }),
    day: z.enum(DEPOSIT_DAYS, { error: 'Day must be a weekday (Monday to Sunday) or N/A.' }),
    amount: amountSchema,
    startDate: isoDateField('Start Date'),
    frequency: z.enum(FREQUENCIES, { error: 'Frequency must be BW (bi-weekly) or EOM (end of month).' }),
  },
  OBJECT_BODY,
);

/** What a user enters to add or change a deposit. Unknown keys (id, owner...) are dropped. */
export const depositInputSchema = depositFields.check(
  z.superRefine((deposit, context) => {
    // Only a real start date has a weekday; a bad one already has its own message.
    if (!isIsoDate(deposit.startDate)) return;
    const expected = expectedDepositDay(deposit.frequency, deposit.startDate);
    if (deposit.day !== expected) {
      context.addIssue({
        code: 'custom',
        path: ['day'],
        message:
          deposit.frequency === 'BW'
            ? `Day must be ${expected}: a bi-weekly deposit is paid on the weekday of its start date (${deposit.startDate}).`
            : 'Day must be N/A for an end-of-month deposit.',
      });
    }
  }),
);
export type DepositInput = z.infer<typeof depositInputSchema>;

export const depositSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: z.enum(DEPOSIT_TYPES),
  day: z.enum(DEPOSIT_DAYS),
  amount: dollarsAnswerSchema,
  startDate: z.string(),
  frequency: z.enum(FREQUENCIES),
});
export type Deposit = z.infer<typeof depositSchema>;

export const depositsInfoSchema = z.object({
  deposits: z.array(depositSchema),
  /** Sum of the monthly equivalents: bi-weekly counts amount x 26 / 12. */
  totalDeposits: dollarsAnswerSchema,
});
export type DepositsInfo = z.infer<typeof depositsInfoSchema>;

export const DEPOSITS_PATHS = {
  retrieve: '/api/deposits/retrieve-deposits',
  add: '/api/deposits/add-deposit',
  one: '/api/deposits/:id',
} as const satisfies Record<string, string>;
