/**
 * Credit-card payments and the forecast across accounts (issue 25 items 4 and 5, decision 0045),
 * on SQLite and (with TEST_POSTGRES_URL) PostgreSQL. A card's statement closing on the 15th is due
 * on the 8th of the next month: Leftover projects each payment as a transfer pair from the card's
 * Pay From account to the card, re-projected when the card's rows or settings change, keeping the
 * payments that are paid, cleared or edited. The app's clock is Saturday 2026-11-21 (TEST_NOW).
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { yourDataExportSchema, YOUR_DATA_PATHS } from '../../src/contract/your-data.js';
import {
  accountForecastSchema,
  type AccountInfo,
  ACCOUNT_LEDGER_PATHS,
  accountSchema,
  ACCOUNTS_PATHS,
  accountsInfoSchema,
} from '../../src/contract/accounts.js';
import { withId } from '../../src/contract/common.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { type Ledger, LEDGER_PATHS, type LedgerTransaction } from '../../src/contract/ledger.js';
import { ledgerChangesSchema } from '../../src/contract/ledger-changes.js';
import { STATEMENT_PATHS } from '../../src/contract/statements.js';
import { TRANSFERS_PATHS } from '../../src/contract/transfers.js';
import { expectBadRequest, expectNotFound, inAccount, newSubject, undoToken } from '../support/api-expectations.js';
import { expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
const SPAN = { startDate: '2026-11-01', endDate: '2027-03-31' };
const UNDO = '/api/undo';
const PAYMENT = 'Visa payment';
const PAY_FROM = 'Pay From must be the id of one of your accounts that is not a card.';

interface CardUser {
  readonly user: UserClient;
  readonly checking: AccountInfo;
  readonly visa: AccountInfo;
}

interface CardOptions {
  readonly rule?: 'STATEMENT' | 'MINIMUM' | 'FIXED';
  readonly amount?: number | null;
  readonly creditLimit?: number | null;
  /** Checking's opening balance. */
  readonly checkingBalance?: number;
  /** The card's opening balance (negative while owed). */
  readonly cardBalance?: number;
}

const cardSettings = (payFromAccountId: string, options: CardOptions = {}) => ({
  closingDay: 15,
  dueDay: 8,
  payFromAccountId,
  rule: options.rule ?? 'STATEMENT',
  amount: options.amount ?? null,
  creditLimit: options.creditLimit === undefined ? 1000 : options.creditLimit,
});

/**
 * Checking (primary) and a Visa card that Checking pays, closing on the 15th and due on the 8th,
 * each with a ledger from 2026-11-01 to 2027-03-31.
 */
async function cardUser(user: UserClient, options: CardOptions = {}): Promise<CardUser> {
  okJson(await user.post(LEDGER_PATHS.create, { ledger: { ...SPAN, currentBalance: options.checkingBalance ?? 1000 } }));
  const [checking] = accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list))).accounts;
  if (!checking) throw new Error('no primary account');
  const visa = accountSchema.parse(
    okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Visa', kind: 'CARD', card: cardSettings(checking.id, options) })),
  );
  okJson(await user.post(inAccount(LEDGER_PATHS.create, visa.id), { ledger: { ...SPAN, currentBalance: options.cardBalance ?? 0 } }));
  return { user, checking, visa };
}

const ledgerIn = async (user: UserClient, accountId: string): Promise<Ledger> =>
  ledgerOf(await user.get(inAccount(LEDGER_PATHS.retrieve, accountId)));

const payments = (ledger: Ledger): LedgerTransaction[] => ledger.transactions.filter((row) => row.name === PAYMENT);

