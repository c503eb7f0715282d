/** Expenses (recurring bills): one schema per answer; what a user enters is in expense-input.ts. */
import * as z from 'zod/mini';
import { EXPENSE_FREQUENCIES } from '../domain/schedules.js';
import { dollarsAnswerSchema, idSchema, pathsOf } from './common.js';

export const expenseSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: z.string(),
  frequency: z.enum(EXPENSE_FREQUENCIES),
  /** The day of the month: a monthly bill's own, the start date's for the others. */
  day: z.number(),
  amount: dollarsAnswerSchema,
  /** The first due date; null for a monthly bill that was given none. */
  startDate: z.nullable(z.string()),
  /** null when the expense has no end. */
  endDate: z.nullable(z.string()),
  /** The account it is paid from; answered only while the user has more than one account (decision 0042). */
  accountId: z.optional(idSchema),
  /**
   * The account it pays into, making it a recurring transfer (decision 0043); answered only while
   * the user has more than one account and the expense has one.
   */
  toAccountId: z.optional(idSchema),
});
export type Expense = z.infer<typeof expenseSchema>;

export const expensesInfoSchema = z.object({
  /** In the default order: by day, then name. */
  expenses: z.array(expenseSchema),
  /**
   * Sum of the monthly equivalents of the expenses that have not ended (no end date, or one on or
   * after today): weekly x 52 / 12, every 2 weeks x 26 / 12, every 3 months / 3, yearly / 12.
   */
  totalExpenses: dollarsAnswerSchema,
});
export type ExpensesInfo = z.infer<typeof expensesInfoSchema>;

export const EXPENSE_SORTS = ['NameAsc', 'NameDesc', 'TypeAsc', 'TypeDesc', 'DayAsc', 'DayDesc', 'AmountAsc', 'AmountDesc'] as const;
export type ExpenseSort = (typeof EXPENSE_SORTS)[number];

/** The expenses' paths as the endpoint table spells them, for tests and scripts. */
export const EXPENSES_PATHS = /* @__PURE__ */ pathsOf({ retrieve: 'getExpenses', add: 'addExpense', one: 'updateExpense' });
