/**
 * Statements into the right account (issue 25 item 6, decision 0046), on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL: an OFX or QFX file's bank account (its ACCTID) is remembered, per
 * user, for the account it was imported into, and the next preview of a file of that bank account
 * names that account; a one-account user's previews answer exactly as before; the account number
 * is not stored; deleting the account forgets it; and matching never crosses accounts: the same
 * rows in two accounts' ledgers, a file imported into one clears that one's only.
 */
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type AccountInfo, accountSchema, ACCOUNTS_PATHS, accountsInfoSchema } from '../../src/contract/accounts.js';
import { withId } from '../../src/contract/common.js';
import { type Ledger, LEDGER_PATHS } from '../../src/contract/ledger.js';
import {
  STATEMENT_PATHS,
  type StatementImport,
  statementImportSchema,
  type StatementPreview,
  statementPreviewSchema,
} from '../../src/contract/statements.js';
import { expectBadRequest, expectNotFound, inAccount, newSubject } from '../support/api-expectations.js';
import { byName, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type TestApp, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
const FIXTURES = new URL('../fixtures/statements/', import.meta.url);
const fixture = (name: string): string => fs.readFileSync(new URL(name, FIXTURES), 'utf8');

/** ACCTID 000123456789: shown by its last four characters. */
const CHECKING_OFX = 'checking-ofx1-sgml.ofx';
/** The same bank account as CHECKING_OFX, exported by Quicken. */
const CHECKING_QFX = 'quicken-intuit.qfx';
/** ACCTID 9988776655: another bank account. */
const OTHER_OFX = 'checking-ofx2-xml.ofx';
/** ACCTID 555: shorter than four characters. */
const SHORT_ID_OFX = 'ofx2-entities-payee.ofx';
const CSV = 'checking-posting-date.csv';
const JANUARY = { ledger: { startDate: '2027-01-01', endDate: '2027-01-31', currentBalance: 500 } };
const DECISIONS_REFUSED = 'Some decisions cannot be applied to this statement.';

const previewOf = (response: LightMyRequestResponse): StatementPreview => statementPreviewSchema.parse(okJson(response));
const importOf = (response: LightMyRequestResponse): StatementImport => statementImportSchema.parse(okJson(response));
const file = (fileName: string) => ({ fileName, content: fixture(fileName) });

/** The statement call's path in that account, or SPEC's /api/ledger path (the primary account) without one. */
const previewPath = (accountId?: string) =>
  accountId === undefined ? STATEMENT_PATHS.preview : inAccount(STATEMENT_PATHS.preview, accountId);
const importPath = (accountId?: string) =>
  accountId === undefined ? STATEMENT_PATHS.import : inAccount(STATEMENT_PATHS.import, accountId);

const preview = async (user: UserClient, fileName: string, accountId?: string) =>
  previewOf(await user.post(previewPath(accountId), file(fileName)));
const importInto = async (user: UserClient, fileName: string, accountId?: string) =>
  importOf(await user.post(importPath(accountId), file(fileName)));

async function accountsOf(user: UserClient): Promise<AccountInfo[]> {
  return accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list))).accounts;
}

async function addAccount(user: UserClient, name: string): Promise<AccountInfo> {
  return accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name, kind: 'SAVINGS' })));
}

/**
 * The rows the samples' statement matches (README: Rent paid a day late, the two paychecks), added
 * by hand to the account's January 2027 ledger, so two accounts can hold exactly the same rows.
 */
async function ledgerWithSampleRows(user: UserClient, accountId: string): Promise<Ledger> {
  okJson(await user.post(inAccount(LEDGER_PATHS.create, accountId), JANUARY));
  const rows = [
    { date: '2027-01-01', name: 'Acme Paycheck', type: 'C', amount: 1000 },
    { date: '2027-01-01', name: 'Rent', type: 'D', amount: 1200 },
    { date: '2027-01-15', name: 'Acme Paycheck 2', type: 'C', amount: 1000 },
    { date: '2027-01-15', name: 'Phone', type: 'D', amount: 50.55 },
  ];
  let ledger: Ledger | undefined;
  for (const row of rows) ledger = ledgerOf(await user.post(inAccount(LEDGER_PATHS.addTransaction, accountId), row));
  if (!ledger) throw new Error('no rows added');
  return ledger;
}

interface TwoAccounts {
  readonly user: UserClient;
  readonly checking: AccountInfo;
  readonly savings: AccountInfo;
}