/** The payments in both ledgers: [date, amount] per payment, checked to be linked pairs of the card's statements. */
async function paymentsOf({ user, checking, visa }: CardUser): Promise<[string, number][]> {
  const debits = payments(await ledgerIn(user, checking.id));
  const credits = payments(await ledgerIn(user, visa.id));
  expect(debits.map((row) => [row.date, row.amount])).toEqual(credits.map((row) => [row.date, row.amount]));
  debits.forEach((debit, index) => {
    const credit = credits[index] as LedgerTransaction;
    expect(debit).toMatchObject({ type: 'D', transfer: { id: credit.id, accountId: visa.id }, source: { kind: 'card', id: visa.id } });
    expect(credit).toMatchObject({ type: 'C', transfer: { id: debit.id, accountId: checking.id }, source: debit.source });
  });
  return debits.map((row) => [row.date, row.amount]);
}

/** Adds a row to an account's ledger and answers the write. */
const charge = (user: UserClient, accountId: string, date: string, amount: number, name = 'Groceries', type: 'D' | 'C' = 'D') =>
  user.post(inAccount(LEDGER_PATHS.addTransaction, accountId), { date, name, type, amount });

/** The path of a row of an account's ledger, to delete it. */
const rowPath = (accountId: string, rowId: string) =>
  ACCOUNT_LEDGER_PATHS.deleteTransaction.replace(':id', encodeURIComponent(accountId)).replace(':transaction', encodeURIComponent(rowId));

const forecastOf = async (user: UserClient, accountId: string) =>
  accountForecastSchema.parse(okJson(await user.get(inAccount(LEDGER_PATHS.forecast, accountId))));

function expectConflict(response: LightMyRequestResponse, message: RegExp): void {
  expect(response.statusCode, response.body).toBe(409);
  expect(strictErrorBodySchema.parse(response.json()).error.message).toMatch(message);
}

