/**
 * Recurring transfers (issue 25 items 3 and 5, decision 0043), on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL: an expense with `toAccountId` projects each occurrence as a debit
 * in its account's ledger and a linked credit in the ledger it pays into; re-projection, delete,
 * undo and Extend keep the pairs whole; the expenses' total leaves it out; a user with one account
 * answers as before; and a property test that for any sequence of transfer writes (recurring and
 * one-off, their changes, pays, clears, edits and deletes of either side, Extend, Undo) every link
 * names a row that names it back, of the other type, date, amount and name. The app's clock is
 * 2026-11-21 (TEST_NOW). FUZZ_RUNS scales the property's runs (`npm run fuzz`).
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type AccountInfo, accountSchema, ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { UNDO_HEADER, withId } from '../../src/contract/common.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import type { Ledger, LedgerTransaction } from '../../src/contract/ledger.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { TRANSFERS_PATHS } from '../../src/contract/transfers.js';
import { addDays, isoDate } from '../../src/domain/calendar-date.js';
import { expectBadRequest, expectNotFound, inAccount, newSubject, undoToken } from '../support/api-expectations.js';
import { expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
const NOVEMBER = { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 500 } };
const UNDO = '/api/undo';
const NAME = 'To Savings';

interface TwoAccounts {
  readonly user: UserClient;
  readonly checking: AccountInfo;
  readonly savings: AccountInfo;
}

/** Checking (primary) and Savings, each with a ledger for November and December 2026 unless `savingsLedger` is false. */
async function twoAccountsOf(prefix: string, savingsLedger: boolean, kind: ReturnType<typeof databaseKinds>[number]): Promise<TwoAccounts> {
  const user = getApp(kind).as(newSubject(prefix));
  okJson(await user.post(LEDGER_PATHS.create, NOVEMBER));
  const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
  if (savingsLedger) okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), NOVEMBER));
  const [checking] = (okJson(await user.get(ACCOUNTS_PATHS.list)) as { accounts: AccountInfo[] }).accounts;
  if (!checking) throw new Error('no primary account');
  return { user, checking, savings };
}

const ledgerIn = async (user: UserClient, accountId: string): Promise<Ledger> =>
  ledgerOf(await user.get(inAccount(LEDGER_PATHS.retrieve, accountId)));

/** The expense's rows in a ledger, by date. */
const sides = (ledger: Ledger): LedgerTransaction[] => ledger.transactions.filter((row) => row.name === NAME);

/** Each debit in Checking names the credit of the same date in Savings, and back. */
function expectPaired(debits: readonly LedgerTransaction[], credits: readonly LedgerTransaction[], from: string, to: string): void {
  expect(debits.map((row) => row.date)).toEqual(credits.map((row) => row.date));
  debits.forEach((debit, index) => {
    const credit = credits[index] as LedgerTransaction;
    expect(debit).toMatchObject({ type: 'D', transfer: { id: credit.id, accountId: to } });
    expect(credit).toMatchObject({ type: 'C', amount: debit.amount, transfer: { id: debit.id, accountId: from } });
  });
}

/** Property runs per database: a few in CI, FUZZ_RUNS / 20 when set (`npm run fuzz`). */
const PAIRING_RUNS = process.env.FUZZ_RUNS === undefined ? 6 : Math.max(1, Math.round(Number(process.env.FUZZ_RUNS) / 20));
const PAIRING_STEPS = process.env.FUZZ_RUNS === undefined ? 10 : 24;
/** A run of up to 24 steps takes about a tenth of a second on PostgreSQL here; a second each leaves room on a slower machine. */
const PAIRING_TIMEOUT_MS = Math.max(30_000, PAIRING_RUNS * 1_000);
/** Checking's ledger runs November to February; Savings' starts to December, so Extend meets unlinked sides. */
const PAIRING_START = '2026-11-01';
const CHECKING_END = '2027-02-28';
const SAVINGS_END = '2026-12-31';
const PAIRING_DAYS = 120;

type Side = 'checking' | 'savings';
type PairingStep =
  | { readonly kind: 'recurring'; readonly from: Side; readonly day: number; readonly cents: number }
  | { readonly kind: 'change'; readonly pick: number; readonly day: number; readonly cents: number }
  | { readonly kind: 'bill'; readonly pick: number }
  | { readonly kind: 'deleteExpense'; readonly pick: number }
  | { readonly kind: 'oneOff'; readonly from: Side; readonly dayIndex: number; readonly cents: number }
  | { readonly kind: 'status'; readonly side: Side; readonly pick: number; readonly status: 'PAID' | 'CLEARED' }
  | {
      readonly kind: 'edit';
      readonly side: Side;
      readonly pick: number;
      readonly dayIndex: number | null;
      readonly cents: number | null;
      readonly rename: boolean;
    }
  | { readonly kind: 'deleteRow'; readonly side: Side; readonly pick: number }
  | { readonly kind: 'extend'; readonly side: Side }
  | { readonly kind: 'undo' };

