/**
 * What a user enters to add or change an expense: the server's check and the page's form. Apart from
 * expenses.ts so the page's first view, which reads only answers, does not carry it (benchmark 4a).
 */
import * as z from 'zod/mini';
import { isIsoDate, type IsoDate } from '../domain/calendar-date.js';
import { EXPENSE_FREQUENCIES, type ExpenseFrequency, expenseDay, MAX_SCHEDULE_NAME_LENGTH } from '../domain/schedules.js';
import { accountIdField, amountSchema, toAccountIdField, OBJECT_BODY, trimmedText, wholeNumberField } from './request-fields.js';

/** Empty, null or missing means "no end". */
const endDateSchema = z.pipe(
  z.optional(
    z.nullable(
      z
        .string({ error: 'End Date must be a date (YYYY-MM-DD) or empty.' })
        .check(z.refine((value: string) => value === '' || isIsoDate(value), 'End Date must be a real date (YYYY-MM-DD) or empty.')),
    ),
  ),
  z.transform((value: string | null | undefined): IsoDate | null => (value ? (value as IsoDate) : null)),
);

/** Empty, null or missing means none: a monthly bill needs no start date. */
const startDateSchema = z.pipe(
  z.optional(
    z.nullable(
      z
        .string({ error: 'Start Date must be a date (YYYY-MM-DD) or empty.' })
        .check(z.refine((value: string) => value === '' || isIsoDate(value), 'Start Date must be a real date (YYYY-MM-DD).')),
    ),
  ),
  z.transform((value: string | null | undefined): IsoDate | null => (value ? (value as IsoDate) : null)),
);

/** How a message names a bill of each frequency. */
const BILL_WORDS: Record<ExpenseFrequency, string> = {
  M: 'a monthly',
  W: 'a weekly',
  BW: 'an every-2-weeks',
  Q: 'an every-3-months',
  Y: 'a yearly',
};

/**
 * The frequency rules run even while other fields (a blank name, say) have their own messages, so
 * a form marks a missing Day or Start Date together with the rest, not one round later; they only
 * wait for the fields they read to be well formed themselves.
 */
const RULES_BESIDE_OTHER_FIELDS = {
  when: (payload: { value: unknown; issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    !payload.issues.some((issue) => ['frequency', 'day', 'startDate'].includes(String(issue.path?.[0]))),
};

/**
 * What a user enters to add or change an expense. A monthly bill (the default, so clients that
 * know no frequency keep working) needs its day; every other one needs its start date, and its
 * day is that date's day of the month (docs/decisions/0018), filled in here when it is left out.
 */
export const expenseInputSchema = z.pipe(
  z
    .object(
      {
        name: trimmedText('Name', MAX_SCHEDULE_NAME_LENGTH),
        type: trimmedText('Type', 50),
        frequency: z._default(
          z.enum(EXPENSE_FREQUENCIES, {
            error: 'Frequency must be M (monthly), W (weekly), BW (every 2 weeks), Q (every 3 months) or Y (yearly).',
          }),
          'M',
        ),
        day: z.optional(wholeNumberField('Day', 1, 31)),
        startDate: startDateSchema,
        amount: amountSchema,
        endDate: endDateSchema,
        accountId: accountIdField,
        toAccountId: toAccountIdField,
      },
      OBJECT_BODY,
    )
    .check(
      z.superRefine((expense, context) => {
        const issue = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
        // Only real dates have a day of the month and an order; a bad one already has its own message.
        const realStart = expense.startDate !== null && isIsoDate(expense.startDate) ? expense.startDate : null;
        const realEnd = typeof expense.endDate === 'string' && isIsoDate(expense.endDate) ? expense.endDate : null;
        if (expense.frequency === 'M') {
          if (expense.day === undefined) issue('day', 'Day is required.');
        } else if (expense.startDate === null) {
          issue('startDate', `Start Date is required for ${BILL_WORDS[expense.frequency]} bill: it is the first due date.`);
        } else if (
          realStart !== null &&
          expense.day !== undefined &&
          expense.day !== expenseDay(expense.frequency, expense.day, realStart)
        ) {
          issue('day', `Day must be ${expenseDay(expense.frequency, expense.day, realStart)}, the day of the Start Date, or left out.`);
        }
        if (realStart !== null && realEnd !== null && realEnd < realStart) {
          issue('endDate', 'End Date must be on or after Start Date.');
        }
      }, RULES_BESIDE_OTHER_FIELDS),
    ),
  z.transform((expense) => ({ ...expense, day: expenseDay(expense.frequency, expense.day, expense.startDate) as number })),
);
export type ExpenseInput = z.input<typeof expenseInputSchema>;
export type CheckedExpense = z.output<typeof expenseInputSchema>;
