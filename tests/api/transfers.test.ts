/**
 * Transfers (issue 25 item 3, decision 0043), on SQLite and (with TEST_POSTGRES_URL) PostgreSQL:
 * POST /api/transfers writes a linked pair (a debit in From, a credit in To) that names each other;
 * editing either side's date, name or amount changes both, deleting either deletes both, each
 * side's status is its own; undo puts both ledgers back; deleting an account (or a New Ledger)
 * leaves the other sides as ordinary rows; export version 2 carries the links and restores them;
 * a user without transfers gets the answers they always did.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type YourDataExport, yourDataExportSchema, YOUR_DATA_PATHS } from '../../src/contract/your-data.js';
import { type AccountInfo, accountSchema, ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { withId } from '../../src/contract/common.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { forecastSchema, type Ledger, LEDGER_PATHS } from '../../src/contract/ledger.js';
import { ledgerChangesSchema } from '../../src/contract/ledger-changes.js';
import { TRANSFERS_PATHS } from '../../src/contract/transfers.js';
import { AMOUNT_MESSAGES, expectBadRequest, expectNotFound, inAccount, newSubject, undoToken } from '../support/api-expectations.js';
import { byName, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
const NOVEMBER = { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 500 } };
const UNDO = '/api/undo';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The texts with every id replaced by its place of first appearance: equal when only the ids differ. */
function withoutIds(reads: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return reads.map((read) =>
    read.replace(UUID, (id) => {
      if (!seen.has(id)) seen.set(id, seen.size);
      return `<id ${seen.get(id)}>`;
    }),
  );
}

function expectConflict(response: LightMyRequestResponse, message: RegExp): void {
  expect(response.statusCode, response.body).toBe(409);
  expect(strictErrorBodySchema.parse(response.json()).error.message).toMatch(message);
}

interface TwoAccounts {
  readonly user: UserClient;
  readonly checking: AccountInfo;
  readonly savings: AccountInfo;
}

/** A user with Checking (primary, $500) and Savings ($500), each with a ledger for November and December 2026. */
async function twoAccounts(user: UserClient): Promise<TwoAccounts> {
  okJson(await user.post(LEDGER_PATHS.create, NOVEMBER));
  const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
  okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), NOVEMBER));
  const [checking] = (okJson(await user.get(ACCOUNTS_PATHS.list)) as { accounts: AccountInfo[] }).accounts;
  if (!checking) throw new Error('no primary account');
  return { user, checking, savings };
}

const ledgerIn = async (user: UserClient, accountId: string): Promise<Ledger> =>
  ledgerOf(await user.get(inAccount(LEDGER_PATHS.retrieve, accountId)));

/** Every read a restore or an undo must give back: the export (time aside) and each account's ledger as answered. */
async function everything(user: UserClient, accounts: readonly AccountInfo[]): Promise<string[]> {
  const exported = yourDataExportSchema.parse(okJson(await user.get(YOUR_DATA_PATHS.export)));
  const ledgers = await Promise.all(accounts.map(async (account) => (await user.get(inAccount(LEDGER_PATHS.retrieve, account.id))).body));
  return [JSON.stringify({ ...exported, exportedAt: '' }), ...ledgers];
}

const transfer = (from: AccountInfo, to: AccountInfo, extra: object = {}) => ({
  fromAccountId: from.id,
  toAccountId: to.id,
  date: '2026-11-25',
  amount: 100,
  ...extra,
});

