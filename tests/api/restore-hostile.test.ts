/**
 * Restore against hostile documents (issue 22, findings 6 and 8), on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL: creation-order numbers at the top of the integer range are
 * renumbered, so later writes and a re-restore keep working; every restored row gets a new id, so
 * a document naming another user's ids answers as any other and reveals nothing; numbers out of
 * range are refused per field and change nothing. One app per database for the whole file.
 */
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { YOUR_DATA_PATHS, type YourDataExport, yourDataCountsSchema, yourDataExportSchema } from '../../src/contract/your-data.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { withId } from '../../src/contract/common.js';
import { type Ledger, LEDGER_PATHS, type LedgerTransaction } from '../../src/contract/ledger.js';
import { STATEMENT_PATHS } from '../../src/contract/statements.js';
import { computeBalances } from '../../src/domain/balances.js';
import { isoDate } from '../../src/domain/calendar-date.js';
import { centsToDollars, dollarsToCents } from '../../src/domain/money.js';
import { MAX_KEPT_NEXT_SEQUENCE } from '../../src/server/your-data/your-data.js';
import { expectBadRequest, newSubject } from '../support/api-expectations.js';
import { byName, depositInput, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type TestApp, type UserClient } from '../support/test-app.js';

/** The largest value of PostgreSQL's integer (int4) column: sequences and next sequences are stored in one. */
const INT4_MAX = 2_147_483_647;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

type ExportedLedger = NonNullable<YourDataExport['accounts'][number]['ledger']>;

/** The document with its first account's ledger replaced (version 2, decision 0042: ledgers are in their accounts). */
function withLedger(document: YourDataExport, ledger: unknown): YourDataExport {
  const [first, ...rest] = document.accounts;
  if (!first) throw new Error('expected an account');
  return { ...document, accounts: [{ ...first, ledger: ledger as ExportedLedger }, ...rest] };
}

const appOn = appsOnEveryDatabase();

/**
 * A user with every kind of row a restore carries: schedules, generated and hand-added rows (two
 * that tie on date, type and name, so only creation order tells them apart), a skipped occurrence
 * and an imported statement row.
 */
