/**
 * Your data (issue 15) through the API, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: the
 * ledger as CSV against the register, the export document, restore on the same database and
 * across them, refusals that change nothing, delete, and two users who never see or touch each
 * other's data. One app per database for the whole file; every test signs in as its own users.
 */
import type { LightMyRequestResponse } from 'fastify';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  RESTORE_BODY_LIMIT_BYTES,
  YOUR_DATA_PATHS,
  type YourDataExport,
  yourDataCountsSchema,
  yourDataExportSchema,
} from '../../src/contract/your-data.js';
import { LEDGER_CSV_COLUMNS } from '../../src/contract/ledger-csv.js';
import { restoreYourDataRequestSchema } from '../../src/contract/your-data-requests.js';
import { ENDPOINTS, withId } from '../../src/contract/common.js';
import { accountSchema, ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { profileSchema } from '../../src/contract/app-config.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { type Ledger, LEDGER_PATHS, type LedgerTransaction } from '../../src/contract/ledger.js';
import { STATEMENT_PATHS } from '../../src/contract/statements.js';
import { expectBadRequest, expectNotFound, newSubject } from '../support/api-expectations.js';
import { byName, depositInput, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, TEST_NOW, type TestApp, type UserClient } from '../support/test-app.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

const NO_LEDGER = 'You have no ledger yet: create one first.';
const HOSTILE_NAMES = ['=1+1', '+1', '-1', '@SUM(A1:A9)', 'Say "hi", then pay'];
/** Names no API call accepts (control characters), written into the database to test the CSV alone. */
const CONTROL_NAMES = ['\tTab first', '\rReturn first', 'Line\nbreak', '=1+1\nsecond line'];

const appOn = appsOnEveryDatabase();
const PROFILE = ENDPOINTS.getProfile.path;

/**
 * A user with a bit of everything a restore must carry: rows PENDING, PAID and CLEARED, a balance
 * below zero, hostile names, an edited row, a skipped occurrence, imported statement rows, and a
 * deleted bill whose past row still names it.
 */
async function richUser(user: UserClient): Promise<Ledger> {
  okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2026-11-06', frequency: 'BW' })));
  okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2026-11-06', frequency: 'BW' })));
  okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1500, day: 1 })));
  okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: '=HYPERLINK("x")', amount: 20, day: 10 })));
  const phone = expensesInfoSchema.parse(
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Phone', amount: 45.55, day: 15 }))),
  );
  okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2027-01-31', currentBalance: 100.05 } }));
  for (const name of HOSTILE_NAMES)
    okJson(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-25', name, type: 'D', amount: 1.1 }));
  let ledger = ledgerOf(await user.get(LEDGER_PATHS.retrieve));
  const patch = async (row: LedgerTransaction, changes: Partial<LedgerTransaction>) =>
    ledgerOf(await user.patch(LEDGER_PATHS.updateTransaction, { ...row, ...changes }));
  ledger = await patch(byName(ledger, 'Rent', '2026-11-01'), { status: 'PAID' });
  ledger = await patch(byName(ledger, 'Acme Paycheck', '2026-11-06'), { status: 'CLEARED' });
  ledger = await patch(byName(ledger, '+1'), { status: 'PAID' });
  ledger = await patch(byName(ledger, 'Rent', '2026-12-01'), { date: '2026-12-02' });
  okJson(await user.delete(withId(LEDGER_PATHS.transaction, byName(ledger, 'Rent', '2027-01-01').id)));
  // One statement row matches January's bill (cleared, moved to the bank's date), one is new.
  const content = 'Date,Description,Amount\n2027-01-11,BILL,-20.00\n2026-11-27,=CMD|calc,-4.50\n';
  okJson(await user.post(STATEMENT_PATHS.import, { fileName: 'statement.csv', content }));
  // Phone's November row is in the past: it stays, naming a bill that no longer exists.
  okJson(await user.delete(withId(EXPENSES_PATHS.one, phone.expenses.find((expense) => expense.name === 'Phone')?.id ?? '')));
  return ledgerOf(await user.get(LEDGER_PATHS.retrieve));
}

const EVERY_READ = [
  DEPOSITS_PATHS.retrieve,
  EXPENSES_PATHS.retrieve,
  LEDGER_PATHS.retrieve,
  LEDGER_PATHS.forecast,
  YOUR_DATA_PATHS.ledgerCsv,
  YOUR_DATA_PATHS.export,
];

