/**
 * The answers as the page holds them (decision 0034): money in Cents, dates as IsoDate, decoded
 * once by the api client. Each is the answer's own schema with its money and date fields swapped
 * for the two field codecs below, so the wire format is written only in the answer schemas; one
 * parse checks an answer and decodes it. Encoding goes back to what the wire carries: a row sent
 * back by Pay, a form filled in from a deposit. The server never uses these: it checks its answers
 * with safeParse of the plain schemas (decision 0012), which would send a codec's decoded side.
 */
import * as z from 'zod/mini';
import { type IsoDate, isIsoDate } from '../domain/calendar-date.js';
import { type Cents, centsToDollars } from '../domain/money.js';
import { dollarsAnswerSchema } from './common.js';
import { type Deposit, depositSchema, depositsInfoSchema } from './deposits.js';
import { type Expense, expenseSchema, expensesInfoSchema } from './expenses.js';
import {
  forecastSchema,
  type Ledger,
  ledgerInfoSchema,
  ledgerSchema,
  type LedgerTransaction,
  ledgerTransactionSchema,
  rowSourceSchema,
  safeToSpendSchema,
} from './ledger.js';

/**
 * Dollars on the wire (whole cents: dollarsAnswerSchema refuses a third decimal), Cents on the
 * page. Decode only: a pipe costs the first view less than a zod codec (benchmark 4a), and the
 * few values the page sends back are encoded by the functions below.
 */
export const centsFromDollars = z.pipe(
  dollarsAnswerSchema,
  z.pipe(
    // Two decimals at most, so rounding only drops the binary error.
    z.transform((dollars: number) => Math.round(dollars * 100) as Cents),
    // An amount past 2^53 cents is refused.
    z.custom<Cents>((value) => Number.isSafeInteger(value)),
  ),
);

/** 'YYYY-MM-DD' on the wire, an IsoDate on the page: the same string, checked to be a real date once. */
export const isoDateFrom = z.custom<IsoDate, string>((value) => typeof value === 'string' && isIsoDate(value));

export const rowSourceCodec = z.extend(rowSourceSchema, { occurrence: isoDateFrom });

/** A row's decoded fields, for the whole ledger's rows and for the changes answer's (ledger-changes-codec.ts). */
export const LEDGER_TRANSACTION_FIELDS = {
  date: isoDateFrom,
  amount: centsFromDollars,
  balance: centsFromDollars,
  source: z.nullable(rowSourceCodec),
};

export const ledgerTransactionCodec = z.extend(ledgerTransactionSchema, LEDGER_TRANSACTION_FIELDS);
export type LedgerTransactionView = z.output<typeof ledgerTransactionCodec>;

/** The whole ledger's own decoded fields, beside its rows: also the changes answer's. */
export const LEDGER_FIELDS = {
  startDate: isoDateFrom,
  endDate: isoDateFrom,
  openingBalance: centsFromDollars,
  currentBalance: centsFromDollars,
  pendingBalance: centsFromDollars,
};

export const ledgerCodec = z.extend(ledgerSchema, { ...LEDGER_FIELDS, transactions: z.array(ledgerTransactionCodec) });
export type LedgerView = z.output<typeof ledgerCodec>;

export const ledgerInfoCodec = z.extend(ledgerInfoSchema, { ledger: z.nullable(ledgerCodec) });
export type LedgerInfoView = z.output<typeof ledgerInfoCodec>;

/** A moment of the forecast: a row's date, name and the balance after it. */
const balancePointCodec = z.object({ date: isoDateFrom, name: z.string(), balance: centsFromDollars });

/** GET /api/ledger/forecast as Home holds it (issue 24): the answer without the whole ledger. */
export const forecastCodec = z.extend(forecastSchema, {
  today: isoDateFrom,
  lowest: z.nullable(balancePointCodec),
  firstBelowZero: z.nullable(balancePointCodec),
  payPeriods: z.array(
    z.object({
      startDate: isoDateFrom,
      endDate: isoDateFrom,
      income: centsFromDollars,
      bills: centsFromDollars,
      leftover: centsFromDollars,
      lowest: centsFromDollars,
      endBalance: centsFromDollars,
      everyday: z.optional(centsFromDollars),
    }),
  ),
  ...LEDGER_FIELDS,
  chart: z.array(z.extend(balancePointCodec, { paycheck: z.boolean() })),
  upcoming: z.array(ledgerTransactionCodec),
  // Home's first line (issue 36), and everyday spending while it is counted ("includes everyday spending").
  everyday: z.optional(z.object({ weekly: centsFromDollars })),
  safeToSpend: z.nullable(
    z.extend(safeToSpendSchema, {
      amount: centsFromDollars,
      perDay: z.nullable(centsFromDollars),
      until: isoDateFrom,
      lowestDate: isoDateFrom,
      buffer: centsFromDollars,
    }),
  ),
  // With several accounts, whose it is (decision 0045): Home's warning names it. The rest of what several accounts add is account-codecs.ts'.
  account: z.optional(z.object({ name: z.string() })),
});
export type ForecastView = z.output<typeof forecastCodec>;
export type SafeToSpendView = NonNullable<ForecastView['safeToSpend']>;

export const depositCodec = z.extend(depositSchema, { amount: centsFromDollars, startDate: isoDateFrom });
export type DepositView = z.output<typeof depositCodec>;

export const depositsInfoCodec = z.extend(depositsInfoSchema, { deposits: z.array(depositCodec), totalDeposits: centsFromDollars });
export type DepositsInfoView = z.output<typeof depositsInfoCodec>;

export const expenseCodec = z.extend(expenseSchema, {
  amount: centsFromDollars,
  startDate: z.nullable(isoDateFrom),
  endDate: z.nullable(isoDateFrom),
});
export type ExpenseView = z.output<typeof expenseCodec>;

export const expensesInfoCodec = z.extend(expensesInfoSchema, { expenses: z.array(expenseCodec), totalExpenses: centsFromDollars });
export type ExpensesInfoView = z.output<typeof expensesInfoCodec>;

/*
 * Requests stay in dollars and date strings: their schemas are the forms' and the server's
 * (convention 2). A request made from a held value goes through these, never through arithmetic.
 */

/** A held amount as a request carries it: Pay and Clear send the row's amount back in dollars. */
export const encodeCents: (amount: Cents) => number = centsToDollars;

/** A held row as the wire carries it: what the Edit form starts from and sends back whole. */
export function encodeLedgerTransaction(row: LedgerTransactionView): LedgerTransaction {
  return { ...row, amount: centsToDollars(row.amount), balance: centsToDollars(row.balance) };
}

/** A held ledger's own fields as the wire carries them, with the rows given. */
export function encodeLedger(ledger: LedgerView, transactions: LedgerTransaction[]): Ledger {
  return {
    ...ledger,
    openingBalance: centsToDollars(ledger.openingBalance),
    currentBalance: centsToDollars(ledger.currentBalance),
    pendingBalance: centsToDollars(ledger.pendingBalance),
    transactions,
  };
}

/** A held deposit as the wire carries it, for its Edit form. */
export function encodeDeposit(deposit: DepositView): Deposit {
  return { ...deposit, amount: centsToDollars(deposit.amount) };
}

/** A held expense as the wire carries it, for its Edit form. */
export function encodeExpense(expense: ExpenseView): Expense {
  return { ...expense, amount: centsToDollars(expense.amount) };
}