describe.each(databaseKinds())('transfers on %s', (kind) => {
  it('writes a linked pair: a debit in From, a credit in To, each naming the other; answers From’s ledger', async () => {
    const { user, checking, savings } = await twoAccounts(getApp(kind).as(newSubject('transfer')));
    const answer = await user.post(TRANSFERS_PATHS.add, transfer(checking, savings));
    const fromLedger = ledgerOf(answer);
    expect(answer.headers.etag).toMatch(/^W\/"/);
    undoToken(answer);
    expect(fromLedger).toEqual(await ledgerIn(user, checking.id));

    const debit = byName(fromLedger, 'Transfer to Savings');
    const toLedger = await ledgerIn(user, savings.id);
    const credit = byName(toLedger, 'Transfer to Savings');
    expect(debit).toEqual({
      id: debit.id,
      date: '2026-11-25',
      name: 'Transfer to Savings',
      type: 'D',
      amount: 100,
      balance: 400,
      status: 'PENDING',
      source: null,
      transfer: { id: credit.id, accountId: savings.id },
    });
    expect(credit).toMatchObject({ type: 'C', amount: 100, balance: 600, transfer: { id: debit.id, accountId: checking.id } });

    // The forecast's upcoming rows carry the link as the ledger does; Pay on one side answers it in the changes too.
    const forecast = forecastSchema.parse(okJson(await user.get(inAccount(LEDGER_PATHS.forecast, savings.id))));
    expect(forecast.upcoming.find((row) => row.id === credit.id)?.transfer).toEqual({ id: debit.id, accountId: checking.id });
    const paid = await user.patch(`${LEDGER_PATHS.updateTransaction}?answer=changes`, { ...debit, status: 'PAID' });
    const { changes } = ledgerChangesSchema.parse(okJson(paid));
    expect(changes.rows).toEqual([{ ...debit, status: 'PAID', position: 0 }]);
    // Each side's status is its own.
    expect(byName(await ledgerIn(user, savings.id), 'Transfer to Savings').status).toBe('PENDING');

    // A name given is both sides' name.
    ledgerOf(await user.post(TRANSFERS_PATHS.add, transfer(savings, checking, { name: 'Rainy day back', amount: 20.5 })));
    expect(byName(await ledgerIn(user, checking.id), 'Rainy day back')).toMatchObject({ type: 'C', amount: 20.5 });
    expect(byName(await ledgerIn(user, savings.id), 'Rainy day back')).toMatchObject({ type: 'D', amount: 20.5 });
  });

  it('refuses each field as add-transaction does, the same account, dates outside a ledger, and another user’s ids (404)', async () => {
    const test = getApp(kind);
    const { user, checking, savings } = await twoAccounts(test.as(newSubject('transfer-refused')));
    const before = await test.snapshot();
    const post = (body: object) => user.post(TRANSFERS_PATHS.add, body);
    expectBadRequest(await post(transfer(checking, savings, { amount: 0 })), { amount: AMOUNT_MESSAGES.notPositive });
    expectBadRequest(await post(transfer(checking, savings, { amount: 1.005 })), { amount: AMOUNT_MESSAGES.decimals });
    expectBadRequest(await post(transfer(checking, savings, { date: '2026-02-30' })), { date: 'Date must be a real date (YYYY-MM-DD).' });
    expectBadRequest(await post(transfer(checking, savings, { name: ' ' })), { name: 'Name is required.' });
    expectBadRequest(await post({ ...transfer(checking, savings), fromAccountId: undefined }), { fromAccountId: 'Id is required.' });
    const same = await post(transfer(checking, checking));
    expect(same.statusCode).toBe(400);
    expect(strictErrorBodySchema.parse(same.json()).error.fields).toEqual({ toAccountId: 'To must be another account than From.' });
    const outside = await post(transfer(checking, savings, { date: '2027-01-01' }));
    expect(outside.statusCode).toBe(400);
    expect(strictErrorBodySchema.parse(outside.json()).error.fields).toEqual({
      date: "Date must be between 2026-11-01 and 2026-12-31, the dates of Checking's ledger.",
    });
    const cash = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Cash', kind: 'CASH' })));
    const noLedger = await post(transfer(checking, cash));
    expect(noLedger.statusCode).toBe(400);
    expect(strictErrorBodySchema.parse(noLedger.json()).error.fields).toEqual({ toAccountId: 'Cash has no ledger yet: create one first.' });
    okJson(await removeAccount(user, cash));

    const other = await twoAccounts(test.as(newSubject('transfer-other')));
    const otherBefore = await test.snapshot();
    expectNotFound(await post(transfer(checking, other.savings)), 'No such account.');
    expectNotFound(await post(transfer(other.checking, savings)), 'No such account.');
    expect(await test.snapshot()).toBe(otherBefore);
    expect(otherBefore).not.toBe(before);
    // The other user cannot edit or delete this user's sides either.
    const answer = ledgerOf(await post(transfer(checking, savings)));
    const debit = byName(answer, 'Transfer to Savings');
    expectNotFound(await other.user.delete(inAccount(LEDGER_PATHS.transaction, checking.id).replace(':id', debit.id)), 'No such account.');
  });

  it('edits both sides from either, deletes both from either, keeps each side’s status its own', async () => {
    const { user, checking, savings } = await twoAccounts(getApp(kind).as(newSubject('transfer-edit')));
    const debit = byName(ledgerOf(await user.post(TRANSFERS_PATHS.add, transfer(checking, savings))), 'Transfer to Savings');
    const savingsVersion = (await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id))).headers.etag;

    // Edited from To's side, through the account's path: both move, both ledgers' versions move.
    const credit = byName(await ledgerIn(user, savings.id), 'Transfer to Savings');
    const edited = { ...credit, date: '2026-11-27', amount: 150, name: 'To the rainy day fund' };
    const answer = await user.patch(`${inAccount(LEDGER_PATHS.updateTransaction, savings.id)}?answer=changes`, edited);
    const { changes } = ledgerChangesSchema.parse(okJson(answer));
    expect(changes.rows.map((row) => [row.id, row.date, row.amount, row.name, row.transfer])).toEqual([
      [credit.id, '2026-11-27', 150, 'To the rainy day fund', { id: debit.id, accountId: checking.id }],
    ]);
    expect(answer.headers.etag).not.toBe(savingsVersion);
    const checkingAfter = await user.get(LEDGER_PATHS.retrieve);
    expect(byName(ledgerOf(checkingAfter), 'To the rainy day fund')).toMatchObject({
      id: debit.id,
      date: '2026-11-27',
      amount: 150,
      type: 'D',
      status: 'PENDING',
      transfer: { id: credit.id, accountId: savings.id },
    });

    // A date outside the other side's ledger is refused, naming that ledger, and changes nothing.
    okJson(await user.post(LEDGER_PATHS.extend, { endDate: '2027-01-31' }));
    const movedDebit = byName(await ledgerIn(user, checking.id), 'To the rainy day fund');
    const outside = await user.patch(LEDGER_PATHS.updateTransaction, { ...movedDebit, date: '2027-01-05' });
    expect(outside.statusCode).toBe(400);
    expect(strictErrorBodySchema.parse(outside.json()).error.fields).toEqual({
      date: "Date must be between 2026-11-01 and 2026-12-31, the dates of Savings's ledger.",
    });

    // Clearing one side leaves the other PENDING; then neither side's date, name or amount can change, nor can either be deleted.
    okJson(await user.patch(inAccount(LEDGER_PATHS.updateTransaction, savings.id), { ...edited, status: 'CLEARED' }));
    const pendingDebit = byName(await ledgerIn(user, checking.id), 'To the rainy day fund');
    expect(pendingDebit.status).toBe('PENDING');
    expectConflict(await user.patch(LEDGER_PATHS.updateTransaction, { ...pendingDebit, amount: 1 }), /in Savings, is CLEARED/);
    expectConflict(await user.delete(withId(LEDGER_PATHS.transaction, pendingDebit.id)), /in Savings, is CLEARED/);
    okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...pendingDebit, status: 'PAID' }));

    // Deleting either side deletes both.
    const second = byName(ledgerOf(await user.post(TRANSFERS_PATHS.add, transfer(checking, savings, { name: 'Second' }))), 'Second');
    const gone = await user.delete(`${withId(LEDGER_PATHS.transaction, second.id)}?answer=changes`);
    expect(ledgerChangesSchema.parse(okJson(gone)).changes.removed).toEqual([second.id]);
    expect((await ledgerIn(user, savings.id)).transactions.map((row) => row.name)).toEqual(['To the rainy day fund']);
    const third = byName(ledgerOf(await user.post(TRANSFERS_PATHS.add, transfer(checking, savings, { name: 'Third' }))), 'Third');
    const thirdCredit = byName(await ledgerIn(user, savings.id), 'Third');
    okJson(await user.delete(inAccount(LEDGER_PATHS.transaction, savings.id).replace(':id', thirdCredit.id)));
    expect((await ledgerIn(user, checking.id)).transactions.some((row) => row.id === third.id)).toBe(false);
  });

  it('undoes a transfer’s add, edit and delete in both ledgers exactly', async () => {
    const { user, checking, savings } = await twoAccounts(getApp(kind).as(newSubject('transfer-undo')));
    const accounts = [checking, savings];
    const undo = async (token: string) => okJson(await user.post(UNDO, { token }));

    const empty = await everything(user, accounts);
    const added = await user.post(TRANSFERS_PATHS.add, transfer(checking, savings));
    const afterAdd = await everything(user, accounts);
    // The undo answers what the write answered: From's ledger.
    expect(await undo(undoToken(added))).toEqual({ ledger: { ...ledgerOf(await user.get(LEDGER_PATHS.retrieve)) } });
    expect(await everything(user, accounts)).toEqual(empty);

    const again = ledgerOf(await user.post(TRANSFERS_PATHS.add, transfer(checking, savings)));
    const debit = byName(again, 'Transfer to Savings');
    const beforeEdit = await everything(user, accounts);
    const edit = await user.patch(LEDGER_PATHS.updateTransaction, { ...debit, amount: 75, name: 'Less' });
    expect(byName(await ledgerIn(user, savings.id), 'Less').amount).toBe(75);
    await undo(undoToken(edit));
    expect(await everything(user, accounts)).toEqual(beforeEdit);

    const deleted = await user.delete(inAccount(LEDGER_PATHS.transaction, savings.id).replace(':id', debit.transfer?.id ?? ''));
    expect((await ledgerIn(user, checking.id)).transactions).toEqual([]);
    await undo(undoToken(deleted));
    expect(await everything(user, accounts)).toEqual(beforeEdit);
    expect(afterAdd[0]).toContain('"transfer"');
  });

  it('leaves the other sides as ordinary rows when an account or its ledger goes', async () => {
    const { user, checking, savings } = await twoAccounts(getApp(kind).as(newSubject('transfer-unlink')));
    ledgerOf(await user.post(TRANSFERS_PATHS.add, transfer(checking, savings)));
    const cash = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Cash', kind: 'CASH' })));
    okJson(await user.post(inAccount(LEDGER_PATHS.create, cash.id), NOVEMBER));
    ledgerOf(await user.post(TRANSFERS_PATHS.add, transfer(cash, checking, { name: 'From the jar' })));
    const etag = (await user.get(LEDGER_PATHS.retrieve)).headers.etag;

    okJson(await removeAccount(user, savings));
    const checkingLedger = await ledgerIn(user, checking.id);
    expect(byName(checkingLedger, 'Transfer to Savings')).not.toHaveProperty('transfer');
    expect(byName(checkingLedger, 'From the jar').transfer).toMatchObject({ accountId: cash.id });
    expect((await user.get(LEDGER_PATHS.retrieve)).headers.etag).not.toBe(etag);
    // An ordinary row now: editing and deleting it touch nothing else.
    const left = byName(checkingLedger, 'Transfer to Savings');
    okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...left, amount: 5 }));

    // A New Ledger replaces Cash's rows: Checking's side of its transfer stays, unlinked.
    okJson(await user.post(inAccount(LEDGER_PATHS.create, cash.id), NOVEMBER));
    expect(byName(await ledgerIn(user, checking.id), 'From the jar')).not.toHaveProperty('transfer');
  });

  it('exports the links in version 2 and restores them exactly, under new ids', async () => {
    const { user, checking, savings } = await twoAccounts(getApp(kind).as(newSubject('transfer-export')));
    ledgerOf(await user.post(TRANSFERS_PATHS.add, transfer(checking, savings)));
    ledgerOf(await user.post(TRANSFERS_PATHS.add, transfer(savings, checking, { date: '2026-12-02', amount: 12.34 })));
    const before = await everything(user, [checking, savings]);
    const document: YourDataExport = yourDataExportSchema.parse(okJson(await user.get(YOUR_DATA_PATHS.export)));
    const [checkingRows, savingsRows] = document.accounts.map((account) => account.ledger?.transactions ?? []);
    expect(checkingRows?.[0]?.transfer).toEqual({ id: savingsRows?.[0]?.id, accountId: savings.id });

    expect(okJson(await user.post(YOUR_DATA_PATHS.restore, document))).toEqual({ deposits: 0, expenses: 0, transactions: 4 });
    const accounts = (okJson(await user.get(ACCOUNTS_PATHS.list)) as { accounts: AccountInfo[] }).accounts;
    const restored = await everything(user, accounts);
    expect(withoutIds(restored)).toEqual(withoutIds(before));
    expect(restored).not.toEqual(before);
    // Still paired: deleting one side deletes the other.
    const [newChecking, newSavings] = accounts;
    const debit = byName(await ledgerIn(user, newChecking?.id ?? ''), 'Transfer to Savings');
    okJson(await user.delete(withId(LEDGER_PATHS.transaction, debit.id)));
    expect((await ledgerIn(user, newSavings?.id ?? '')).transactions.map((row) => row.name)).toEqual(['Transfer to Checking']);

    // A link that does not name its other side back is refused, naming the row.
    const broken = structuredClone(document);
    const row = broken.accounts[0]?.ledger?.transactions[0];
    if (row) row.transfer = { id: row.id, accountId: checking.id };
    expectBadRequest(await user.post(YOUR_DATA_PATHS.restore, broken), {
      'accounts.0.ledger.transactions.0.transfer':
        'Transfer must name a row of another account of the document that names this one back, on the same date, with the same name and amount and the other type.',
    });
  });

  it('answers a user without transfers as before: no transfer key on any row of any answer', async () => {
    const user = getApp(kind).as(newSubject('transfer-none'));
    const ledger = ledgerOf(await user.post(LEDGER_PATHS.create, NOVEMBER));
    const added = await user.post(`${LEDGER_PATHS.addTransaction}?answer=changes`, {
      date: '2026-11-23',
      name: 'Coffee',
      type: 'D',
      amount: 4.5,
    });
    const rowKeys = ['id', 'date', 'name', 'type', 'amount', 'balance', 'status', 'source'];
    const keysOf = (rows: readonly object[]) => rows.map((row) => Object.keys(row));
    expect(ledger.transactions).toEqual([]);
    expect(keysOf(ledgerChangesSchema.parse(okJson(added)).changes.rows)).toEqual([[...rowKeys, 'position']]);
    expect(keysOf(ledgerOf(await user.get(LEDGER_PATHS.retrieve)).transactions)).toEqual([rowKeys]);
    expect(keysOf(forecastSchema.parse(okJson(await user.get(LEDGER_PATHS.forecast))).upcoming)).toEqual([rowKeys]);
    const exported = yourDataExportSchema.parse(okJson(await user.get(YOUR_DATA_PATHS.export)));
    expect(keysOf(exported.accounts[0]?.ledger?.transactions ?? [])).toEqual([
      ['id', 'sequence', 'date', 'name', 'type', 'amount', 'status', 'source'],
    ]);
    expect((await user.get(LEDGER_PATHS.retrieve)).body).not.toContain('transfer');
  });
});

async function removeAccount(user: UserClient, account: AccountInfo): Promise<LightMyRequestResponse> {
  return user.request('DELETE', withId(ACCOUNTS_PATHS.one, account.id), { confirm: account.name });
}
