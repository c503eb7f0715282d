/**
 * Users and ledgers for the benchmarks, made the way a person makes them: signed in through the
 * embedded provider, deposits and expenses added through the API, a ledger created from them, and
 * a few rows added by hand to land on an exact row count.
 */
import { signInThroughDevProvider } from '../../tests/support/dev-sign-in.js';
import { daysInMonth, fromParts, type IsoDate, weekdayOf } from '../../src/domain/calendar-date.js';
import { generateLedgerDrafts, type NamedDeposit, type NamedExpense } from '../../src/domain/ledger.js';
import { cents } from '../../src/domain/money.js';
import { type Ledger, LEDGER_PATHS, ledgerInfoSchema } from '../../src/contract/ledger.js';
import { ledgerChangesSchema } from '../../src/contract/ledger-changes.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { ApiClient } from './http-client.js';

export async function signIn(origin: string, userName: string): Promise<ApiClient> {
  const { accessToken } = await signInThroughDevProvider(origin, userName);
  return new ApiClient(origin, accessToken);
}

export interface LedgerPlan {
  readonly startDate: IsoDate;
  readonly endDate: IsoDate;
  readonly deposits: readonly NamedDeposit[];
  readonly expenses: readonly NamedExpense[];
}

const FIRST_YEAR = 2027;

/** The last day of the `months`-th month counted from `startMonth` of `startYear` (itself month 1). */
function endOfMonthNumber(startYear: number, startMonth: number, months: number): IsoDate {
  const index = startMonth - 1 + months - 1;
  const year = startYear + Math.floor(index / 12);
  const month = (index % 12) + 1;
  return fromParts(year, month, daysInMonth(year, month));
}

/** Two bi-weekly paychecks and `expenseCount` monthly bills on days 1 to 28, over whole months from January of FIRST_YEAR. */
export function schedulePlan(months: number, expenseCount: number): LedgerPlan {
  return schedulePlanFrom(FIRST_YEAR, 1, months, expenseCount);
}

/**
 * The same plan from the first of another month: benchmark 14's ledgers start months before today,
 * so that the bank's last 90 days fall inside them.
 */
export function schedulePlanFrom(startYear: number, startMonth: number, months: number, expenseCount: number): LedgerPlan {
  const startDate = fromParts(startYear, startMonth, 1);
  const deposits: NamedDeposit[] = [
    { name: 'Acme', amount: cents(2_150_00), startDate, frequency: 'BW' },
    { name: 'Side Gig', amount: cents(640_00), startDate: fromParts(startYear, startMonth, 8), frequency: 'BW' },
  ];
  const expenses: NamedExpense[] = Array.from({ length: expenseCount }, (_, index) => ({
    name: `Bill ${String(index + 1).padStart(3, '0')}`,
    amount: cents(25_00 + index * 7_13),
    day: (index % 28) + 1,
    endDate: null,
  }));
  return { startDate, endDate: endOfMonthNumber(startYear, startMonth, months), deposits, expenses };
}

export function plannedRowCount(plan: LedgerPlan): number {
  return generateLedgerDrafts(plan.deposits, plan.expenses, { from: plan.startDate, to: plan.endDate }).length;
}

/** More monthly bills than this and the ledger is filled with weekly ones instead (the product allows 300 expenses). */
const MOST_MONTHLY_BILLS = 100;

/** A bill due every week from one of the first seven days of FIRST_YEAR. */
function weeklyBill(index: number): NamedExpense {
  const startDate = fromParts(FIRST_YEAR, 1, (index % 7) + 1);
  return {
    name: `Weekly ${String(index + 1).padStart(3, '0')}`,
    amount: cents(9_00 + index * 3_07),
    day: (index % 7) + 1,
    endDate: null,
    frequency: 'W',
    startDate,
  };
}

/**
 * Five years of the two paychecks, as many weekly bills as fit under `rows` and then monthly ones:
 * a 20,000-row ledger (the product's limit, decision 0028) from 77 expenses.
 */
function planForManyRows(rows: number): LedgerPlan {
  const base = schedulePlan(60, 0);
  const depositRows = plannedRowCount(base);
  const weeklyRows = plannedRowCount({ ...base, deposits: [], expenses: [weeklyBill(0)] });
  const weekly = Array.from({ length: Math.floor((rows - depositRows) / weeklyRows) }, (_, index) => weeklyBill(index));
  const afterWeekly = plannedRowCount({ ...base, expenses: weekly });
  const monthly = schedulePlan(60, Math.floor((rows - afterWeekly) / 60)).expenses;
  return { ...base, expenses: [...weekly, ...monthly] };
}