async function userWithData(user: UserClient): Promise<void> {
  okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2026-11-06', frequency: 'BW' })));
  okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1500, day: 1 })));
  okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2027-01-31', currentBalance: 100.05 } }));
  okJson(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-25', name: 'Twin', type: 'D', amount: 1 }));
  okJson(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-25', name: 'Twin', type: 'D', amount: 2 }));
  const ledger = ledgerOf(await user.get(LEDGER_PATHS.retrieve));
  okJson(await user.delete(withId(LEDGER_PATHS.transaction, byName(ledger, 'Rent', '2027-01-01').id)));
  const content = 'Date,Description,Amount\n2026-11-27,Coffee,-4.50\n';
  okJson(await user.post(STATEMENT_PATHS.import, { fileName: 'statement.csv', content }));
}

const EVERY_READ = [DEPOSITS_PATHS.retrieve, EXPENSES_PATHS.retrieve, LEDGER_PATHS.retrieve, LEDGER_PATHS.forecast, YOUR_DATA_PATHS.export];

/** Every read's status and body, as text: two users with equal reads have the same data. */
async function everyRead(user: UserClient): Promise<string[]> {
  const answers: string[] = [];
  for (const path of EVERY_READ) {
    const answer = await user.get(path);
    answers.push(`${path} ${answer.statusCode}\n${answer.body}`);
  }
  return answers;
}

/** The reads with every id replaced by its place of first appearance: equal when only the ids differ. */
function withoutIds(reads: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return reads.map((read) =>
    read.replace(UUID, (id) => {
      if (!seen.has(id)) seen.set(id, seen.size);
      return `<id ${seen.get(id)}>`;
    }),
  );
}

function idsIn(text: string): Set<string> {
  return new Set(text.match(UUID) ?? []);
}

/**
 * The document with every id replaced by a new random one, consistently, in the same code-unit
 * order (lists break ties of creation time by id): the same data under ids nobody holds.
 */
function withFreshIds(document: YourDataExport): YourDataExport {
  const text = JSON.stringify(document);
  const old = [...idsIn(text)].sort();
  const fresh = old.map(() => crypto.randomUUID()).sort();
  const ids = new Map(old.map((id, index) => [id, fresh[index] as string]));
  return yourDataExportSchema.parse(JSON.parse(text.replace(UUID, (id) => ids.get(id) ?? id)));
}

function exportOf(user: UserClient): Promise<YourDataExport> {
  return user.get(YOUR_DATA_PATHS.export).then((answer) => yourDataExportSchema.parse(okJson(answer)));
}

function ledgerOfExport(document: YourDataExport): ExportedLedger {
  const ledger = document.accounts[0]?.ledger;
  if (!ledger) throw new Error('expected a ledger');
  return ledger;
}

/** A row's schedule without its id, which a restore renews. */
function sourceWithoutId(source: LedgerTransaction['source']) {
  return source && { kind: source.kind, occurrence: source.occurrence, edited: source.edited };
}

/** The ledger answer the rows of a document make, ids aside: row order and balances as the domain derives them. */
function expectedLedger(ledger: ExportedLedger) {
  const rows = ledger.transactions.map((row) => ({
    ...row,
    date: isoDate(row.date),
    amount: dollarsToCents(row.amount),
    source: row.source && { ...row.source, occurrence: isoDate(row.source.occurrence) },
  }));
  const balances = computeBalances(dollarsToCents(ledger.openingBalance), rows);
  return {
    startDate: ledger.startDate,
    endDate: ledger.endDate,
    openingBalance: ledger.openingBalance,
    currentBalance: centsToDollars(balances.currentBalance),
    pendingBalance: centsToDollars(balances.pendingBalance),
    transactions: balances.rows.map((row) => ({
      date: row.date,
      name: row.name,
      type: row.type,
      amount: centsToDollars(row.amount),
      balance: centsToDollars(row.balance),
      status: row.status,
      source: sourceWithoutId(row.source),
    })),
  };
}

/** A ledger answer without its ids. */
function withoutRowIds(ledger: Ledger) {
  const transactions = ledger.transactions.map((row) => ({
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    balance: row.balance,
    status: row.status,
    source: sourceWithoutId(row.source),
  }));
  return { ...ledger, transactions };
}

describe.each(databaseKinds())('restoring hostile documents on %s', (kind) => {
  let test: TestApp;
  beforeAll(() => {
    test = appOn(kind);
  });

  it('case 6 leaves later writes and a re-restore working: sequences up to 2147483647 are stored as 1 to N in their order', async () => {
    const user = test.as(newSubject('max-sequence'));
    await userWithData(user);
    const document = await exportOf(user);
    const ledger = ledgerOfExport(document);
    // At the top of the integer range, and in the reverse of the order they were made: the two Twin rows change places.
    const hostile: YourDataExport = withLedger(document, {
      ...ledger,
      nextSequence: INT4_MAX,
      transactions: ledger.transactions.map((row) => ({ ...row, sequence: INT4_MAX - row.sequence })),
    });
    const hostileLedger = ledgerOfExport(hostile);
    expect(Math.max(...hostileLedger.transactions.map((row) => row.sequence))).toBe(INT4_MAX - 1);

    const counts = yourDataCountsSchema.parse(okJson(await user.post(YOUR_DATA_PATHS.restore, hostile)));
    expect(counts.transactions).toBe(ledger.transactions.length);

    // The order the file's numbers give, and the balances of that order.
    const restored = ledgerOf(await user.get(LEDGER_PATHS.retrieve));
    expect(withoutRowIds(restored)).toEqual(expectedLedger(hostileLedger));
    expect(restored.transactions.filter((row) => row.name === 'Twin').map((row) => row.amount)).toEqual([2, 1]);

    // Later writes work (on PostgreSQL this answered 500 "integer out of range"), and take the next number.
    const added = ledgerOf(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-25', name: 'Twin', type: 'D', amount: 3 }));
    expect(added.transactions.filter((row) => row.name === 'Twin').map((row) => row.amount)).toEqual([2, 1, 3]);

    // Stored as 1 to N in the file's order, the next one N + 1 (taken by the row just added).
    const afterAdd = await exportOf(user);
    const renumbered = ledgerOfExport(afterAdd);
    const n = ledger.transactions.length;
    const creationOrder = (rows: ExportedLedger['transactions']) =>
      [...rows].sort((a, b) => a.sequence - b.sequence).map((row) => `${row.date} ${row.name} ${row.amount}`);
    expect(renumbered.nextSequence).toBe(n + 2);
    expect(renumbered.transactions.map((row) => row.sequence).sort((a, b) => a - b)).toEqual(
      Array.from({ length: n + 1 }, (_, i) => i + 1),
    );
    expect(creationOrder(renumbered.transactions)).toEqual([...creationOrder(hostileLedger.transactions), '2026-11-25 Twin 3']);

    // The user's own export restores again, and reads as it did.
    const before = await everyRead(user);
    yourDataCountsSchema.parse(okJson(await user.post(YOUR_DATA_PATHS.restore, afterAdd)));
    expect(withoutIds(await everyRead(user))).toEqual(withoutIds(before));
  });

  it(`keeps a file's sequence numbers while its next one is at most ${MAX_KEPT_NEXT_SEQUENCE}, and renumbers past it`, async () => {
    const user = test.as(newSubject('kept-sequence'));
    await userWithData(user);
    const ledger = ledgerOfExport(await exportOf(user));
    const shifted = (offset: number, nextSequence: number): ExportedLedger => ({
      ...ledger,
      nextSequence,
      transactions: ledger.transactions.map((row) => ({ ...row, sequence: row.sequence + offset })),
    });
    const top = MAX_KEPT_NEXT_SEQUENCE - ledger.nextSequence;
    const document = await exportOf(user);

    okJson(await user.post(YOUR_DATA_PATHS.restore, withLedger(document, shifted(top, MAX_KEPT_NEXT_SEQUENCE))));
    const kept = ledgerOfExport(await exportOf(user));
    expect(kept.nextSequence).toBe(MAX_KEPT_NEXT_SEQUENCE);
    expect(kept.transactions.map((row) => row.sequence)).toEqual(ledger.transactions.map((row) => row.sequence + top));

    okJson(await user.post(YOUR_DATA_PATHS.restore, withLedger(document, shifted(top + 1, MAX_KEPT_NEXT_SEQUENCE + 1))));
    const renumbered = ledgerOfExport(await exportOf(user));
    expect(renumbered.nextSequence).toBe(ledger.transactions.length + 1);
    expect(Math.max(...renumbered.transactions.map((row) => row.sequence))).toBe(ledger.transactions.length);
  });

  it("gives every restored row a new id: another user's ids answer as fresh ones, reveal nothing and leave that user alone", async () => {
    const owner = test.as(newSubject('id-owner'));
    await userWithData(owner);
    const ownerReads = await everyRead(owner);
    const document = await exportOf(owner);
    const fresh = withFreshIds(document);
    const fileIds = idsIn(JSON.stringify(document));
    const freshIds = idsIn(JSON.stringify(fresh));
    expect(fileIds.size).toBeGreaterThan(5);

    // The same document under ids the owner holds, and under ids nobody holds: the same answer.
    const taken = test.as(newSubject('taken-ids'));
    const unheld = test.as(newSubject('fresh-ids'));
    const takenAnswer = await taken.post(YOUR_DATA_PATHS.restore, document);
    const freshAnswer = await unheld.post(YOUR_DATA_PATHS.restore, fresh);
    expect(takenAnswer.statusCode, takenAnswer.body).toBe(200);
    expect([freshAnswer.statusCode, freshAnswer.body, freshAnswer.headers['content-type']]).toEqual([
      takenAnswer.statusCode,
      takenAnswer.body,
      takenAnswer.headers['content-type'],
    ]);

    // Both hold the owner's data, every reference followed, under ids of their own.
    const takenReads = await everyRead(taken);
    const freshReads = await everyRead(unheld);
    expect(withoutIds(takenReads)).toEqual(withoutIds(ownerReads));
    expect(withoutIds(freshReads)).toEqual(withoutIds(ownerReads));
    const overlap = (a: Set<string>, b: Set<string>) => [...a].filter((id) => b.has(id));
    expect(overlap(idsIn(takenReads.join('\n')), fileIds)).toEqual([]);
    expect(overlap(idsIn(freshReads.join('\n')), freshIds)).toEqual([]);
    expect(overlap(idsIn(takenReads.join('\n')), idsIn(freshReads.join('\n')))).toEqual([]);

    // The owner is untouched, and restoring their own document gives them new ids too.
    expect(await everyRead(owner)).toEqual(ownerReads);
    okJson(await owner.post(YOUR_DATA_PATHS.restore, document));
    const ownerAfter = await everyRead(owner);
    expect(withoutIds(ownerAfter)).toEqual(withoutIds(ownerReads));
    expect(overlap(idsIn(ownerAfter.join('\n')), fileIds)).toEqual([]);
  });

  it('refuses numbers out of range with 400 and a message per field, and changes nothing', async () => {
    const user = test.as(newSubject('out-of-range'));
    await userWithData(user);
    const document = await exportOf(user);
    const ledger = ledgerOfExport(document);
    const [deposit] = document.deposits;
    const [expense] = document.expenses;
    const [row] = ledger.transactions;
    const withRow = (changes: Record<string, unknown>) => ({
      ...ledger,
      transactions: [{ ...row, ...changes }, ...ledger.transactions.slice(1)],
    });
    const sequence = 'Sequence must be a whole number from 1 to 2147483647.';
    const nextSequence = 'Next Sequence must be a whole number from 1 to 2147483647.';
    const amount = 'Amount must be at most $99,999,999.99.';
    const opening = 'Opening Balance must be between -$99,999,999.99 and $99,999,999.99.';
    const cases: { label: string; body: unknown; fields: Record<string, string> }[] = [
      {
        label: 'a deposit amount',
        body: { ...document, deposits: [{ ...deposit, amount: 1e15 }] },
        fields: { 'deposits.0.amount': amount },
      },
      {
        label: 'an expense amount',
        body: { ...document, expenses: [{ ...expense, amount: 100_000_000 }] },
        fields: { 'expenses.0.amount': amount },
      },
      {
        label: 'an expense day',
        body: { ...document, expenses: [{ ...expense, day: INT4_MAX + 1 }] },
        fields: { 'expenses.0.day': 'Day must be a whole number from 1 to 31.' },
      },
      {
        label: 'an opening balance',
        body: withLedger(document, { ...ledger, openingBalance: 1e16 }),
        fields: { 'accounts.0.ledger.openingBalance': opening },
      },
      {
        label: 'a negative opening balance',
        body: withLedger(document, { ...ledger, openingBalance: -Number.MAX_SAFE_INTEGER }),
        fields: { 'accounts.0.ledger.openingBalance': opening },
      },
      {
        label: 'a row amount past the safe integers',
        body: withLedger(document, withRow({ amount: 2 ** 53 + 2 })),
        fields: { 'accounts.0.ledger.transactions.0.amount': amount },
      },
      {
        label: 'a sequence past int4',
        body: withLedger(document, withRow({ sequence: INT4_MAX + 1 })),
        fields: { 'accounts.0.ledger.transactions.0.sequence': sequence },
      },
      {
        label: 'a sequence of 0',
        body: withLedger(document, withRow({ sequence: 0 })),
        fields: { 'accounts.0.ledger.transactions.0.sequence': sequence },
      },
      {
        label: 'a negative sequence',
        body: withLedger(document, withRow({ sequence: -1 })),
        fields: { 'accounts.0.ledger.transactions.0.sequence': sequence },
      },
      {
        label: 'a fractional sequence',
        body: withLedger(document, withRow({ sequence: 1.5 })),
        fields: { 'accounts.0.ledger.transactions.0.sequence': sequence },
      },
      {
        label: 'a next sequence past int4',
        body: withLedger(document, { ...ledger, nextSequence: INT4_MAX + 1 }),
        fields: { 'accounts.0.ledger.nextSequence': nextSequence },
      },
      {
        label: 'a next sequence past the safe integers',
        body: withLedger(document, { ...ledger, nextSequence: 2 ** 60 }),
        fields: { 'accounts.0.ledger.nextSequence': nextSequence },
      },
      {
        label: 'several at once',
        body: {
          ...withLedger(document, { ...withRow({ sequence: 0 }), openingBalance: 1e16, nextSequence: 0 }),
          deposits: [{ ...deposit, amount: 1e15 }],
        },
        fields: {
          'deposits.0.amount': amount,
          'accounts.0.ledger.openingBalance': opening,
          'accounts.0.ledger.nextSequence': nextSequence,
          'accounts.0.ledger.transactions.0.sequence': sequence,
        },
      },
    ];
    const reads = await everyRead(user);
    const snapshot = await test.snapshot();
    for (const { label, body, fields } of cases) {
      const answer = await user.post(YOUR_DATA_PATHS.restore, body);
      expect(answer.statusCode, label).toBe(400);
      expectBadRequest(answer, fields);
    }
    // A number JSON cannot hold as a finite one (1e400 parses as Infinity).
    const infinite = await user.post(
      YOUR_DATA_PATHS.restore,
      JSON.stringify(document).replace(`"openingBalance":${ledger.openingBalance}`, '"openingBalance":1e400'),
    );
    expectBadRequest(infinite, { 'accounts.0.ledger.openingBalance': 'Opening Balance must be a number.' });
    expect(await test.snapshot()).toBe(snapshot);
    expect(await everyRead(user)).toEqual(reads);
  });
});