describe.each(databaseKinds())('card payments on %s', (kind) => {
  const setUp = (prefix: string, options: CardOptions = {}) => cardUser(getApp(kind).as(newSubject(prefix)), options);

  it('projects each statement balance as a linked pair on the due day: a debit in Pay From, a credit in the card', async () => {
    const card = await setUp('card-payment');
    const { user, checking, visa } = card;
    // Nothing owed on November 15th: no payment.
    expect(await paymentsOf(card)).toEqual([]);

    okJson(await charge(user, visa.id, '2026-11-10', 200));
    expect(await paymentsOf(card)).toEqual([['2026-12-08', 200]]);
    okJson(await charge(user, visa.id, '2026-11-25', 300));
    okJson(await charge(user, visa.id, '2026-12-15', 50));
    okJson(await charge(user, visa.id, '2026-12-16', 7.5));
    // December's statement: $200 + $300 + $50 charged, $200 paid on the 8th. January's: the $7.50 after it.
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-01-08', 350],
      ['2027-02-08', 7.5],
    ]);

    const debit = payments(await ledgerIn(user, checking.id))[1] as LedgerTransaction;
    const credit = payments(await ledgerIn(user, visa.id))[1] as LedgerTransaction;
    expect(debit).toEqual({
      id: debit.id,
      date: '2027-01-08',
      name: PAYMENT,
      type: 'D',
      amount: 350,
      balance: 1000 - 200 - 350,
      status: 'PENDING',
      source: { kind: 'card', id: visa.id, occurrence: '2026-12-15', edited: false },
      transfer: { id: credit.id, accountId: visa.id },
    });
    expect(credit).toMatchObject({ type: 'C', amount: 350, balance: -7.5, transfer: { id: debit.id, accountId: checking.id } });

    // Neither income nor expense: the expenses' total holds only the bill charged to the card.
    okJson(await user.post(EXPENSES_PATHS.add, { ...expenseInput({ name: 'Streaming', amount: 15, day: 1 }), accountId: visa.id }));
    const expenses = expensesInfoSchema.parse(okJson(await user.get(EXPENSES_PATHS.retrieve)));
    expect(expenses.totalExpenses).toBe(15);
    // The bill lands in the card's ledger on the 1st of each month from today: each statement owes it.
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-01-08', 365],
      ['2027-02-08', 22.5],
      ['2027-03-08', 15],
    ]);

    // A recurring transfer paying $10 into the card on the 2nd, from December on, is owed no more; nor is it an expense.
    okJson(await user.post(EXPENSES_PATHS.add, { ...expenseInput({ name: 'Card top-up', amount: 10, day: 2 }), toAccountId: visa.id }));
    expect(expensesInfoSchema.parse(okJson(await user.get(EXPENSES_PATHS.retrieve))).totalExpenses).toBe(15);
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-01-08', 355],
      ['2027-02-08', 12.5],
      ['2027-03-08', 5],
    ]);
  });

  it('re-projects the open payments when a charge is added, edited or deleted, and answers them in ?answer=changes', async () => {
    const card = await setUp('card-reproject');
    const { user, checking, visa } = card;
    okJson(await charge(user, visa.id, '2026-11-10', 200));
    const first = payments(await ledgerIn(user, visa.id))[0] as LedgerTransaction;

    // A charge on December's statement: January's payment appears, in the changes answer too.
    const added = ledgerChangesSchema.parse(
      okJson(
        await user.post(`${inAccount(LEDGER_PATHS.addTransaction, visa.id)}?answer=changes`, {
          date: '2026-12-01',
          name: 'Shoes',
          type: 'D',
          amount: 80,
        }),
      ),
    ).changes;
    const january = payments(await ledgerIn(user, visa.id))[1] as LedgerTransaction;
    expect(added.rows.map((row) => [row.name, row.date, row.amount])).toEqual([
      ['Shoes', '2026-12-01', 80],
      [PAYMENT, '2027-01-08', 80],
    ]);
    expect(added.rows[1]).toMatchObject({ id: january.id, balance: january.balance });
    expect(added.removed).toEqual([]);
    // December's payment did not change: the same row, id and all.
    expect(payments(await ledgerIn(user, visa.id))[0]).toMatchObject({ id: first.id, date: first.date, amount: first.amount });

    // Editing November's charge moves December's payment: the old pair goes, a new one comes.
    const groceries = (await ledgerIn(user, visa.id)).transactions.find((row) => row.name === 'Groceries') as LedgerTransaction;
    const edited = ledgerChangesSchema.parse(
      okJson(await user.patch(`${inAccount(LEDGER_PATHS.updateTransaction, visa.id)}?answer=changes`, { ...groceries, amount: 250 })),
    ).changes;
    expect(edited.removed).toEqual([first.id]);
    expect(edited.rows.map((row) => [row.name, row.amount])).toEqual([
      ['Groceries', 250],
      [PAYMENT, 250],
    ]);
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 250],
      ['2027-01-08', 80],
    ]);

    // Deleting it: December owes nothing, so its payment goes from both ledgers.
    const deleted = ledgerChangesSchema.parse(okJson(await user.delete(`${rowPath(visa.id, groceries.id)}?answer=changes`))).changes;
    expect(deleted.removed).toHaveLength(2);
    expect(await paymentsOf(card)).toEqual([['2027-01-08', 80]]);
    // Checking's own ledger moved on too.
    expect(byDate(await ledgerIn(user, checking.id), '2026-12-08')).toEqual([]);

    // A credit on the card (a refund) counts against the statement; a card in credit owes nothing.
    okJson(await charge(user, visa.id, '2026-12-10', 100, 'Refund', 'C'));
    expect(await paymentsOf(card)).toEqual([]);
  });

  it('keeps payments that are paid, cleared or edited, and the next statements count them', async () => {
    const card = await setUp('card-kept');
    const { user, checking, visa } = card;
    okJson(await charge(user, visa.id, '2026-11-10', 200));
    okJson(await charge(user, visa.id, '2026-12-01', 100));
    const [december, january] = payments(await ledgerIn(user, checking.id)) as [LedgerTransaction, LedgerTransaction];
    // Paid from Checking: it stands whatever the card does now.
    okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...december, status: 'PAID' }));
    okJson(await charge(user, visa.id, '2026-11-12', 40));
    // December's paid payment stays at $200; the $40 it missed is owed on January's statement.
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-01-08', 140],
    ]);
    expect(payments(await ledgerIn(user, checking.id))[0]).toMatchObject({ id: december.id, status: 'PAID' });

    // Edited by hand (both sides), January's payment stands too: February's owes what it left.
    const januaryNow = payments(await ledgerIn(user, checking.id))[1] as LedgerTransaction;
    expect(januaryNow.id).not.toBe(january.id);
    okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...januaryNow, amount: 100 }));
    okJson(await charge(user, visa.id, '2026-12-02', 10));
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-01-08', 100],
      ['2027-02-08', 50],
    ]);
    const credits = payments(await ledgerIn(user, visa.id));
    expect(credits[1]?.source).toMatchObject({ edited: true });

    // Cleared on the card's side: kept as well.
    const february = credits[2] as LedgerTransaction;
    okJson(await user.patch(inAccount(LEDGER_PATHS.updateTransaction, visa.id), { ...february, status: 'CLEARED' }));
    okJson(await charge(user, visa.id, '2027-01-02', 5));
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-01-08', 100],
      ['2027-02-08', 50],
      ['2027-03-08', 5],
    ]);

    // A kept side cannot be edited or deleted alone: the other side is PAID.
    const paidCredit = credits[0] as LedgerTransaction;
    expectConflict(
      await user.patch(inAccount(LEDGER_PATHS.updateTransaction, visa.id), { ...paidCredit, amount: 1 }),
      /other side of this transfer, in Checking, is PAID/,
    );
    // Deleting an open payment skips its statement for good: the next one owes what it would have paid.
    const march = payments(await ledgerIn(user, checking.id))[3] as LedgerTransaction;
    okJson(await user.delete(withId(LEDGER_PATHS.transaction, march.id)));
    okJson(await charge(user, visa.id, '2027-01-03', 1));
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-01-08', 100],
      ['2027-02-08', 50],
    ]);
  });

  it('pays at most the rule’s amount under MINIMUM and FIXED, and nothing when nothing is owed', async () => {
    const minimum = await setUp('card-minimum', { rule: 'MINIMUM', amount: 35 });
    okJson(await charge(minimum.user, minimum.visa.id, '2026-11-10', 100));
    expect(await paymentsOf(minimum)).toEqual([
      ['2026-12-08', 35],
      ['2027-01-08', 35],
      ['2027-02-08', 30],
    ]);

    const fixed = await setUp('card-fixed', { rule: 'FIXED', amount: 500 });
    okJson(await charge(fixed.user, fixed.visa.id, '2026-11-10', 120.25));
    expect(await paymentsOf(fixed)).toEqual([['2026-12-08', 120.25]]);

    // A card that opens owing pays what it owes; one in credit, or at $0, projects nothing.
    const owing = await setUp('card-owing', { cardBalance: -75 });
    expect(await paymentsOf(owing)).toEqual([['2026-12-08', 75]]);
    const inCredit = await setUp('card-credit', { cardBalance: 20 });
    okJson(await charge(inCredit.user, inCredit.visa.id, '2026-11-10', 20));
    expect(await paymentsOf(inCredit)).toEqual([]);
  });

  it('re-projects when the card’s settings change (PATCH), and refuses settings that do not fit', async () => {
    const test = getApp(kind);
    const card = await setUp('card-settings');
    const { user, checking, visa } = card;
    okJson(await charge(user, visa.id, '2026-11-10', 200));
    okJson(await charge(user, visa.id, '2026-11-20', 30));
    const patch = (body: object) => user.patch(withId(ACCOUNTS_PATHS.one, visa.id), body);

    // Closing on the 12th: the $30 of the 20th moves to December's statement; due on the 1st of the month after.
    const changed = accountSchema.parse(okJson(await patch({ card: { ...cardSettings(checking.id), closingDay: 12, dueDay: 1 } })));
    expect(changed.card).toMatchObject({ closingDay: 12, dueDay: 1 });
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-01', 200],
      ['2027-01-01', 30],
    ]);

    // Renamed, its payments carry the new name.
    okJson(await patch({ name: 'Amex' }));
    const renamed = (await ledgerIn(user, checking.id)).transactions.filter((row) => row.name === 'Amex payment');
    expect(renamed.map((row) => row.amount)).toEqual([200, 30]);
    okJson(await patch({ name: 'Visa' }));

    // Paid from Savings now: the open payments leave Checking for Savings.
    const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
    okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), { ledger: { ...SPAN, currentBalance: 100 } }));
    okJson(await patch({ card: { ...cardSettings(savings.id), closingDay: 12, dueDay: 1, rule: 'MINIMUM', amount: 25 } }));
    expect(payments(await ledgerIn(user, checking.id))).toEqual([]);
    const fromSavings = payments(await ledgerIn(user, savings.id));
    expect(fromSavings.map((row) => [row.date, row.amount, row.transfer?.accountId])).toEqual([
      ['2026-12-01', 25, visa.id],
      ['2027-01-01', 25, visa.id],
      ['2027-02-01', 25, visa.id],
      ['2027-03-01', 25, visa.id],
    ]);

    // Refused: settings on a card-less account, a Pay From that is a card or another user's, a rule without its amount.
    const before = await test.snapshot();
    expectBadRequest(
      await user.patch(withId(ACCOUNTS_PATHS.one, checking.id), { card: cardSettings(savings.id) }),
      { card: 'Only a credit card has card settings.' },
      'Only a credit card has card settings.',
    );
    expectBadRequest(await patch({ card: cardSettings(visa.id) }), { 'card.payFromAccountId': PAY_FROM }, PAY_FROM);
    expectBadRequest(await patch({ card: { ...cardSettings(checking.id), rule: 'FIXED' } }), {
      'card.amount': 'Amount is required for the MINIMUM and FIXED rules.',
    });
    expectBadRequest(await patch({ card: { ...cardSettings(checking.id), dueDay: 32 } }), {
      'card.dueDay': 'Due Day must be a whole number from 1 to 31.',
    });
    const other = await setUp('card-settings-other');
    expectBadRequest(await patch({ card: cardSettings(other.checking.id) }), { 'card.payFromAccountId': PAY_FROM }, PAY_FROM);
    const otherBefore = await test.snapshot();
    expectNotFound(
      await other.user.patch(withId(ACCOUNTS_PATHS.one, visa.id), { card: cardSettings(other.checking.id) }),
      'No such account.',
    );
    expectNotFound(await other.user.get(inAccount(LEDGER_PATHS.forecast, visa.id)), 'No such account.');
    expectNotFound(await charge(other.user, visa.id, '2026-11-10', 5), 'No such account.');
    expect(await test.snapshot()).toBe(otherBefore);
    expect(otherBefore).not.toBe(before);
  });

  it('takes a charge back with its payments on undo, exactly as they were', async () => {
    const card = await setUp('card-undo');
    const { user, checking, visa } = card;
    okJson(await charge(user, visa.id, '2026-11-10', 200));
    const before = [await ledgerIn(user, checking.id), await ledgerIn(user, visa.id)];
    const added = await charge(user, visa.id, '2026-11-11', 60);
    expect(await paymentsOf(card)).toEqual([['2026-12-08', 260]]);
    okJson(await user.post(UNDO, { token: undoToken(added) }));
    expect([await ledgerIn(user, checking.id), await ledgerIn(user, visa.id)]).toEqual(before);

    // A schedule charged to the card and a transfer into it are undone with their payments too.
    const bill = await user.post(EXPENSES_PATHS.add, { ...expenseInput({ name: 'Gym', amount: 20, day: 1 }), accountId: visa.id });
    okJson(bill);
    // From today, on the 1st: December's statement on.
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-01-08', 20],
      ['2027-02-08', 20],
      ['2027-03-08', 20],
    ]);
    okJson(await user.post(UNDO, { token: undoToken(bill) }));
    expect([await ledgerIn(user, checking.id), await ledgerIn(user, visa.id)]).toEqual(before);
    const paidEarly = await user.post(TRANSFERS_PATHS.add, {
      fromAccountId: checking.id,
      toAccountId: visa.id,
      date: '2026-11-12',
      amount: 50,
    });
    okJson(paidEarly);
    expect(await paymentsOf(card)).toEqual([['2026-12-08', 150]]);
    // Editing the transfer from Checking's side changes the card's side, and so the payment.
    const early = (await ledgerIn(user, checking.id)).transactions.find((row) => row.name === 'Transfer to Visa') as LedgerTransaction;
    const edited = await user.patch(LEDGER_PATHS.updateTransaction, { ...early, amount: 80 });
    okJson(edited);
    expect(await paymentsOf(card)).toEqual([['2026-12-08', 120]]);
    okJson(await user.post(UNDO, { token: undoToken(edited) }));
    expect(await paymentsOf(card)).toEqual([['2026-12-08', 150]]);
    okJson(await user.post(UNDO, { token: undoToken(paidEarly) }));
    expect([await ledgerIn(user, checking.id), await ledgerIn(user, visa.id)]).toEqual(before);
  });

  it('follows a statement imported into the card', async () => {
    const card = await setUp('card-import');
    const { user, visa } = card;
    const content = 'Date,Description,Amount\n11/09/2026,AMAZON MKTPL,-42.10\n11/13/2026,COFFEE SHOP,-7.90\n';
    const imported = await user.post(inAccount(STATEMENT_PATHS.import, visa.id), { fileName: 'visa.csv', content });
    const ledger = ledgerOf(imported);
    // The import answers the card's ledger with its payment, as stored.
    expect(payments(ledger).map((row) => [row.date, row.amount])).toEqual([['2026-12-08', 50]]);
    expect(ledger).toEqual(await ledgerIn(user, visa.id));
    expect(await paymentsOf(card)).toEqual([['2026-12-08', 50]]);
  });

  it('moves with the ledgers: New Ledger, Extend, and deleting the card or the account that pays it', async () => {
    const card = await setUp('card-ledgers');
    const { user, checking, visa } = card;
    okJson(await charge(user, visa.id, '2026-11-10', 200));
    okJson(await charge(user, visa.id, '2027-03-01', 10));
    // March's statement is due in April, past both ledgers.
    expect(await paymentsOf(card)).toEqual([['2026-12-08', 200]]);
    okJson(await user.post(inAccount(LEDGER_PATHS.extend, visa.id), { endDate: '2027-04-30' }));
    // Checking does not reach April yet: no side is written where one ledger does not reach.
    expect(await paymentsOf(card)).toEqual([['2026-12-08', 200]]);
    okJson(await user.post(LEDGER_PATHS.extend, { endDate: '2027-04-30' }));
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-04-08', 10],
    ]);
    // A New Ledger of Checking projects the card's payments into it again, paired.
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2027-04-30', currentBalance: 300 } }));
    expect(await paymentsOf(card)).toEqual([
      ['2026-12-08', 200],
      ['2027-04-08', 10],
    ]);

    // Deleting Checking: the card is paid from the primary account (Savings now), its payments move there.
    const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
    okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), { ledger: { ...SPAN, currentBalance: 0 } }));
    okJson(await user.request('DELETE', withId(ACCOUNTS_PATHS.one, checking.id), { confirm: 'Checking' }));
    const [visaNow] = accountsInfoSchema
      .parse(okJson(await user.get(ACCOUNTS_PATHS.list)))
      .accounts.filter((account) => account.kind === 'CARD');
    expect(visaNow?.card?.payFromAccountId).toBe(savings.id);
    expect(await paymentsOf({ user, checking: savings, visa })).toEqual([['2026-12-08', 200]]);

    // Paid from Savings, December's payment stands; deleting the card leaves it an ordinary row there.
    const [paid] = payments(await ledgerIn(user, savings.id)) as [LedgerTransaction];
    okJson(await user.patch(inAccount(LEDGER_PATHS.updateTransaction, savings.id), { ...paid, status: 'PAID' }));
    okJson(await charge(user, visa.id, '2026-12-01', 5));
    expect(payments(await ledgerIn(user, savings.id))).toHaveLength(2);
    okJson(await user.request('DELETE', withId(ACCOUNTS_PATHS.one, visa.id), { confirm: 'Visa' }));
    const [ordinary] = payments(await ledgerIn(user, savings.id)) as [LedgerTransaction];
    expect(payments(await ledgerIn(user, savings.id))).toHaveLength(1);
    expect(ordinary).toEqual({
      id: paid.id,
      date: '2026-12-08',
      name: PAYMENT,
      type: 'D',
      amount: 200,
      balance: -200,
      status: 'PAID',
      source: null,
    });
    expect(ordinary).not.toHaveProperty('transfer');
  });

  it('projects a New Ledger of the card afresh: its rows go, and so do the payments that were open', async () => {
    const card = await setUp('card-new-ledger');
    const { user, checking, visa } = card;
    okJson(await charge(user, visa.id, '2026-11-10', 200));
    okJson(await charge(user, visa.id, '2026-11-25', 30));
    const [december] = payments(await ledgerIn(user, checking.id)) as [LedgerTransaction];
    okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...december, status: 'PAID' }));
    // The card's new ledger opens owing $80 on December 1st; the paid December payment stays in Checking, as an ordinary row.
    okJson(await user.post(inAccount(LEDGER_PATHS.create, visa.id), { ledger: { ...SPAN, startDate: '2026-12-01', currentBalance: -80 } }));
    expect(payments(await ledgerIn(user, visa.id)).map((row) => [row.date, row.amount])).toEqual([['2027-01-08', 80]]);
    const debits = payments(await ledgerIn(user, checking.id));
    expect(debits.map((row) => [row.date, row.amount, row.status])).toEqual([
      ['2026-12-08', 200, 'PAID'],
      ['2027-01-08', 80, 'PENDING'],
    ]);
    expect(debits[0]).not.toHaveProperty('transfer');
    expect(debits[1]?.transfer?.accountId).toBe(visa.id);
  });

  it('shows the payment in Pay From’s forecast, whose warning names the account, and warns of a card over its limit', async () => {
    const card = await setUp('card-forecast', { checkingBalance: 250, creditLimit: 1000 });
    const { user, checking, visa } = card;
    okJson(await charge(user, visa.id, '2026-11-10', 200));
    okJson(await charge(user, visa.id, '2026-11-25', 300));
    const forecast = await forecastOf(user, checking.id);
    expect(forecast.account).toEqual({ id: checking.id, name: 'Checking', kind: 'CHECKING' });
    expect(forecast.firstBelowZero).toEqual({ date: '2027-01-08', name: PAYMENT, balance: -250 });
    expect(forecast).not.toHaveProperty('firstOverLimit');
    // SPEC.md's path answers the primary account's forecast, named too now that there are several.
    expect(accountForecastSchema.parse(okJson(await user.get(LEDGER_PATHS.forecast)))).toEqual(forecast);

    const visaForecast = await forecastOf(user, visa.id);
    expect(visaForecast.account).toEqual({ id: visa.id, name: 'Visa', kind: 'CARD' });
    expect(visaForecast.firstOverLimit).toBeNull();
    okJson(await charge(user, visa.id, '2026-12-20', 700));
    // $200 + $300 + $700 charged, $200 paid on December 8th: $1,000 owed is not over; a cent more is.
    expect((await forecastOf(user, visa.id)).firstOverLimit).toBeNull();
    okJson(await charge(user, visa.id, '2026-12-21', 0.01, 'Gum'));
    expect((await forecastOf(user, visa.id)).firstOverLimit).toEqual({ date: '2026-12-21', name: 'Gum', balance: -1000.01 });
    // Without a limit, never over it.
    okJson(await user.patch(withId(ACCOUNTS_PATHS.one, visa.id), { card: { ...cardSettings(checking.id), creditLimit: null } }));
    expect((await forecastOf(user, visa.id)).firstOverLimit).toBeNull();
  });

  it('answers a one-account user’s forecast as before: no account, no limit', async () => {
    const user = getApp(kind).as(newSubject('card-one-account'));
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { ...SPAN, currentBalance: 10 } }));
    const answer = okJson(await user.get(LEDGER_PATHS.forecast)) as Record<string, unknown>;
    expect(Object.keys(answer)).toEqual([
      'today',
      'lowest',
      'firstBelowZero',
      'payPeriods',
      'startDate',
      'endDate',
      'openingBalance',
      'currentBalance',
      'pendingBalance',
      'chart',
      'upcoming',
      'safeToSpend',
    ]);
  });

  it('restores an export with its card payments paired, exactly', async () => {
    const card = await setUp('card-restore');
    const { user, checking, visa } = card;
    okJson(await charge(user, visa.id, '2026-11-10', 200));
    okJson(await charge(user, visa.id, '2026-12-01', 30));
    const [december] = payments(await ledgerIn(user, checking.id)) as [LedgerTransaction];
    // A deleted payment is skipped in both ledgers, and the export says so.
    okJson(await user.delete(withId(LEDGER_PATHS.transaction, december.id)));
    expect(await paymentsOf(card)).toEqual([['2027-01-08', 230]]);
    const exported = yourDataExportSchema.parse(okJson(await user.get(YOUR_DATA_PATHS.export)));
    const visaExport = exported.accounts.find((account) => account.kind === 'CARD');
    expect(visaExport?.ledger?.skippedOccurrences).toEqual([{ kind: 'card', id: visa.id, occurrence: '2026-11-15' }]);
    expect(visaExport?.ledger?.removedSchedules).toEqual([]);

    const restored = getApp(kind).as(newSubject('card-restored'));
    okJson(await restored.post(YOUR_DATA_PATHS.restore, exported));
    const accounts = accountsInfoSchema.parse(okJson(await restored.get(ACCOUNTS_PATHS.list))).accounts;
    const [newChecking, newVisa] = accounts as [AccountInfo, AccountInfo];
    expect(newVisa.card?.payFromAccountId).toBe(newChecking.id);
    const again = { user: restored, checking: newChecking, visa: newVisa };
    expect(await paymentsOf(again)).toEqual([['2027-01-08', 230]]);
    const reexported = yourDataExportSchema.parse(okJson(await restored.get(YOUR_DATA_PATHS.export)));
    expect(withoutIds({ ...reexported, exportedAt: '' })).toEqual(withoutIds({ ...exported, exportedAt: '' }));
    // Still followed after the restore: a charge re-projects, and the skipped statement stays skipped.
    okJson(await charge(restored, newVisa.id, '2026-12-02', 10));
    expect(await paymentsOf(again)).toEqual([['2027-01-08', 240]]);

    // A restore refuses a payment naming no card of the document.
    const broken = structuredClone(exported);
    const checkingLedger = broken.accounts.find((account) => account.primary)?.ledger;
    const debit = checkingLedger?.transactions.find((row) => row.name === PAYMENT);
    if (!debit?.source) throw new Error('no payment in the export');
    debit.source.id = checking.id;
    const refused = await restored.post(YOUR_DATA_PATHS.restore, broken);
    expect(refused.statusCode).toBe(400);
    expect(Object.values(strictErrorBodySchema.parse(refused.json()).error.fields ?? {})).toEqual([
      'Source must name a credit card of the document.',
    ]);
  });
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The document with every id replaced by its place of first appearance: equal when only the ids differ. */
function withoutIds(document: object): string {
  const seen = new Map<string, number>();
  return JSON.stringify(document).replace(UUID, (id) => {
    if (!seen.has(id)) seen.set(id, seen.size);
    return `<id ${seen.get(id)}>`;
  });
}

const byDate = (ledger: Ledger, date: string): LedgerTransaction[] => ledger.transactions.filter((row) => row.date === date);