/** As many whole bills as fit under `rows`; the caller adds the remainder by hand. */
export function planForRows(rows: number): LedgerPlan {
  const months = rows >= 1500 ? 60 : rows >= 400 ? 12 : rows >= 100 ? 3 : 1;
  const depositRows = plannedRowCount(schedulePlan(months, 0));
  // Every bill on days 1 to 28 falls once in each whole month.
  const bills = Math.max(0, Math.floor((rows - depositRows) / months));
  return bills > MOST_MONTHLY_BILLS ? planForManyRows(rows) : schedulePlan(months, bills);
}

/** The plan's deposits and expenses; in the named account when given, else the primary one. */
export async function addSchedules(client: ApiClient, plan: LedgerPlan, accountId?: string): Promise<void> {
  const inAccount = accountId === undefined ? {} : { accountId };
  for (const deposit of plan.deposits) {
    await client.json('POST', DEPOSITS_PATHS.add, {
      name: deposit.name,
      type: 'Direct Deposit',
      day: weekdayOf(deposit.startDate),
      amount: deposit.amount / 100,
      startDate: deposit.startDate,
      frequency: deposit.frequency,
      ...inAccount,
    });
  }
  for (const expense of plan.expenses) {
    await client.json('POST', EXPENSES_PATHS.add, {
      name: expense.name,
      type: 'Bill',
      day: expense.day,
      amount: expense.amount / 100,
      endDate: '',
      // Monthly bills go in as they always did; a weekly one names its frequency and first date.
      ...(expense.frequency !== undefined && expense.frequency !== 'M' && { frequency: expense.frequency, startDate: expense.startDate }),
      ...inAccount,
    });
  }
}

export function createLedgerBody(plan: LedgerPlan) {
  return { ledger: { startDate: plan.startDate, endDate: plan.endDate, currentBalance: 1_000 } };
}

function ledgerOf(answer: unknown): Ledger {
  const { ledger } = ledgerInfoSchema.parse(answer);
  if (!ledger) throw new Error('expected a ledger in the answer');
  return ledger;
}

/** Gives the signed-in user's deposits and expenses and a ledger from them, without topping it up. */
export async function seedSchedulesAndLedger(client: ApiClient, plan: LedgerPlan): Promise<Ledger> {
  await addSchedules(client, plan);
  return ledgerOf(await client.json('POST', LEDGER_PATHS.create, createLedgerBody(plan)));
}

/** Rows past this are topped up with changes-only answers: answering the whole ledger for each would take minutes. */
const WHOLE_ANSWERS_UP_TO = 5000;

/** A ledger of exactly `rows` rows for the signed-in user. */
export async function seedLedger(client: ApiClient, rows: number): Promise<Ledger> {
  const plan = planForRows(rows);
  await addSchedules(client, plan);
  return fillLedger(client, plan, rows);
}

/**
 * The signed-in user's ledger of seedLedger's `rows` made again, every row pending as at first: a
 * benchmark that pays rows gets fresh ones to pay (its schedules, added by seedLedger, are kept).
 */
export function refillLedger(client: ApiClient, rows: number): Promise<Ledger> {
  return fillLedger(client, planForRows(rows), rows);
}

/** The plan's ledger made (replacing any), topped up to exactly `rows` rows on its last day. */
async function fillLedger(client: ApiClient, plan: LedgerPlan, rows: number): Promise<Ledger> {
  let ledger = ledgerOf(await client.json('POST', LEDGER_PATHS.create, createLedgerBody(plan)));
  const extra = (index: number) => ({ date: plan.endDate, name: `Extra ${index + 1}`, type: 'D', amount: 12.34 });
  if (rows > WHOLE_ANSWERS_UP_TO) {
    let count = ledger.transactions.length;
    for (let index = count; index < rows; index += 1) {
      const { changes } = ledgerChangesSchema.parse(
        await client.json('POST', `${LEDGER_PATHS.addTransaction}?answer=changes`, extra(index)),
      );
      count = changes.count;
    }
    if (count !== rows) throw new Error(`seeded ${count} rows, wanted ${rows}`);
    return ledgerOf(await client.json('GET', LEDGER_PATHS.retrieve));
  }
  for (let index = ledger.transactions.length; index < rows; index += 1) {
    ledger = ledgerOf(await client.json('POST', LEDGER_PATHS.addTransaction, extra(index)));
  }
  if (ledger.transactions.length !== rows) throw new Error(`seeded ${ledger.transactions.length} rows, wanted ${rows}`);
  return ledger;
}