const sideArbitrary = fc.constantFrom<Side>('checking', 'savings');
const centsArbitrary = fc.integer({ min: 1, max: 250_000 });
const pairingStep: fc.Arbitrary<PairingStep> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('recurring' as const),
      from: sideArbitrary,
      day: fc.integer({ min: 1, max: 31 }),
      cents: centsArbitrary,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('change' as const),
      pick: fc.nat(),
      day: fc.integer({ min: 1, max: 31 }),
      cents: centsArbitrary,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bill' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteExpense' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('oneOff' as const),
      from: sideArbitrary,
      dayIndex: fc.nat({ max: 60 }),
      cents: centsArbitrary,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('status' as const),
      side: sideArbitrary,
      pick: fc.nat(),
      status: fc.constantFrom<'PAID' | 'CLEARED'>('PAID', 'CLEARED'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      side: sideArbitrary,
      pick: fc.nat(),
      dayIndex: fc.option(fc.nat({ max: PAIRING_DAYS - 1 })),
      cents: fc.option(centsArbitrary),
      rename: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteRow' as const), side: sideArbitrary, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('extend' as const), side: sideArbitrary }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const) }) },
);

/** Every link names a row of the other account that names it back: the other type, the same date, amount and name. */
function expectLinksMutual(ledgers: Readonly<Record<string, Ledger>>): void {
  for (const [accountId, ledger] of Object.entries(ledgers)) {
    for (const row of ledger.transactions) {
      if (row.transfer === undefined) continue;
      const where = `${row.name} (${row.id}) on ${row.date} in ${accountId}`;
      expect(row.transfer.accountId, where).not.toBe(accountId);
      const other = ledgers[row.transfer.accountId]?.transactions.find((candidate) => candidate.id === row.transfer?.id);
      expect(other, `the other side of ${where}`).toBeDefined();
      expect(other?.transfer, `the other side of ${where}`).toEqual({ id: row.id, accountId });
      expect({ type: other?.type, date: other?.date, amount: other?.amount, name: other?.name }, `the other side of ${where}`).toEqual({
        type: row.type === 'D' ? 'C' : 'D',
        date: row.date,
        amount: row.amount,
        name: row.name,
      });
    }
  }
}

const monthly = (extra: object = {}) => ({ ...expenseInput({ name: NAME, amount: 100, day: 25 }), ...extra });

