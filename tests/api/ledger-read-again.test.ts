/**
 * A ledger read again and again (decision 0125), on SQLite and (with TEST_POSTGRES_URL) PostgreSQL:
 * from its third read on, the server asks the database for the rows only when the ledger's version
 * moved since the rows it kept, and every write moves it (issue 33's unit of work). So each read
 * after a write of any kind answers the rows as they are now, and reads without a write between them
 * answer the same ledger. One app per database; each test signs in as its own user.
 */
import { describe, expect, it } from 'vitest';
import { withId } from '../../src/contract/common.js';
import { type Ledger, LEDGER_PATHS, type LedgerTransaction } from '../../src/contract/ledger.js';
import { TRANSFERS_PATHS } from '../../src/contract/transfers.js';
import { ACCOUNTS_PATHS, accountSchema, accountsInfoSchema } from '../../src/contract/accounts.js';
import { inAccount, newSubject } from '../support/api-expectations.js';
import { byName, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
const LEDGER = { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 500 } };

/** Reads the ledger three times, so its rows are kept and the next read may skip them; the three agree. */
async function readThrice(user: UserClient, path: string = LEDGER_PATHS.retrieve): Promise<Ledger> {
  const reads = [ledgerOf(await user.get(path)), ledgerOf(await user.get(path)), ledgerOf(await user.get(path))];
  expect(reads[1]).toEqual(reads[0]);
  expect(reads[2]).toEqual(reads[0]);
  return reads[2] as Ledger;
}

function names(ledger: Ledger): string[] {
  return ledger.transactions.map((row) => `${row.name} ${row.status}`);
}

describe.each(databaseKinds())('a ledger read again after each write on %s', (kind) => {
  it('answers the rows as each write left them: an add, a Pay, an edit, a delete and a new ledger', async () => {
    const user = getApp(kind).as(newSubject('read-again'));
    okJson(await user.post(LEDGER_PATHS.create, LEDGER));
    const add = (name: string, date: string) => user.post(LEDGER_PATHS.addTransaction, { date, name, type: 'D', amount: 25 });
    okJson(await add('Coffee', '2026-11-10'));
    okJson(await add('Groceries', '2026-11-11'));

    const first = await readThrice(user);
    expect(names(first)).toEqual(['Coffee PENDING', 'Groceries PENDING']);

    okJson(await add('Gas', '2026-11-12'));
    expect(names(await readThrice(user))).toEqual(['Coffee PENDING', 'Groceries PENDING', 'Gas PENDING']);

    const coffee: LedgerTransaction = byName(await readThrice(user), 'Coffee');
    okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...coffee, status: 'PAID' }));
    const paid = await readThrice(user);
    expect(names(paid)).toEqual(['Coffee PAID', 'Groceries PENDING', 'Gas PENDING']);
    expect(paid.pendingBalance).toBe(475);

    okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...byName(paid, 'Groceries'), name: 'Market', amount: 40 }));
    const edited = await readThrice(user);
    expect(edited.transactions.map((row) => [row.name, row.amount])).toEqual([
      ['Coffee', 25],
      ['Market', 40],
      ['Gas', 25],
    ]);

    okJson(await user.delete(withId(LEDGER_PATHS.transaction, byName(edited, 'Gas').id)));
    expect(names(await readThrice(user))).toEqual(['Coffee PAID', 'Market PENDING']);

    // A new ledger replaces the rows (the ledger keeps its id; its version moves on).
    okJson(await user.post(LEDGER_PATHS.create, LEDGER));
    expect((await readThrice(user)).transactions).toEqual([]);
  });

  it("answers a transfer's other side, written by a write to the other account", async () => {
    const user = getApp(kind).as(newSubject('read-again-transfer'));
    okJson(await user.post(LEDGER_PATHS.create, LEDGER));
    const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
    const { accounts } = accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list)));
    const checking = accounts.find((account) => account.primary);
    if (checking === undefined) throw new Error('no primary account');
    const savingsLedger = inAccount(LEDGER_PATHS.retrieve, savings.id);
    okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), LEDGER));
    expect((await readThrice(user, savingsLedger)).transactions).toEqual([]);

    okJson(await user.post(TRANSFERS_PATHS.add, { fromAccountId: checking.id, toAccountId: savings.id, date: '2026-11-12', amount: 60 }));
    const sides = (await readThrice(user, savingsLedger)).transactions;
    expect(sides.map((row) => [row.type, row.amount])).toEqual([['C', 60]]);
  });
});
