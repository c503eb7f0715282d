/**
 * Bank statements in (issue 14) through the API, on SQLite and (with TEST_POSTGRES_URL)
 * PostgreSQL: preview and import of every sample against the samples' matching ledger, re-import,
 * rows outside the ledger, decisions that override the proposals and decisions that are refused,
 * refused and oversized files, a CSV that needs its columns chosen, another user's rows, and text
 * that looks like a formula. Every test signs in as its own user; one app per database. A refusal
 * is checked against a snapshot of the whole database: nothing may change.
 */
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/errors.js';
import { type Ledger, LEDGER_PATHS, type LedgerTransaction } from '../../src/contract/ledger.js';
import {
  MAX_STATEMENT_CHARACTERS,
  STATEMENT_BODY_LIMIT_BYTES,
  STATEMENT_PATHS,
  type StatementImport,
  statementImportSchema,
  type StatementPreview,
  statementPreviewSchema,
} from '../../src/contract/statements.js';
import { DEPOSITS_PATHS, depositsInfoSchema } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { expectBadRequest, expectNotFound, newSubject, ROW_ID } from '../support/api-expectations.js';
import { depositInput, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

const NO_LEDGER = 'You have no ledger yet: create one first.';
const DECISIONS_REFUSED = 'Some decisions cannot be applied to this statement.';
const FIXTURES = new URL('../fixtures/statements/', import.meta.url);
const fixture = (name: string): string => fs.readFileSync(new URL(name, FIXTURES), 'utf8');

/** The samples' four files that hold the same eight January 2027 transactions and the bank's $1,177.37. */
const SAMPLES = ['checking-ofx1-sgml.ofx', 'checking-ofx2-xml.ofx', 'checking-posting-date.csv', 'credit-union-debit-credit.csv'];
const OFX = 'checking-ofx1-sgml.ofx';

const RECONCILED = { bankBalance: 1177.37, date: '2027-01-16', leftover: 1177.37, difference: 0 };
const ALL_NEW = { matched: 0, added: 0, duplicates: 0, outside: 0, skipped: 0 };

function previewOf(response: LightMyRequestResponse): StatementPreview {
  return statementPreviewSchema.parse(okJson(response));
}

function importOf(response: LightMyRequestResponse): StatementImport {
  return statementImportSchema.parse(okJson(response));
}

function rowAt(ledger: Ledger, name: string, date: string): LedgerTransaction {
  const row = ledger.transactions.find((candidate) => candidate.name === name && candidate.date === date);
  if (!row) throw new Error(`no row ${name} on ${date} in ${JSON.stringify(ledger.transactions)}`);
  return row;
}

/** The preview's rows as "date amount action", in the file's order, with a match named by its ledger row. */
function actionsOf(preview: StatementPreview, ledger: Ledger): string[] {
  const names = new Map(ledger.transactions.map((row) => [row.id, `${row.name} ${row.date}`]));
  return preview.rows.map(
    (row) => `${row.date} ${row.type}${row.amount} ${row.action}${row.matchId ? ` ${names.get(row.matchId) ?? 'someone else'}` : ''}`,
  );
}

describe.each(databaseKinds())('statements on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  /**
   * A new user with the samples' matching ledger (README): Acme's $1,000 every other Friday from
   * 2027-01-01, Rent $1,200 on the 1st, Phone $50.55 on the 15th, January 2027, $500 now.
   */
  async function matchingLedger(label: string): Promise<{ client: UserClient; ledger: Ledger }> {
    const client = test.as(newSubject(label));
    depositsInfoSchema.parse(
      okJson(await client.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2027-01-01', frequency: 'BW' }))),
    );
    expensesInfoSchema.parse(okJson(await client.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1200, day: 1 }))));
    expensesInfoSchema.parse(okJson(await client.post(EXPENSES_PATHS.add, expenseInput({ name: 'Phone', amount: 50.55, day: 15 }))));
    const ledger = ledgerOf(
      await client.post(LEDGER_PATHS.create, { ledger: { startDate: '2027-01-01', endDate: '2027-01-31', currentBalance: 500 } }),
    );
    expect(ledger.transactions.map((row) => `${row.date} ${row.name} ${row.type}${row.amount}`)).toEqual([
      '2027-01-01 Acme Paycheck C1000',
      '2027-01-01 Rent D1200',
      '2027-01-15 Acme Paycheck C1000',
      '2027-01-15 Phone D50.55',
      '2027-01-29 Acme Paycheck C1000',
    ]);
    return { client, ledger };
  }

  const preview = async (client: UserClient, fileName: string, content = fixture(fileName), extra: object = {}) =>
    client.post(STATEMENT_PATHS.preview, { fileName, content, ...extra });
  const importFile = async (client: UserClient, fileName: string, content = fixture(fileName), extra: object = {}) =>
    client.post(STATEMENT_PATHS.import, { fileName, content, ...extra });

  /** The refusal, and the whole database exactly as it was. */
  async function expectRefusedAndUnchanged(send: () => Promise<LightMyRequestResponse>, check: (response: LightMyRequestResponse) => void) {
    const before = await test.snapshot();
    check(await send());
    expect(await test.snapshot()).toBe(before);
  }

  it('answers 404 without a ledger, for a preview and an import, and stores nothing', async () => {
    const client = test.as(newSubject('statement-no-ledger'));
    await expectRefusedAndUnchanged(
      () => preview(client, OFX),
      (response) => expectNotFound(response, NO_LEDGER),
    );
    await expectRefusedAndUnchanged(
      () => importFile(client, OFX),
      (response) => expectNotFound(response, NO_LEDGER),
    );
    expect(okJson(await client.get(LEDGER_PATHS.retrieve))).toEqual({ ledger: null });
  });

  it.each(SAMPLES)(
    '%s: previews 4 matches and 4 new rows, imports them CLEARED on the bank’s dates, reconciles, and a second import changes nothing',
    async (fileName) => {
      const { client, ledger } = await matchingLedger('statement-sample');
      const before = await test.snapshot();
      const proposed = previewOf(await preview(client, fileName));
      // A preview stores nothing.
      expect(await test.snapshot()).toBe(before);
      expect(proposed.format).toBe(fileName.endsWith('.csv') ? 'csv' : 'ofx');
      expect(proposed.needsMapping).toBe(false);
      expect(proposed.bank).toEqual({ balance: 1177.37, date: '2027-01-16' });
      expect(proposed.reconciliation).toEqual(RECONCILED);
      expect([...actionsOf(proposed, ledger)].sort()).toEqual([
        '2027-01-01 C1000 match Acme Paycheck 2027-01-01',
        '2027-01-02 D1200 match Rent 2027-01-01',
        '2027-01-03 D54.23 new',
        '2027-01-06 D4.75 new',
        '2027-01-09 D38.1 new',
        '2027-01-10 C25 new',
        '2027-01-15 C1000 match Acme Paycheck 2027-01-15',
        '2027-01-16 D50.55 match Phone 2027-01-15',
      ]);
      expect(proposed.rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

      const imported = importOf(await importFile(client, fileName));
      expect(imported.imported).toEqual({ matched: 4, added: 4, duplicates: 0, outside: 0, skipped: 0 });
      expect(imported.bank).toEqual({ balance: 1177.37, date: '2027-01-16' });
      expect(imported.reconciliation).toEqual(RECONCILED);
      const after = imported.ledger as Ledger;
      expect(after.currentBalance).toBe(1177.37);

      // Matched rows keep their id, name and amount, become CLEARED and take the bank's date; Rent was paid a day late.
      const rent = rowAt(ledger, 'Rent', '2027-01-01');
      const phone = rowAt(ledger, 'Phone', '2027-01-15');
      const firstPay = rowAt(ledger, 'Acme Paycheck', '2027-01-01');
      const secondPay = rowAt(ledger, 'Acme Paycheck', '2027-01-15');
      const byId = new Map(after.transactions.map((row) => [row.id, row]));
      expect(byId.get(rent.id)).toMatchObject({ name: 'Rent', amount: 1200, date: '2027-01-02', status: 'CLEARED' });
      expect(byId.get(phone.id)).toMatchObject({ name: 'Phone', amount: 50.55, date: '2027-01-16', status: 'CLEARED' });
      expect(byId.get(firstPay.id)).toMatchObject({ date: '2027-01-01', status: 'CLEARED', source: firstPay.source });
      expect(byId.get(secondPay.id)).toMatchObject({ date: '2027-01-15', status: 'CLEARED', source: secondPay.source });
      // A generated row the bank moved counts as edited (decision 0016): no schedule change touches it again.
      expect(byId.get(rent.id)?.source).toEqual({ ...rent.source, edited: true });
      expect(byId.get(rowAt(ledger, 'Acme Paycheck', '2027-01-29').id)).toMatchObject({ status: 'PENDING' });

      const added = after.transactions.filter((row) => !ledger.transactions.some((old) => old.id === row.id));
      expect(added.map((row) => [row.date, row.type, row.amount, row.status, row.source])).toEqual([
        ['2027-01-03', 'D', 54.23, 'CLEARED', null],
        ['2027-01-06', 'D', 4.75, 'CLEARED', null],
        ['2027-01-09', 'D', 38.1, 'CLEARED', null],
        ['2027-01-10', 'C', 25, 'CLEARED', null],
      ]);
      for (const row of added) expect(row.id).toMatch(ROW_ID);
      expect(added[0]?.name).toMatch(/^(ONLINE PAYMENT \d+ TO )?WAL-MART #1234/);

      // The import answers the ledger exactly as a following GET does.
      expect(okJson(await client.get(LEDGER_PATHS.retrieve))).toEqual({ ledger: after });

      // Importing the same file again: every row was imported before, and nothing changes.
      const again = previewOf(await preview(client, fileName));
      expect(again.rows.map((row) => row.action)).toEqual(Array(8).fill('duplicate'));
      expect(again.reconciliation).toEqual(RECONCILED);
      const unchanged = await test.snapshot();
      const second = importOf(await importFile(client, fileName));
      expect(second.imported).toEqual({ ...ALL_NEW, duplicates: 8 });
      expect(second.ledger).toEqual(after);
      expect(await test.snapshot()).toBe(unchanged);
    },
  );

  it('says "outside" for a row dated outside the ledger, and skips it', async () => {
    const { client } = await matchingLedger('statement-outside');
    const content = 'Date,Description,Amount\n2026-12-31,OLD COFFEE,-3.50\n2027-01-20,BOOKSTORE,-12.00\n2027-02-01,LATE COFFEE,-4.00\n';
    const proposed = previewOf(await preview(client, 'outside.csv', content));
    expect(proposed.rows.map((row) => [row.date, row.action])).toEqual([
      ['2026-12-31', 'outside'],
      ['2027-01-20', 'new'],
      ['2027-02-01', 'outside'],
    ]);
    expect(proposed.bank).toBeNull();
    expect(proposed.reconciliation).toBeNull();
    const imported = importOf(await importFile(client, 'outside.csv', content));
    expect(imported.imported).toEqual({ ...ALL_NEW, added: 1, outside: 2 });
    expect(imported.ledger?.transactions.filter((row) => row.status === 'CLEARED').map((row) => row.name)).toEqual(['BOOKSTORE']);
    // Rows outside are not remembered: extended to February, the ledger could take the late one in.
    expect(previewOf(await preview(client, 'outside.csv', content)).rows.map((row) => row.action)).toEqual([
      'outside',
      'duplicate',
      'outside',
    ]);
  });

  it('applies decisions that override the proposals: a match made new, a match to another open row, a skip', async () => {
    const { client, ledger } = await matchingLedger('statement-decisions');
    const proposed = previewOf(await preview(client, OFX));
    const indexOf = (date: string, amount: number) => {
      const row = proposed.rows.find((candidate) => candidate.date === date && candidate.amount === amount);
      if (!row) throw new Error(`no statement row ${date} ${amount}`);
      return row.index;
    };
    const lastPay = rowAt(ledger, 'Acme Paycheck', '2027-01-29');
    const decisions = [
      { index: indexOf('2027-01-02', 1200), action: 'new' },
      // The 5-day window only limits what is proposed: the user may match any open row of the same type and amount.
      { index: indexOf('2027-01-15', 1000), action: 'match', matchId: lastPay.id },
      { index: indexOf('2027-01-06', 4.75), action: 'skip' },
    ];
    const imported = importOf(await importFile(client, OFX, undefined, { decisions }));
    expect(imported.imported).toEqual({ matched: 3, added: 4, duplicates: 0, outside: 0, skipped: 1 });
    const after = imported.ledger as Ledger;
    const byId = new Map(after.transactions.map((row) => [row.id, row]));
    // Rent stays open; the bank's payment is a row of its own.
    expect(byId.get(rowAt(ledger, 'Rent', '2027-01-01').id)).toMatchObject({ status: 'PENDING', date: '2027-01-01' });
    expect(rowAt(after, 'OAKWOOD APTS', '2027-01-02')).toMatchObject({ status: 'CLEARED', amount: 1200, source: null });
    // The 01-29 paycheck took the bank's 01-15 date; the 01-15 one is still open.
    expect(byId.get(lastPay.id)).toMatchObject({ status: 'CLEARED', date: '2027-01-15', source: { ...lastPay.source, edited: true } });
    expect(byId.get(rowAt(ledger, 'Acme Paycheck', '2027-01-15').id)).toMatchObject({ status: 'PENDING' });
    expect(after.transactions.some((row) => row.amount === 4.75)).toBe(false);
    // Leftover misses the skipped coffee: the difference says so.
    expect(imported.reconciliation).toEqual({ ...RECONCILED, leftover: 1182.12, difference: -4.75 });
    // A skipped row was not imported: the next preview offers it again, the rest are duplicates.
    const next = previewOf(await preview(client, OFX));
    expect(next.rows.filter((row) => row.action !== 'duplicate').map((row) => [row.date, row.action])).toEqual([['2027-01-06', 'new']]);
  });

  it('refuses decisions that cannot be applied with a message per decision, and changes nothing', async () => {
    const { client, ledger } = await matchingLedger('statement-bad-decisions');
    const proposed = previewOf(await preview(client, OFX));
    const indexOf = (date: string) => proposed.rows.find((row) => row.date === date)?.index as number;
    const rent = rowAt(ledger, 'Rent', '2027-01-01');
    const firstPay = rowAt(ledger, 'Acme Paycheck', '2027-01-01');
    // The last paycheck cleared by hand: no longer open.
    const lastPay = rowAt(ledger, 'Acme Paycheck', '2027-01-29');
    okJson(await client.patch(LEDGER_PATHS.updateTransaction, { ...lastPay, status: 'CLEARED' }));

    const refused = async (decisions: unknown[], fields: Record<string, string>, message = DECISIONS_REFUSED) =>
      expectRefusedAndUnchanged(
        () => importFile(client, OFX, undefined, { decisions }),
        (response) => expectBadRequest(response, fields, message),
      );
    await refused([{ index: indexOf('2027-01-15'), action: 'match', matchId: lastPay.id }], {
      'decisions.0': 'Acme Paycheck (2027-01-29) is already cleared.',
    });
    await refused([{ index: indexOf('2027-01-06'), action: 'match', matchId: rent.id }], {
      'decisions.0': 'Rent (2027-01-01) is not a debit of the same amount.',
    });
    await refused([{ index: indexOf('2027-01-15'), action: 'match', matchId: firstPay.id }], {
      'decisions.0': `Acme Paycheck (2027-01-01) is already matched to row ${indexOf('2027-01-01')}.`,
    });
    await refused(
      [
        { index: 0, action: 'new' },
        { index: 99, action: 'new' },
        { index: 0, action: 'skip' },
      ],
      { 'decisions.1': 'The statement has no row 99.', 'decisions.2': 'Row 0 has another decision.' },
    );
    await refused([{ index: indexOf('2027-01-03'), action: 'match', matchId: '4b1d0d4e-0000-4000-8000-000000000000' }], {
      'decisions.0': 'The ledger has no row 4b1d0d4e-0000-4000-8000-000000000000.',
    });
    // The contract refuses what is not a decision at all.
    await refused(
      [{ index: -1, action: 'clear' }],
      {
        'decisions.0.index': 'Row must be a whole number from 0 to 9007199254740991.',
        'decisions.0.action': 'Action must be match, new or skip.',
      },
      'Some fields need attention.',
    );

    // Once imported, a row can only be skipped.
    importOf(await importFile(client, OFX));
    await refused([{ index: 0, action: 'match', matchId: firstPay.id }], {
      'decisions.0': 'Row 0 was imported before: it can only be skipped.',
    });
    await refused([{ index: 0, action: 'new' }], { 'decisions.0': 'Row 0 was imported before: it can only be skipped.' });
    expect(importOf(await importFile(client, OFX, undefined, { decisions: [{ index: 0, action: 'skip' }] })).imported).toEqual({
      ...ALL_NEW,
      duplicates: 8,
    });
  });

  it('refuses a file it cannot read with 400 saying where, and stores nothing', async () => {
    const { client } = await matchingLedger('statement-refused');
    const contentError = (pattern: RegExp) => (response: LightMyRequestResponse) => {
      expect(response.statusCode, response.body).toBe(400);
      const { error } = errorBodySchema.parse(response.json());
      expect(error.code).toBe('bad_request');
      expect(Object.keys(error.fields ?? {})).toEqual(['content']);
      expect(error.fields?.content).toMatch(pattern);
    };
    for (const send of [preview, importFile]) {
      await expectRefusedAndUnchanged(() => send(client, 'statement.ofx', 'this is not a statement at all'), contentError(/OFX/));
      await expectRefusedAndUnchanged(() => send(client, 'statement.csv', 'hello\nworld\n'), contentError(/not a statement/));
      await expectRefusedAndUnchanged(() => send(client, 'statement.csv', '\u0000\u0001PK\u0003\u0004'), contentError(/not text/));
      await expectRefusedAndUnchanged(() => send(client, 'statement.csv', ''), contentError(/empty/));
      await expectRefusedAndUnchanged(
        () => send(client, 'ofx1-missing-dtposted.ofx', fixture('ofx1-missing-dtposted.ofx')),
        contentError(/DTPOSTED is missing/),
      );
      await expectRefusedAndUnchanged(
        () => send(client, 'broken.csv', 'Date,Description,Amount\n2027-01-03,"WAL-MART,-54.23\n'),
        contentError(/^Line 2: a quoted field is not closed\.$/),
      );
    }
  });

  it('answers 413 for a statement over 2 MB or a body over the route’s limit, and stores nothing; exactly 2 MB is read', async () => {
    const { client } = await matchingLedger('statement-large');
    const tooLarge = (response: LightMyRequestResponse, fields?: Record<string, string>) => {
      expect(response.statusCode, response.body.slice(0, 300)).toBe(413);
      const body = errorBodySchema.parse(response.json());
      expect(body.error.code).toBe('payload_too_large');
      if (fields) expect(body.error.fields).toEqual(fields);
    };
    const message = 'The statement is over 2 MB: export a shorter period.';
    const ofx = fixture(OFX);
    const over = ofx + ' '.repeat(MAX_STATEMENT_CHARACTERS + 1 - ofx.length);
    for (const send of [preview, importFile]) {
      await expectRefusedAndUnchanged(
        () => send(client, OFX, over),
        (response) => tooLarge(response, { content: message }),
      );
      // Past the route's body limit Fastify refuses before parsing, in the same error body.
      await expectRefusedAndUnchanged(
        () => send(client, OFX, 'x'.repeat(STATEMENT_BODY_LIMIT_BYTES)),
        (response) => tooLarge(response),
      );
    }
    // 2 MiB characters of line breaks, each escaped to two bytes of JSON: still within the body limit, and read.
    const exactly = ofx + '\n'.repeat(MAX_STATEMENT_CHARACTERS - ofx.length);
    expect(previewOf(await preview(client, OFX, exactly)).rows).toHaveLength(8);
    // Every other call keeps the app's small limit.
    expect((await client.post(LEDGER_PATHS.addTransaction, { name: 'x'.repeat(200_000) })).statusCode).toBe(413);
  });

  it('asks for columns when a CSV has no header it knows, then reads it with the mapping', async () => {
    const { client, ledger } = await matchingLedger('statement-mapping');
    const content = fixture('no-header.csv');
    const asked = previewOf(await preview(client, 'no-header.csv', content));
    expect(asked).toEqual({
      format: 'csv',
      needsMapping: true,
      columns: {
        count: 5,
        firstRows: [
          ['01/01/2027', '1000.00', '*', '', 'ACME CORP PAYROLL'],
          ['01/02/2027', '-1200.00', '*', '', 'OAKWOOD APTS ONLINE PAYMENT'],
          ['01/03/2027', '-54.23', '*', '', 'WAL-MART #1234'],
          ['01/06/2027', '-4.75', '*', '', 'STARBUCKS STORE 05678'],
          ['01/09/2027', '-38.10', '*', '', 'SHELL OIL 57444'],
        ],
      },
      rows: [],
      bank: null,
      reconciliation: null,
    });
    await expectRefusedAndUnchanged(
      () => importFile(client, 'no-header.csv', content),
      (response) =>
        expectBadRequest(
          response,
          { mapping: 'Choose the date, description and amount columns before importing this file.' },
          'Choose the date, description and amount columns before importing this file.',
        ),
    );
    await expectRefusedAndUnchanged(
      () => preview(client, 'no-header.csv', content, { mapping: { date: 0, description: 4, dateFormat: 'MM/DD/YYYY' } }),
      (response) => expectBadRequest(response, { 'mapping.amount': 'Choose an Amount column, or both a Debit and a Credit column.' }),
    );
    await expectRefusedAndUnchanged(
      () => preview(client, 'no-header.csv', content, { mapping: { date: 0, description: 4, amount: 7, dateFormat: 'MM/DD/YYYY' } }),
      (response) => {
        const message = 'Column 7 does not exist: the file has 5 columns (0 to 4).';
        expectBadRequest(response, { mapping: message }, message);
      },
    );

    const mapping = { date: 0, description: 4, amount: 1, dateFormat: 'MM/DD/YYYY' };
    const mapped = previewOf(await preview(client, 'no-header.csv', content, { mapping }));
    expect(mapped.needsMapping).toBe(false);
    expect(mapped.rows.map((row) => row.description)).toContain('OAKWOOD APTS ONLINE PAYMENT');
    expect([...actionsOf(mapped, ledger)].filter((action) => action.includes('match')).sort()).toEqual([
      '2027-01-01 C1000 match Acme Paycheck 2027-01-01',
      '2027-01-02 D1200 match Rent 2027-01-01',
      '2027-01-15 C1000 match Acme Paycheck 2027-01-15',
      '2027-01-16 D50.55 match Phone 2027-01-15',
    ]);
    const imported = importOf(await importFile(client, 'no-header.csv', content, { mapping }));
    expect(imported.imported).toEqual({ ...ALL_NEW, matched: 4, added: 4 });
    // No balance column in a mapping: nothing to reconcile against.
    expect(imported.reconciliation).toBeNull();
  });

  it("never matches another user's rows: two users with the same ledger each import only into their own", async () => {
    const alice = await matchingLedger('statement-alice');
    const bob = await matchingLedger('statement-bob');
    const aliceBefore = okJson(await alice.client.get(LEDGER_PATHS.retrieve));
    const bobIds = new Set(bob.ledger.transactions.map((row) => row.id));

    const proposed = previewOf(await preview(bob.client, OFX));
    const matchIds = proposed.rows.flatMap((row) => (row.matchId ? [row.matchId] : []));
    expect(matchIds).toHaveLength(4);
    for (const id of matchIds) expect(bobIds.has(id)).toBe(true);
    // Naming Alice's row is the same as naming none.
    const aliceRent = rowAt(alice.ledger, 'Rent', '2027-01-01');
    await expectRefusedAndUnchanged(
      () => importFile(bob.client, OFX, undefined, { decisions: [{ index: 1, action: 'match', matchId: aliceRent.id }] }),
      (response) => expectBadRequest(response, { 'decisions.0': `The ledger has no row ${aliceRent.id}.` }, DECISIONS_REFUSED),
    );

    expect(importOf(await importFile(bob.client, OFX)).imported).toEqual({ ...ALL_NEW, matched: 4, added: 4 });
    expect(okJson(await alice.client.get(LEDGER_PATHS.retrieve))).toEqual(aliceBefore);
    // Bob's import is Bob's: Alice's preview of the same file still proposes her own matches.
    const alicePreview = previewOf(await preview(alice.client, OFX));
    expect(alicePreview.rows.filter((row) => row.action === 'match')).toHaveLength(4);
    expect(alicePreview.rows.some((row) => row.action === 'duplicate')).toBe(false);
  });

  it('stores a description that looks like a formula as text', async () => {
    const { client } = await matchingLedger('statement-formulas');
    const imported = importOf(await importFile(client, 'signed-debit-and-text-formulas.csv'));
    const names = (imported.ledger as Ledger).transactions.filter((row) => row.source === null).map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining(['=HYPERLINK("http://evil.example")', '+1 PHONE', '-SHELL', '@HOME DEPOT']));
  });

  it('forgets what a ledger took in when the ledger is replaced', async () => {
    const { client } = await matchingLedger('statement-replaced');
    importOf(await importFile(client, OFX));
    const ledger = ledgerOf(
      await client.post(LEDGER_PATHS.create, { ledger: { startDate: '2027-01-01', endDate: '2027-01-31', currentBalance: 500 } }),
    );
    const proposed = previewOf(await preview(client, OFX));
    expect(proposed.rows.filter((row) => row.action === 'match').map((row) => row.matchId)).toEqual(
      expect.arrayContaining([rowAt(ledger, 'Rent', '2027-01-01').id]),
    );
    expect(proposed.rows.some((row) => row.action === 'duplicate')).toBe(false);
  });
});
