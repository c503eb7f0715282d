/**
 * What a user enters to add or change a deposit: the server's check and the page's form. Apart from
 * deposits.ts so the page's first view, which reads only answers, does not carry it (benchmark 4a).
 */
import * as z from 'zod/mini';
import {
  DEPOSIT_DAYS,
  DEPOSIT_TYPES,
  expectedDepositDay,
  FREQUENCIES,
  type Frequency,
  MAX_SCHEDULE_NAME_LENGTH,
} from '../domain/schedules.js';
import { isIsoDate } from '../domain/calendar-date.js';
import { accountIdField, amountSchema, isoDateField, OBJECT_BODY, trimmedText } from './request-fields.js';

const depositFields = z.object(
  {
    name: trimmedText('Name', MAX_SCHEDULE_NAME_LENGTH),
    type: z.enum(DEPOSIT_TYPES, { error: 'Type must be Direct Deposit or Check.' }),
    day: z.enum(DEPOSIT_DAYS, { error: 'Day must be a weekday (Monday to Sunday) or N/A.' }),
    amount: amountSchema,
    startDate: isoDateField('Start Date'),
    frequency: z.enum(FREQUENCIES, {
      error: 'Frequency must be W (weekly), BW (bi-weekly), SM (twice a month), M (monthly) or EOM (end of month).',
    }),
    accountId: accountIdField,
  },
  OBJECT_BODY,
);

/** How a message names a deposit of each frequency. */
const DEPOSIT_WORDS: Record<Frequency, string> = {
  W: 'a weekly',
  BW: 'a bi-weekly',
  SM: 'a twice-a-month',
  M: 'a monthly',
  EOM: 'an end-of-month',
};

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
          expected === 'N/A'
            ? `Day must be N/A for ${DEPOSIT_WORDS[deposit.frequency]} deposit.`
            : `Day must be ${expected}: ${DEPOSIT_WORDS[deposit.frequency]} deposit is paid on the weekday of its start date (${deposit.startDate}).`,
      });
    }
  }),
);
export type DepositInput = z.infer<typeof depositInputSchema>;
