/** Expenses (recurring monthly bills): one schema per payload, for the server and the page's form. */
import * as z from 'zod/mini';
import { isIsoDate, type IsoDate } from '../domain/calendar-date.js';
import { MAX_SCHEDULE_NAME_LENGTH } from '../domain/schedules.js';
import { amountSchema, dollarsAnswerSchema, idSchema, OBJECT_BODY, trimmedText, wholeNumberField } from './common.js';

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

export const expenseInputSchema = z.object(
  {
    name: trimmedText('Name', MAX_SCHEDULE_NAME_LENGTH),
    type: trimmedText('Type', 50),
    day: wholeNumberField('Day', 1, 31),
    amount: amountSchema,
    endDate: endDateSchema,
  },
  OBJECT_BODY,
);
export type ExpenseInput = z.infer<typeof expenseInputSchema>;

export const expenseSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: z.string(),
  day: z.number(),
  amount: dollarsAnswerSchema,
  /** null when the expense has no end. */
  endDate: z.nullable(z.string()),
});
export type Expense = z.infer<typeof expenseSchema>;

export const expensesInfoSchema = z.object({
  /** In the default order: by day, then name. */
  expenses: z.array(expenseSchema),
  /** Sum of the expenses that have not ended (no end date, or one on or after today). */
  totalExpenses: dollarsAnswerSchema,
});
export type ExpensesInfo = z.infer<typeof expensesInfoSchema>;

export const EXPENSE_SORTS = ['NameAsc', 'NameDesc', 'TypeAsc', 'TypeDesc', 'DayAsc', 'DayDesc', 'AmountAsc', 'AmountDesc'] as const;
export type ExpenseSort = (typeof EXPENSE_SORTS)[number];

export const EXPENSES_PATHS = {
  retrieve: '/api/expenses/retrieve-expenses',
  add: '/api/expenses/add-expense',
  one: '/api/expenses/:id',
} as const satisfies Record<string, string>;