describe.each(databaseKinds())('recurring transfers on %s', (kind) => {
  const setUp = (prefix: string, savingsLedger = true) => twoAccountsOf(prefix, savingsLedger, kind);

  it('projects each occurrence into both ledgers, linked, and leaves it out of the total', async () => {
    const { user, checking, savings } = await setUp('recurring');
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1200, day: 1 })));
    const answer = expensesInfoSchema.parse(okJson(await user.post(EXPENSES_PATHS.add, monthly({ toAccountId: savings.id }))));
    const added = answer.expenses.find((expense) => expense.name === NAME);
    expect(added).toMatchObject({ accountId: checking.id, toAccountId: savings.id });
    expect(answer.expenses.find((expense) => expense.name === 'Rent')).not.toHaveProperty('toAccountId');
    // Money moved between the user's own accounts is neither income nor expense.
    expect(answer.totalExpenses).toBe(1200);

    const debits = sides(await ledgerIn(user, checking.id));
    const credits = sides(await ledgerIn(user, savings.id));
    expect(debits.map((row) => [row.date, row.amount])).toEqual([
      ['2026-11-25', 100],
      ['2026-12-25', 100],
    ]);
    expectPaired(debits, credits, checking.id, savings.id);
    expect((await ledgerIn(user, savings.id)).currentBalance).toBe(500);
  });

  it('re-projects both sides on an amount and day change; a paid side keeps its pair whole', async () => {
    const { user, checking, savings } = await setUp('reproject');
    const { expenses } = expensesInfoSchema.parse(okJson(await user.post(EXPENSES_PATHS.add, monthly({ toAccountId: savings.id }))));
    const expense = expenses[0];
    if (!expense) throw new Error('no expense');
    const [november] = sides(await ledgerIn(user, checking.id));
    if (!november) throw new Error('no November debit');
    okJson(await user.patch(inAccount(LEDGER_PATHS.updateTransaction, checking.id), { ...november, status: 'PAID' }));

    okJson(await user.put(withId(EXPENSES_PATHS.one, expense.id), monthly({ amount: 150, day: 26, toAccountId: savings.id })));
    const debits = sides(await ledgerIn(user, checking.id));
    const credits = sides(await ledgerIn(user, savings.id));
    expect(debits.map((row) => [row.date, row.amount, row.status])).toEqual([
      ['2026-11-25', 100, 'PAID'],
      ['2026-12-26', 150, 'PENDING'],
    ]);
    expect(credits.map((row) => [row.date, row.amount, row.status])).toEqual([
      ['2026-11-25', 100, 'PENDING'],
      ['2026-12-26', 150, 'PENDING'],
    ]);
    expectPaired(debits, credits, checking.id, savings.id);

    // Leaving toAccountId out keeps it; null makes it an ordinary bill again, its pending credits gone.
    const kept = expensesInfoSchema.parse(
      okJson(await user.put(withId(EXPENSES_PATHS.one, expense.id), monthly({ amount: 150, day: 26 }))),
    );
    expect(kept.expenses[0]?.toAccountId).toBe(savings.id);
    okJson(await user.put(withId(EXPENSES_PATHS.one, expense.id), monthly({ amount: 150, day: 26, toAccountId: null })));
    const afterDebits = sides(await ledgerIn(user, checking.id));
    expect(afterDebits.map((row) => [row.date, row.transfer ?? null])).toEqual([
      ['2026-11-25', { id: credits[0]?.id, accountId: savings.id }],
      ['2026-12-26', null],
    ]);
    expect(sides(await ledgerIn(user, savings.id)).map((row) => row.date)).toEqual(['2026-11-25']);
  });

  it('deletes the future pending rows on both sides, and undo puts both ledgers back', async () => {
    const { user, checking, savings } = await setUp('delete');
    const { expenses } = expensesInfoSchema.parse(okJson(await user.post(EXPENSES_PATHS.add, monthly({ toAccountId: savings.id }))));
    const before = [
      (await user.get(inAccount(LEDGER_PATHS.retrieve, checking.id))).body,
      (await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id))).body,
    ];
    const removed = await user.delete(withId(EXPENSES_PATHS.one, expenses[0]?.id ?? ''));
    expect(expensesInfoSchema.parse(okJson(removed)).expenses).toEqual([]);
    expect(sides(await ledgerIn(user, checking.id))).toEqual([]);
    expect(sides(await ledgerIn(user, savings.id))).toEqual([]);

    okJson(await user.post(UNDO, { token: undoToken(removed) }));
    const after = [
      (await user.get(inAccount(LEDGER_PATHS.retrieve, checking.id))).body,
      (await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id))).body,
    ];
    const strip = (body: string) => JSON.stringify({ ...(JSON.parse(body) as { ledger: object }).ledger, version: 0 });
    expect(after.map(strip)).toEqual(before.map(strip));
  });

  it('undoes the add and a change: both ledgers and the expense back as they were', async () => {
    const { user, checking, savings } = await setUp('undo');
    const read = async () => [sides(await ledgerIn(user, checking.id)), sides(await ledgerIn(user, savings.id))];
    const added = await user.post(EXPENSES_PATHS.add, monthly({ toAccountId: savings.id }));
    const { expenses } = expensesInfoSchema.parse(okJson(added));
    const asAdded = await read();
    const changed = await user.put(withId(EXPENSES_PATHS.one, expenses[0]?.id ?? ''), monthly({ amount: 175, toAccountId: savings.id }));
    okJson(changed);
    expect((await read())[1]?.map((row) => row.amount)).toEqual([175, 175]);
    okJson(await user.post(UNDO, { token: undoToken(changed) }));
    expect(await read()).toEqual(asAdded);
    okJson(await user.post(UNDO, { token: undoToken(added) }));
    expect(await read()).toEqual([[], []]);
    expect(expensesInfoSchema.parse(okJson(await user.get(EXPENSES_PATHS.retrieve))).expenses).toEqual([]);
  });

  it('Extend of either ledger projects its sides, linked to the other side when that ledger covers the date', async () => {
    const { user, checking, savings } = await setUp('extend');
    okJson(await user.post(EXPENSES_PATHS.add, monthly({ toAccountId: savings.id })));
    // Checking first: its January debit has no credit until Savings reaches January.
    const extended = await user.post(inAccount(LEDGER_PATHS.extend, checking.id), { endDate: '2027-01-31' });
    const january = sides(ledgerOf(extended)).find((row) => row.date === '2027-01-25');
    expect(january).toMatchObject({ type: 'D', amount: 100 });
    expect(january).not.toHaveProperty('transfer');
    const savingsExtended = await user.post(inAccount(LEDGER_PATHS.extend, savings.id), { endDate: '2027-01-31' });
    expectPaired(sides(await ledgerIn(user, checking.id)), sides(ledgerOf(savingsExtended)), checking.id, savings.id);

    // Undoing Savings's Extend takes its January credit back and leaves Checking's debit unlinked again.
    okJson(await user.post(UNDO, { token: undoToken(savingsExtended) }));
    expect(sides(await ledgerIn(user, savings.id)).map((row) => row.date)).toEqual(['2026-11-25', '2026-12-25']);
    const debits = sides(await ledgerIn(user, checking.id));
    expect(debits.find((row) => row.date === '2027-01-25')).not.toHaveProperty('transfer');
    expectPaired(debits.slice(0, 2), sides(await ledgerIn(user, savings.id)), checking.id, savings.id);
  });

  it('pairs the credits when the To account gets its ledger later', async () => {
    const { user, checking, savings } = await setUp('later', false);
    okJson(await user.post(EXPENSES_PATHS.add, monthly({ toAccountId: savings.id })));
    expect(sides(await ledgerIn(user, checking.id)).every((row) => row.transfer === undefined)).toBe(true);
    okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), NOVEMBER));
    // A new ledger projects every occurrence from its start; only the ones Checking projected (from today) pair.
    const credits = sides(await ledgerIn(user, savings.id));
    expectPaired(sides(await ledgerIn(user, checking.id)), credits.slice(-2), checking.id, savings.id);
  });

  it('refuses a To that is the expense’s own account (400) or not the caller’s (404), changing nothing', async () => {
    const { user, checking, savings } = await setUp('validate');
    expectBadRequest(
      await user.post(EXPENSES_PATHS.add, monthly({ toAccountId: checking.id })),
      {
        toAccountId: 'To must be another account than the one the expense is paid from.',
      },
      'A transfer moves money between two accounts.',
    );
    expectBadRequest(
      await user.post(EXPENSES_PATHS.add, monthly({ accountId: savings.id, toAccountId: savings.id })),
      {
        toAccountId: 'To must be another account than the one the expense is paid from.',
      },
      'A transfer moves money between two accounts.',
    );
    const stranger = await setUp('stranger');
    expectNotFound(await user.post(EXPENSES_PATHS.add, monthly({ toAccountId: stranger.savings.id })), 'No such account.');
    expectBadRequest(await user.post(EXPENSES_PATHS.add, monthly({ toAccountId: 'not an id!' })), {
      toAccountId: 'To must be the id of one of your accounts, or empty.',
    });
    expect(expensesInfoSchema.parse(okJson(await user.get(EXPENSES_PATHS.retrieve))).expenses).toEqual([]);
    expect(sides(await ledgerIn(user, checking.id))).toEqual([]);
  });

  it('leaves a one-account user’s answers as they were', async () => {
    const user = getApp(kind).as(newSubject('one'));
    okJson(await user.post(LEDGER_PATHS.create, NOVEMBER));
    const answer = okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1200, day: 25 })));
    expect(answer).toEqual({
      expenses: [{ id: expect.any(String) as string, ...expenseInput({ name: 'Rent', amount: 1200, day: 25 }) }],
      totalExpenses: 1200,
    });
    const rows = (await ledgerIn(user, (okJson(await user.get(ACCOUNTS_PATHS.list)) as { accounts: AccountInfo[] }).accounts[0]?.id ?? ''))
      .transactions;
    expect(rows.every((row) => !('transfer' in row))).toBe(true);
  });
  it(
    'keeps every link mutual through any sequence of transfer writes (property)',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(pairingStep, { minLength: 1, maxLength: PAIRING_STEPS }), async (steps) => {
          const user = getApp(kind).as(newSubject('pairing'));
          okJson(
            await user.post(LEDGER_PATHS.create, { ledger: { startDate: PAIRING_START, endDate: CHECKING_END, currentBalance: 500 } }),
          );
          const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
          okJson(
            await user.post(inAccount(LEDGER_PATHS.create, savings.id), {
              ledger: { startDate: PAIRING_START, endDate: SAVINGS_END, currentBalance: 0 },
            }),
          );
          const [checking] = (okJson(await user.get(ACCOUNTS_PATHS.list)) as { accounts: AccountInfo[] }).accounts;
          if (!checking) throw new Error('no primary account');
          const idOf = (side: Side) => (side === 'checking' ? checking.id : savings.id);
          const other = (side: Side): Side => (side === 'checking' ? 'savings' : 'checking');
          const readBoth = async () => ({
            [checking.id]: await ledgerIn(user, checking.id),
            [savings.id]: await ledgerIn(user, savings.id),
          });
          const undoTokens: string[] = [];
          let named = 0;

          // Each step chooses its rows from the ledgers as the previous step's check read them.
          let ledgers = await readBoth();
          for (const step of steps) {
            const expenses = expensesInfoSchema.parse(okJson(await user.get(EXPENSES_PATHS.retrieve))).expenses;
            const transfers = expenses.filter((expense) => expense.toAccountId !== undefined);
            const chosenExpense = (pick: number) => transfers[pick % Math.max(1, transfers.length)];
            const sidesIn = (side: Side) => ledgers[idOf(side)]?.transactions.filter((row) => row.transfer !== undefined) ?? [];
            const chosenRow = (side: Side, pick: number) => {
              const rows = sidesIn(side);
              return rows[pick % Math.max(1, rows.length)];
            };
            let answer: LightMyRequestResponse | null = null;
            switch (step.kind) {
              case 'recurring':
                named += 1;
                answer = await user.post(EXPENSES_PATHS.add, {
                  ...expenseInput({ name: `Move ${named}`, amount: step.cents / 100, day: step.day }),
                  accountId: idOf(step.from),
                  toAccountId: idOf(other(step.from)),
                });
                break;
              case 'change': {
                const expense = chosenExpense(step.pick);
                if (expense)
                  answer = await user.put(withId(EXPENSES_PATHS.one, expense.id), {
                    ...expenseInput({ name: expense.name, amount: step.cents / 100, day: step.day }),
                    accountId: expense.accountId,
                    toAccountId: expense.toAccountId,
                  });
                break;
              }
              case 'bill': {
                const expense = chosenExpense(step.pick);
                if (expense)
                  answer = await user.put(withId(EXPENSES_PATHS.one, expense.id), {
                    ...expenseInput({ name: expense.name, amount: expense.amount, day: expense.day }),
                    toAccountId: null,
                  });
                break;
              }
              case 'deleteExpense': {
                const expense = chosenExpense(step.pick);
                if (expense) answer = await user.delete(withId(EXPENSES_PATHS.one, expense.id));
                break;
              }
              case 'oneOff':
                answer = await user.post(TRANSFERS_PATHS.add, {
                  fromAccountId: idOf(step.from),
                  toAccountId: idOf(other(step.from)),
                  date: addDays(isoDate(PAIRING_START), step.dayIndex),
                  amount: step.cents / 100,
                });
                break;
              case 'status': {
                const row = chosenRow(step.side, step.pick);
                if (row)
                  answer = await user.patch(inAccount(LEDGER_PATHS.updateTransaction, idOf(step.side)), { ...row, status: step.status });
                break;
              }
              case 'edit': {
                const row = chosenRow(step.side, step.pick);
                if (row)
                  answer = await user.patch(inAccount(LEDGER_PATHS.updateTransaction, idOf(step.side)), {
                    ...row,
                    ...(step.dayIndex !== null && { date: addDays(isoDate(PAIRING_START), step.dayIndex) }),
                    ...(step.cents !== null && { amount: step.cents / 100 }),
                    ...(step.rename && { name: `${row.name} renamed` }),
                  });
                break;
              }
              case 'deleteRow': {
                const row = chosenRow(step.side, step.pick);
                if (row) answer = await user.delete(inAccount(LEDGER_PATHS.transaction, idOf(step.side)).replace(':id', row.id));
                break;
              }
              case 'extend': {
                const ledger = ledgers[idOf(step.side)];
                if (ledger && ledger.endDate < '2027-03-31')
                  answer = await user.post(inAccount(LEDGER_PATHS.extend, idOf(step.side)), {
                    endDate: addDays(isoDate(ledger.endDate), 31),
                  });
                break;
              }
              case 'undo': {
                const token = undoTokens.pop();
                if (token !== undefined) answer = await user.post(UNDO, { token });
                break;
              }
            }
            if (answer !== null) {
              // A write may be refused (a side whose other side is cleared, a date outside the other ledger, an undo
              // overtaken by a later change), never fail.
              expect([200, 400, 404, 409], `${JSON.stringify(step)}: ${answer.body.slice(0, 300)}`).toContain(answer.statusCode);
              const token = answer.headers[UNDO_HEADER];
              if (answer.statusCode === 200 && typeof token === 'string') undoTokens.push(token);
            }
            ledgers = await readBoth();
            expectLinksMutual(ledgers);
          }
        }),
        { numRuns: PAIRING_RUNS },
      );
    },
    PAIRING_TIMEOUT_MS,
  );
});
