/**
 * Recurring transfers (issue 25 items 3 and 5, decision 0043), on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL: an expense with `toAccountId` projects each occurrence as a debit
 * in its account's ledger and a linked credit in the ledger it pays into; re-projection, delete,
 * undo and Extend keep the pairs whole; the expenses' total leaves it out; a user with one account
 * answers as before. The app's clock is 2026-11-21 (TEST_NOW).
 */
import { describe, expect, it } from 'vitest';
import { type AccountInfo, accountSchema, ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { withId } from '../../src/contract/common.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import type { Ledger, LedgerTransaction } from '../../src/contract/ledger.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
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
});