/** A user with Checking (primary) and Savings, each with the same January 2027 rows. */
async function twoAccounts(test: TestApp, label: string): Promise<TwoAccounts> {
  const user = test.as(newSubject(label));
  okJson(await user.post(LEDGER_PATHS.create, JANUARY));
  const savings = await addAccount(user, 'Savings');
  const checking = (await accountsOf(user)).find((account) => account.primary);
  if (!checking) throw new Error('no primary account');
  await ledgerWithSampleRows(user, checking.id);
  await ledgerWithSampleRows(user, savings.id);
  return { user, checking, savings };
}

/** The remembered rows of every user, as stored. */
async function storedRows(test: TestApp) {
  return test.app.database.db.selectFrom('statement_accounts').selectAll().execute();
}

describe.each(databaseKinds())('statements into the right account on %s', (kind) => {
  it('answers a one-account user’s previews as before, and still remembers the account for later', async () => {
    const test = getApp(kind);
    const user = test.as(newSubject('one-account'));
    const ledger = await ledgerWithSampleRows(user, (await accountsOf(user))[0]?.id ?? '');
    expect(ledger.transactions).toHaveLength(4);

    for (const fileName of [CHECKING_OFX, CHECKING_QFX, CSV]) {
      const body = okJson(await user.post(STATEMENT_PATHS.preview, file(fileName))) as Record<string, unknown>;
      expect(Object.keys(body), fileName).toEqual(
        fileName === CSV
          ? ['format', 'needsMapping', 'columns', 'rows', 'bank', 'reconciliation']
          : ['format', 'needsMapping', 'rows', 'bank', 'reconciliation'],
      );
    }
    const imported = await importInto(user, CHECKING_OFX);
    expect(imported.imported.matched).toBe(4);
    expect(Object.keys(okJson(await user.post(STATEMENT_PATHS.preview, file(CHECKING_OFX))) as object)).not.toContain('fileAccount');

    // A second account: the file's bank account is named, and Checking, where it went, is remembered.
    const [checking] = await accountsOf(user);
    await addAccount(user, 'Savings');
    expect((await preview(user, CHECKING_OFX)).fileAccount).toEqual({ ending: '6789', accountId: checking?.id });
  });

  it('names the account a file’s bank account was last imported into, per user, and follows the latest import', async () => {
    const test = getApp(kind);
    const { user, checking, savings } = await twoAccounts(test, 'remembered');

    // Never imported: the ending, and no account yet. A CSV names no bank account.
    expect((await preview(user, CHECKING_OFX, savings.id)).fileAccount).toEqual({ ending: '6789', accountId: null });
    expect((await preview(user, SHORT_ID_OFX, savings.id)).fileAccount).toEqual({ ending: '555', accountId: null });
    expect(Object.keys(okJson(await user.post(previewPath(savings.id), file(CSV))) as object)).not.toContain('fileAccount');

    await importInto(user, CHECKING_OFX, savings.id);
    // Every preview of that bank account names Savings, whichever account it is previewed in, and a
    // QFX of the same bank account too; another bank account names none.
    expect((await preview(user, CHECKING_OFX)).fileAccount).toEqual({ ending: '6789', accountId: savings.id });
    expect((await preview(user, CHECKING_OFX, checking.id)).fileAccount).toEqual({ ending: '6789', accountId: savings.id });
    expect((await preview(user, CHECKING_QFX, savings.id)).fileAccount).toEqual({ ending: '6789', accountId: savings.id });
    expect((await preview(user, OTHER_OFX, savings.id)).fileAccount).toEqual({ ending: '6655', accountId: null });

    // Another user with the same bank account's file knows nothing of it.
    const other = await twoAccounts(test, 'remembered-other');
    expect((await preview(other.user, CHECKING_OFX)).fileAccount).toEqual({ ending: '6789', accountId: null });

    // Imported into Checking next (the QFX, same bank account): Checking is named from then on.
    await importInto(user, CHECKING_QFX, checking.id);
    expect((await preview(user, CHECKING_OFX, savings.id)).fileAccount).toEqual({ ending: '6789', accountId: checking.id });
    // An import that only finds rows imported before still says where the file went.
    const again = await importInto(user, CHECKING_OFX, savings.id);
    expect(again.imported).toEqual({ matched: 0, added: 0, duplicates: 8, outside: 0, skipped: 0 });
    expect((await preview(user, CHECKING_OFX, checking.id)).fileAccount).toEqual({ ending: '6789', accountId: savings.id });
  });

  it('keeps only a hash of the bank account, and forgets it with the account it named', async () => {
    const test = getApp(kind);
    const { user, savings } = await twoAccounts(test, 'forgotten');
    await importInto(user, CHECKING_OFX, savings.id);
    const stored = (await storedRows(test)).filter((row) => row.account_id === savings.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.bank_account_key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await storedRows(test))).not.toContain('123456789');

    okJson(await user.request('DELETE', withId(ACCOUNTS_PATHS.one, savings.id), { confirm: 'Savings' }));
    expect((await storedRows(test)).filter((row) => row.account_id === savings.id)).toEqual([]);
    await addAccount(user, 'Rainy day');
    expect((await preview(user, CHECKING_OFX)).fileAccount).toEqual({ ending: '6789', accountId: null });
  });

  it('matches a file against the chosen account’s ledger only: the same rows in another account stay as they were', async () => {
    const test = getApp(kind);
    const { user, checking, savings } = await twoAccounts(test, 'never-crosses');
    const checkingBefore = ledgerOf(await user.get(inAccount(LEDGER_PATHS.retrieve, checking.id)));
    const savingsBefore = ledgerOf(await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id)));
    const savingsIds = new Set(savingsBefore.transactions.map((row) => row.id));
    const checkingIds = new Set(checkingBefore.transactions.map((row) => row.id));

    // The preview in Savings proposes Savings' rows only.
    const proposed = await preview(user, CHECKING_OFX, savings.id);
    const matchIds = proposed.rows.flatMap((row) => (row.matchId === undefined ? [] : [row.matchId]));
    expect(matchIds).toHaveLength(4);
    for (const id of matchIds) expect(savingsIds.has(id)).toBe(true);

    // A decision naming Checking's row is refused in Savings, and nothing changes.
    const rentIndex = proposed.rows.findIndex((row) => row.amount === 1200);
    const before = await test.snapshot();
    expectBadRequest(
      await user.post(importPath(savings.id), {
        ...file(CHECKING_OFX),
        decisions: [{ index: rentIndex, action: 'match', matchId: byName(checkingBefore, 'Rent').id }],
      }),
      { 'decisions.0': `The ledger has no row ${byName(checkingBefore, 'Rent').id}.` },
      DECISIONS_REFUSED,
    );
    expect(await test.snapshot()).toBe(before);

    // Imported into Savings: its four rows are cleared; Checking's ledger answers exactly as before.
    const imported = await importInto(user, CHECKING_OFX, savings.id);
    expect(imported.imported).toEqual({ matched: 4, added: 4, duplicates: 0, outside: 0, skipped: 0 });
    expect(imported.ledger?.transactions.filter((row) => row.status === 'CLEARED')).toHaveLength(8);
    expect(ledgerOf(await user.get(inAccount(LEDGER_PATHS.retrieve, checking.id)))).toEqual(checkingBefore);

    // In Checking the same file is not "imported before": it proposes Checking's own rows, and imports into them.
    const inChecking = await preview(user, CHECKING_OFX, checking.id);
    expect(inChecking.rows.map((row) => row.action)).not.toContain('duplicate');
    const checkingMatches = inChecking.rows.flatMap((row) => (row.matchId === undefined ? [] : [row.matchId]));
    expect(checkingMatches).toHaveLength(4);
    for (const id of checkingMatches) expect(checkingIds.has(id)).toBe(true);
    expect((await importInto(user, CHECKING_OFX)).imported).toEqual({ matched: 4, added: 4, duplicates: 0, outside: 0, skipped: 0 });
    // Savings, imported before, keeps what it had.
    expect(ledgerOf(await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id)))).toEqual(imported.ledger);
  });

  it('answers 404 for another user’s account, remembering and changing nothing', async () => {
    const test = getApp(kind);
    const owner = await twoAccounts(test, 'owner');
    const intruder = await twoAccounts(test, 'intruder');
    const before = await test.snapshot();
    expectNotFound(await intruder.user.post(previewPath(owner.savings.id), file(CHECKING_OFX)), 'No such account.');
    expectNotFound(await intruder.user.post(importPath(owner.savings.id), file(CHECKING_OFX)), 'No such account.');
    expect(await test.snapshot()).toBe(before);
    expect((await preview(intruder.user, CHECKING_OFX)).fileAccount).toEqual({ ending: '6789', accountId: null });
  });
});