/** Every read's status and body, as text: two users with equal reads have the same data. */
async function everyRead(user: UserClient): Promise<string[]> {
  const answers: string[] = [];
  for (const path of EVERY_READ) {
    const answer = await user.get(path);
    answers.push(`${path} ${answer.statusCode} ${answer.headers['content-disposition'] ?? ''}\n${answer.body}`);
  }
  return answers;
}

/** The reads with every id replaced by its place of first appearance: equal when only the ids differ. */
function withoutIds(reads: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return reads.map((read) =>
    read.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      if (!seen.has(id)) seen.set(id, seen.size);
      return `<id ${seen.get(id)}>`;
    }),
  );
}

function exportOf(response: LightMyRequestResponse): YourDataExport {
  return yourDataExportSchema.parse(okJson(response));
}

async function restore(user: UserClient, document: unknown): Promise<void> {
  yourDataCountsSchema.parse(okJson(await user.post(YOUR_DATA_PATHS.restore, document)));
}

describe.each(databaseKinds())('your data on %s', (kind) => {
  let test: TestApp;
  beforeAll(() => {
    test = appOn(kind);
  });

  it('writes the ledger as CSV: the register row by row, its balances to the cent, formulas as text', async () => {
    const user = test.as(newSubject('csv'));
    const ledger = await richUser(user);
    const answer = await user.get(YOUR_DATA_PATHS.ledgerCsv);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe('attachment; filename="leftover-ledger-2026-11-01-to-2027-01-31.csv"');

    const parsed = Papa.parse<string[]>(answer.body, { newline: '\r\n' });
    expect(parsed.errors).toEqual([]);
    const [header, ...rows] = parsed.data;
    expect(header).toEqual([...LEDGER_CSV_COLUMNS]);
    const text = (name: string) => (/^[=+\-@\t\r]/.test(name) ? `'${name}` : name);
    expect(rows).toEqual(
      ledger.transactions.map((row) => [
        row.date,
        text(row.name),
        row.type,
        row.type === 'D' ? row.amount.toFixed(2) : '',
        row.type === 'C' ? row.amount.toFixed(2) : '',
        row.balance.toFixed(2),
        row.status,
        // Bank: no row of this ledger came from a bank.
        '',
      ]),
    );
    // What the ledger has, so the comparison above covers it.
    expect(new Set(ledger.transactions.map((row) => row.status))).toEqual(new Set(['PENDING', 'PAID', 'CLEARED']));
    expect(ledger.transactions.some((row) => row.balance < 0)).toBe(true);
    expect(answer.body).toContain(`\r\n2026-11-25,'=1+1,D,1.10,,`);
    expect(answer.body).toContain(`"Say ""hi"", then pay"`);
    expect(answer.body).toContain('\r\n2026-11-01,Rent,D,1500.00,,-1399.95,PAID,\r\n');
    expect(answer.body).not.toContain('$');
  });

  it('writes names a spreadsheet would run or split as text, whatever their characters', async () => {
    const subject = newSubject('csv-control');
    const user = test.as(subject);
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-11-30', currentBalance: -12.34 } }));
    for (const [index] of CONTROL_NAMES.entries()) {
      okJson(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-02', name: `row ${index}`, type: 'C', amount: 1 }));
    }
    for (const [index, name] of CONTROL_NAMES.entries()) {
      await withLedgerTables(test.app.database.db)
        .updateTable('ledger_transactions')
        .set({ name })
        .where('name', '=', `row ${index}`)
        .where('owner_sub', '=', subject)
        .execute();
    }
    const parsed = Papa.parse<string[]>((await user.get(YOUR_DATA_PATHS.ledgerCsv)).body, { newline: '\r\n' });
    const names = parsed.data.slice(1).map((row) => row[1]);
    expect(names.sort()).toEqual(["'\rReturn first", "'\tTab first", "'=1+1\nsecond line", 'Line\nbreak'].sort());
    expect(parsed.data.slice(1).map((row) => row[5])).toEqual(['-11.34', '-10.34', '-9.34', '-8.34']);
  });

  it('answers 404 for the CSV without a ledger, and an empty export', async () => {
    const user = test.as(newSubject('empty'));
    expectNotFound(await user.get(YOUR_DATA_PATHS.ledgerCsv), NO_LEDGER);
    expect(exportOf(await user.get(YOUR_DATA_PATHS.export))).toEqual({
      format: 'leftover-export',
      version: 2,
      exportedAt: TEST_NOW.toISOString(),
      accounts: [],
      deposits: [],
      expenses: [],
    });
  });

  it('exports every field a restore needs and nothing that names the sign-in account', async () => {
    const subject = newSubject('export');
    const user = test.as(subject);
    await richUser(user);
    const answer = await user.get(YOUR_DATA_PATHS.export);
    const document = exportOf(answer);
    expect(answer.body).not.toContain(subject);
    expect(answer.body).not.toContain(test.issuer.issuer);
    expect(answer.body).not.toMatch(/owner|iss"|sub"|token/i);
    expect(document.accounts.map(({ name, kind, primary, card }) => ({ name, kind, primary, card }))).toEqual([
      { name: 'Checking', kind: 'CHECKING', primary: true, card: null },
    ]);
    const ledger = document.accounts[0]?.ledger;
    if (!ledger) throw new Error('expected a ledger');
    expect(document.deposits).toHaveLength(2);
    expect(new Set([...document.deposits, ...document.expenses].map((schedule) => schedule.accountId))).toEqual(
      new Set([document.accounts[0]?.id]),
    );
    expect(document.expenses.map((expense) => expense.name).sort()).toEqual(['=HYPERLINK("x")', 'Rent']);
    expect(ledger.skippedOccurrences).toEqual([{ kind: 'expense', id: expect.any(String), occurrence: '2027-01-01' }]);
    expect(ledger.importedStatementRows).toHaveLength(2);
    expect(ledger.removedSchedules).toEqual([{ kind: 'expense', id: expect.any(String) }]);
    expect(ledger.transactions.filter((row) => row.source?.edited).map((row) => row.date)).toEqual(['2026-12-02', '2027-01-11']);
    expect(ledger.nextSequence).toBeGreaterThan(Math.max(...ledger.transactions.map((row) => row.sequence)));
    // What the server exports, a restore accepts.
    expect(restoreYourDataRequestSchema.safeParse(document).success).toBe(true);
  });

  it('restores a document into the same user: every read answers byte for byte as before, under new ids', async () => {
    const user = test.as(newSubject('round-trip'));
    await richUser(user);
    const before = await everyRead(user);
    const document = exportOf(await user.get(YOUR_DATA_PATHS.export));
    // Over the data itself, then into nothing after a delete.
    // Every restored row gets a new id (issue 22): nothing a restore answers tells whether anyone holds an id.
    await restore(user, document);
    const restored = await everyRead(user);
    expect(withoutIds(restored)).toEqual(withoutIds(before));
    expect(restored).not.toEqual(before);
    okJson(await user.request('DELETE', YOUR_DATA_PATHS.delete, { confirm: 'DELETE' }));
    await restore(user, document);
    expect(withoutIds(await everyRead(user))).toEqual(withoutIds(before));
    // And it keeps working as it did: a schedule change re-projects only what follows its schedule.
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Gym', amount: 30, day: 20 })));
    expect(byName(ledgerOf(await user.get(LEDGER_PATHS.retrieve)), 'Gym', '2026-12-20').status).toBe('PENDING');
  });

  it('carries Keep at least and everyday spending (issue 36): exported when set, restored with its account, off when left out', async () => {
    const user = test.as(newSubject('spending-settings'));
    await richUser(user);
    const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
    // Never set: the document is what it was before issue 36.
    expect(exportOf(await user.get(YOUR_DATA_PATHS.export)).settings).toBeUndefined();
    okJson(await user.patch(PROFILE, { buffer: 50, everydaySpending: { weekly: 90.5, accountId: savings.id } }));
    const before = await everyRead(user);
    const document = exportOf(await user.get(YOUR_DATA_PATHS.export));
    expect(document.settings).toEqual({ buffer: 50, everydaySpending: { weekly: 90.5, accountId: savings.id } });

    // Deleting everything takes them; the document brings them back, on the restored Savings (a new id).
    okJson(await user.request('DELETE', YOUR_DATA_PATHS.delete, { confirm: 'DELETE' }));
    expect(profileSchema.parse(okJson(await user.get(PROFILE)))).toMatchObject({ buffer: 0, everydaySpending: null });
    await restore(user, document);
    expect(withoutIds(await everyRead(user))).toEqual(withoutIds(before));
    const profile = profileSchema.parse(okJson(await user.get(PROFILE)));
    const restoredSavings = exportOf(await user.get(YOUR_DATA_PATHS.export)).accounts.find((account) => account.name === 'Savings');
    expect(profile).toMatchObject({ buffer: 50, everydaySpending: { weekly: 90.5, accountId: restoredSavings?.id } });
    expect(restoredSavings?.id).not.toBe(savings.id);

    // Left out of the primary account when the document names none; a document without settings turns them off.
    await restore(user, { ...document, settings: { buffer: 0, everydaySpending: { weekly: 20 } } });
    const primary = exportOf(await user.get(YOUR_DATA_PATHS.export)).accounts.find((account) => account.primary);
    expect(profileSchema.parse(okJson(await user.get(PROFILE)))).toMatchObject({
      buffer: 0,
      everydaySpending: { weekly: 20, accountId: primary?.id },
    });
    await restore(user, { ...document, settings: undefined });
    expect(profileSchema.parse(okJson(await user.get(PROFILE)))).toMatchObject({ buffer: 0, everydaySpending: null });

    // Bad settings: 400 per field, nothing changed.
    const now = await everyRead(user);
    expectBadRequest(await user.post(YOUR_DATA_PATHS.restore, { ...document, settings: { buffer: -1, everydaySpending: null } }), {
      'settings.buffer': 'Keep at least must be from $0.00 to $1,000,000.00.',
    });
    expectBadRequest(
      await user.post(YOUR_DATA_PATHS.restore, {
        ...document,
        settings: { buffer: 5, everydaySpending: { weekly: 10, accountId: 'elsewhere' } },
      }),
      { 'settings.everydaySpending.accountId': 'Account must name an account of the document.' },
    );
    expect(await everyRead(user)).toEqual(now);
  });

  it('refuses a document with a problem, names its path, and changes nothing', async () => {
    const user = test.as(newSubject('refusals'));
    await richUser(user);
    const document = exportOf(await user.get(YOUR_DATA_PATHS.export));
    const [account] = document.accounts as [YourDataExport['accounts'][number]];
    const ledger = account.ledger as NonNullable<YourDataExport['accounts'][number]['ledger']>;
    /** The document with its one account's ledger replaced. */
    const withLedger = (replaced: unknown) => ({ ...document, accounts: [{ ...account, ledger: replaced }] });
    const [first, second] = ledger.transactions as [LedgerTransaction & { sequence: number }, LedgerTransaction & { sequence: number }];
    const sourced = ledger.transactions.findIndex((row) => row.source?.kind === 'deposit');
    const cases: { label: string; body: unknown; fields: Record<string, string> }[] = [
      {
        label: 'unknown version',
        body: { ...document, version: 3 },
        fields: { version: "This export's version is not one this server can read: version must be 1 or 2." },
      },
      {
        label: 'not an export',
        body: { ...document, format: 'other' },
        fields: { format: 'This is not a Leftover export: format must be "leftover-export".' },
      },
      {
        label: 'a bad field',
        body: { ...document, deposits: [{ ...document.deposits[0], amount: -5 }, document.deposits[1]] },
        fields: { 'deposits.0.amount': 'Amount must be greater than 0.' },
      },
      {
        label: 'duplicate schedule ids',
        body: { ...document, expenses: [document.expenses[0], { ...document.expenses[1], id: document.deposits[0]?.id }] },
        fields: { 'expenses.1.id': 'Id appears twice in the document.' },
      },
      {
        label: 'duplicate row ids',
        body: withLedger({ ...ledger, transactions: [first, { ...second, id: first.id }, ...ledger.transactions.slice(2)] }),
        fields: { 'accounts.0.ledger.transactions.1.id': 'Id appears twice in the document.' },
      },
      {
        label: 'a row outside its ledger',
        body: withLedger({
          ...ledger,
          transactions: ledger.transactions.map((row, index) => (index === 3 ? { ...row, date: '2027-02-01' } : row)),
        }),
        fields: { 'accounts.0.ledger.transactions.3.date': 'Date must be between 2026-11-01 and 2027-01-31.' },
      },
      {
        label: 'a source naming no schedule of the document',
        body: withLedger({
          ...ledger,
          transactions: ledger.transactions.map((row, index) =>
            index === sourced && row.source ? { ...row, source: { ...row.source, id: '0190a1b2-0000-7000-8000-000000000000' } } : row,
          ),
        }),
        fields: {
          [`accounts.0.ledger.transactions.${sourced}.source.id`]: 'Source must name a deposit of the document or a removed schedule.',
        },
      },
      { label: 'a bad body', body: [], fields: { body: 'The request body must be a JSON object.' } },
    ];
    const snapshot = await test.snapshot();
    for (const { label, body, fields } of cases) {
      const answer = await user.post(YOUR_DATA_PATHS.restore, body);
      expect(answer.statusCode, label).toBe(400);
      expectBadRequest(answer, fields);
    }
    const tooLarge = await user.post(YOUR_DATA_PATHS.restore, { ...document, exportedAt: 'x'.repeat(RESTORE_BODY_LIMIT_BYTES) });
    expect(tooLarge.statusCode).toBe(413);
    const unconfirmed = await user.request('DELETE', YOUR_DATA_PATHS.delete, { confirm: 'delete' });
    expectBadRequest(unconfirmed, { confirm: 'Type DELETE to confirm.' });
    expect(await test.snapshot()).toBe(snapshot);
  });

  it('deletes every row the user has: afterwards every read answers as for a new user', async () => {
    const user = test.as(newSubject('delete'));
    const ledger = await richUser(user);
    const newUser = await everyRead(test.as(newSubject('never-seen')));
    const answer = yourDataCountsSchema.parse(okJson(await user.request('DELETE', YOUR_DATA_PATHS.delete, { confirm: 'DELETE' })));
    expect(answer).toEqual({ deposits: 2, expenses: 2, transactions: ledger.transactions.length });
    expect(await everyRead(user)).toEqual(newUser);
    const left = await Promise.all(
      (
        [
          'accounts',
          'deposits',
          'expenses',
          'ledgers',
          'ledger_transactions',
          'ledger_skipped_occurrences',
          'ledger_imported_rows',
        ] as const
      ).map(
        async (table) =>
          (
            await withLedgerTables(test.app.database.db)
              .selectFrom(table)
              .select('owner_sub')
              .where('owner_sub', 'like', 'delete-%')
              .execute()
          ).length,
      ),
    );
    expect(left).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('keeps two users apart: exports, restores (whatever ids the document carries) and deletes', async () => {
    const alice = test.as(newSubject('alice'));
    const bob = test.as(newSubject('bob'));
    await richUser(alice);
    okJson(await bob.post(EXPENSES_PATHS.add, expenseInput({ name: 'Bob only', amount: 7, day: 3 })));
    okJson(await bob.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 5 } }));
    const aliceReads = await everyRead(alice);
    const bobReads = await everyRead(bob);
    const aliceDocument = exportOf(await alice.get(YOUR_DATA_PATHS.export));
    const bobDocument = exportOf(await bob.get(YOUR_DATA_PATHS.export));
    expect(JSON.stringify(aliceDocument)).not.toContain('Bob only');

    // Alice's document into Bob while Alice still has it: new ids, nothing else differs, Alice untouched.
    await restore(bob, aliceDocument);
    const restored = await everyRead(bob);
    expect(withoutIds(restored)).toEqual(withoutIds(aliceReads));
    expect(restored).not.toEqual(aliceReads);
    expect(await everyRead(alice)).toEqual(aliceReads);

    // Bob's old document into Alice: new ids again, whoever holds the document's; Bob untouched.
    const bobNow = await everyRead(bob);
    await restore(alice, bobDocument);
    expect(withoutIds(await everyRead(alice))).toEqual(withoutIds(bobReads));
    expect(await everyRead(bob)).toEqual(bobNow);

    // Bob deletes everything: Alice keeps hers.
    const aliceNow = await everyRead(alice);
    okJson(await bob.request('DELETE', YOUR_DATA_PATHS.delete, { confirm: 'DELETE' }));
    expect(await everyRead(alice)).toEqual(aliceNow);
  });
});

describe.runIf(databaseKinds().length === 2)('restoring across databases', () => {
  it.each([
    ['sqlite', 'postgres'],
    ['postgres', 'sqlite'],
  ] as const)('exported from %s, restored into %s: every read answers byte for byte as before, under new ids', async (from, to) => {
    const subject = newSubject(`across-${from}`);
    const source = appOn(from).as(subject);
    await richUser(source);
    const before = await everyRead(source);
    const document = exportOf(await source.get(YOUR_DATA_PATHS.export));
    const target = appOn(to).as(subject);
    await restore(target, document);
    expect(withoutIds(await everyRead(target))).toEqual(withoutIds(before));
  });
});
