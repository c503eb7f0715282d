/**
 * `?answer=changes` on the ledger's row writes (issue 16, decision 0030) through the API, on SQLite
 * and (with TEST_POSTGRES_URL) PostgreSQL: what a changes answer holds, the ETag that names the
 * ledger's version, and the property: applied with the page's own applyLedgerChanges, the
 * smaller answers keep the page's ledger identical to a full reload after any sequence of Pay,
 * Clear, Edit, Add and Delete, and a write the page did not see (another client's) makes the next
 * changes refused, so the page reloads. Issue 22: the version is opaque (it names no id), and a
 * write sent with If-Match at another version answers 412 and changes nothing.
 *
 * Schedules and ledgers are made through the API; every test (every property run) signs in as its
 * own user; one app per database. FUZZ_RUNS scales the property's runs: 20 sequences of up to 12
 * steps per database by default, FUZZ_RUNS / 10 sequences of up to 24 steps when it is set
 * (`npm run fuzz` sets 2000). A failure prints fast-check's seed and the shrunk sequence, to replay
 * with `fc.assert(..., { seed, path })`.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { withId } from '../../src/contract/common.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { errorBodySchema } from '../../src/contract/errors.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { STATEMENT_PATHS } from '../../src/contract/statements.js';
import { type Ledger, ledgerInfoSchema, LEDGER_PATHS, type LedgerTransaction, versionOfEtag } from '../../src/contract/ledger.js';
import { type LedgerChanges, ledgerChangesSchema } from '../../src/contract/ledger-changes.js';
import type { transactionUpdateSchema } from '../../src/contract/ledger-requests.js';
import { addDays, isoDate } from '../../src/domain/calendar-date.js';
import { applyLedgerChanges } from '../../src/web/api/ledger-changes.js';
import { noteLedgerVersion } from '../../src/web/api/ledger-version.js';
import { newSubject } from '../support/api-expectations.js';
import { type DepositBody, depositInput, type ExpenseBody, expenseInput, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

function propertyScale(): { runs: number; maxSteps: number } {
  const raw = process.env.FUZZ_RUNS;
  if (raw === undefined) return { runs: 20, maxSteps: 12 };
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a whole number above 0, not ${raw}`);
  // Each run is a fresh user and some thirty calls against a real database: a tenth of the fuzz runs.
  return { runs: Math.max(1, Math.round(runs / 10)), maxSteps: 24 };
}
const SCALE = propertyScale();

const START = '2026-11-01';
const END = '2026-12-31';
/** Days in START..END, both included. */
const LEDGER_DAYS = 61;

/** Paid every other Friday from 2026-11-06: 11-06, 11-20, 12-04, 12-18. */
const ACME: DepositBody = { name: 'Acme', amount: 1000, startDate: '2026-11-06', frequency: 'BW' };
const RENT: ExpenseBody = { name: 'Rent', amount: 1200, day: 1 };
const PHONE: ExpenseBody = { name: 'Phone', amount: 45.55, day: 15 };

/** The whole ledger's keys, as SPEC.md has them: no version in the body. */
const LEDGER_KEYS = ['currentBalance', 'endDate', 'openingBalance', 'pendingBalance', 'startDate', 'transactions'];
const CHANGES_KEYS = [
  'basedOn',
  'count',
  'currentBalance',
  'endDate',
  'openingBalance',
  'pendingBalance',
  'removed',
  'rows',
  'startDate',
  'version',
];
const ANSWER_MESSAGE = 'answer must be "ledger" (the whole ledger) or "changes".';

type UpdateBody = z.input<typeof transactionUpdateSchema>;

/** The body the page sends for a row: the row as it holds it, with some fields changed. */
function updateBody(row: LedgerTransaction, changes: Partial<UpdateBody> = {}): UpdateBody {
  return {
    id: row.id,
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    status: row.status,
    balance: row.balance,
    ...changes,
  };
}

/** The version the answer's ETag header names; every answer carrying a ledger has one. */
function versionOf(response: LightMyRequestResponse): string {
  const etag = response.headers.etag;
  expect(typeof etag, `ETag of ${response.body}`).toBe('string');
  const version = versionOfEtag(etag as string);
  if (version === null) throw new Error(`not a ledger ETag: ${String(etag)}`);
  return version;
}

/** A whole-ledger answer: exactly `{ ledger }` with SPEC.md's keys, and its version. */
function wholeLedgerOf(response: LightMyRequestResponse): { ledger: Ledger; version: string } {
  const body = okJson(response) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['ledger']);
  expect(Object.keys(body.ledger as object).sort()).toEqual(LEDGER_KEYS);
  const { ledger } = ledgerInfoSchema.parse(body);
  if (!ledger) throw new Error('expected a ledger in the answer');
  return { ledger, version: versionOf(response) };
}

/** A changes answer: exactly `{ changes }` with the contract's keys, and the version its ETag names. */
function changesOf(response: LightMyRequestResponse): { changes: LedgerChanges; etagVersion: string } {
  const body = okJson(response) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['changes']);
  expect(Object.keys(body.changes as object).sort()).toEqual(CHANGES_KEYS);
  const { changes } = ledgerChangesSchema.parse(body);
  // Nothing the schema would drop: the parsed answer is the whole answer.
  expect(changes).toStrictEqual(body.changes);
  return { changes, etagVersion: versionOf(response) };
}

/** The id of a row added by a whole-ledger answer: the one not in the ledger before. */
function addedRow(before: Ledger, after: Ledger): LedgerTransaction {
  const known = new Set(before.transactions.map((row) => row.id));
  const added = after.transactions.filter((row) => !known.has(row.id));
  expect(added).toHaveLength(1);
  return added[0] as LedgerTransaction;
}

function rowAt(ledger: Ledger, name: string, date: string): LedgerTransaction {
  const row = ledger.transactions.find((candidate) => candidate.name === name && candidate.date === date);
  if (!row) throw new Error(`no row ${name} on ${date} in ${JSON.stringify(ledger.transactions)}`);
  return row;
}

// ---- the property's steps ---------------------------------------------------------------------

/** A row name: one of a few (some equal but for case, which sorts them), or the name of a row already there. */
type NameChoice = { readonly pool: number } | { readonly sameAsRow: number };
const NAMES = ['Coffee', 'coffee', 'Rent', 'Acme Paycheck', 'Groceries', 'Zoo', 'Épicerie'];

interface AddStep {
  readonly kind: 'add';
  readonly day: number;
  readonly name: NameChoice;
  readonly type: 'C' | 'D';
  readonly amountCents: number;
  /** Add a row with this existing row's date, type and name: a tie broken by creation order. */
  readonly copyOf: number | null;
}
interface EditStep {
  readonly kind: 'edit';
  readonly pick: number;
  readonly day: number | null;
  readonly name: NameChoice | null;
  readonly amountCents: number | null;
}
type RowStep = { readonly kind: 'pay' | 'clear' | 'delete' | 'unchanged'; readonly pick: number };
type OwnStep = AddStep | EditStep | RowStep;
/** Another client's write: the page does not see it (its answer is the whole ledger, ignored). */
interface OtherClientStep {
  readonly kind: 'otherClient';
  readonly write: OwnStep;
  readonly answer: 'none' | 'ledger';
}
type Step = OwnStep | OtherClientStep;

const nameChoice: fc.Arbitrary<NameChoice> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ pool: fc.nat({ max: NAMES.length - 1 }) }) },
  { weight: 1, arbitrary: fc.record({ sameAsRow: fc.nat() }) },
);
const amountCents = fc.oneof(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom(1, 10, 30, 45_55, 100_000, 120_000));
const day = fc.nat({ max: LEDGER_DAYS - 1 });

const addStep: fc.Arbitrary<AddStep> = fc.record({
  kind: fc.constant('add'),
  day,
  name: nameChoice,
  type: fc.constantFrom('C', 'D'),
  amountCents,
  copyOf: fc.option(fc.nat(), { freq: 3 }),
});
const editStep: fc.Arbitrary<EditStep> = fc.record({
  kind: fc.constant('edit'),
  pick: fc.nat(),
  day: fc.option(day),
  name: fc.option(nameChoice),
  amountCents: fc.option(amountCents),
});
const rowStep = (kind: RowStep['kind']): fc.Arbitrary<RowStep> => fc.record({ kind: fc.constant(kind), pick: fc.nat() });

const ownStep: fc.Arbitrary<OwnStep> = fc.oneof(
  { weight: 4, arbitrary: rowStep('pay') },
  { weight: 3, arbitrary: rowStep('clear') },
  { weight: 4, arbitrary: editStep },
  { weight: 4, arbitrary: addStep },
  { weight: 3, arbitrary: rowStep('delete') },
  { weight: 1, arbitrary: rowStep('unchanged') },
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 9, arbitrary: ownStep },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('otherClient'), write: ownStep, answer: fc.constantFrom('none', 'ledger') }),
  },
);

/** One write as sent: what it does, and whether it changes the ledger (so moves its version). */
interface PlannedWrite {
  readonly method: 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  readonly changes: boolean;
  /** The row it changes, adds (unknown before) or removes. */
  readonly target: { readonly kind: 'changed' | 'removed'; readonly id: string } | { readonly kind: 'added' };
  readonly label: string;
}

function pickOf<T>(items: readonly T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}

function dateOf(dayIndex: number): string {
  return addDays(isoDate(START), dayIndex);
}

function nameOf(choice: NameChoice, ledger: Ledger): string {
  if ('pool' in choice) return NAMES[choice.pool % NAMES.length] as string;
  return pickOf(ledger.transactions, choice.sameAsRow)?.name ?? 'Coffee';
}

/** The write a step makes of the ledger as the server has it; a row step without a row it may take adds one instead. */
function plan(step: OwnStep, ledger: Ledger): PlannedWrite {
  const rows = ledger.transactions;
  const pending = rows.filter((row) => row.status === 'PENDING');
  const fallback: AddStep = { kind: 'add', day: 0, name: { pool: 0 }, type: 'D', amountCents: 100, copyOf: null };
  switch (step.kind) {
    case 'add': {
      const copy = step.copyOf === null ? undefined : pickOf(rows, step.copyOf);
      const body = copy
        ? { date: copy.date, name: copy.name, type: copy.type, amount: step.amountCents / 100 }
        : { date: dateOf(step.day), name: nameOf(step.name, ledger), type: step.type, amount: step.amountCents / 100 };
      return {
        method: 'POST',
        path: LEDGER_PATHS.addTransaction,
        body,
        changes: true,
        target: { kind: 'added' },
        label: `add ${JSON.stringify(body)}`,
      };
    }
    case 'pay':
    case 'clear':
    case 'unchanged': {
      const candidates = step.kind === 'clear' ? rows.filter((row) => row.status !== 'CLEARED') : step.kind === 'pay' ? pending : rows;
      const row = pickOf(candidates, step.pick);
      if (!row) return plan(fallback, ledger);
      const status = step.kind === 'pay' ? 'PAID' : step.kind === 'clear' ? 'CLEARED' : row.status;
      return {
        method: 'PATCH',
        path: LEDGER_PATHS.updateTransaction,
        body: updateBody(row, { status }),
        changes: step.kind !== 'unchanged',
        target: { kind: 'changed', id: row.id },
        label: `${step.kind} ${row.date} ${row.type} ${row.name} (${row.status})`,
      };
    }
    case 'edit': {
      const row = pickOf(pending, step.pick);
      if (!row) return plan(fallback, ledger);
      const date = step.day === null ? row.date : dateOf(step.day);
      const name = step.name === null ? row.name : nameOf(step.name, ledger);
      const amount = step.amountCents === null ? row.amount : step.amountCents / 100;
      return {
        method: 'PATCH',
        path: LEDGER_PATHS.updateTransaction,
        body: updateBody(row, { date, name, amount }),
        changes: date !== row.date || name !== row.name || amount !== row.amount,
        target: { kind: 'changed', id: row.id },
        label: `edit ${row.date} ${row.type} ${row.name} ${row.amount} to ${date} ${name} ${amount}`,
      };
    }
    case 'delete': {
      const row = pickOf(pending, step.pick);
      if (!row) return plan(fallback, ledger);
      return {
        method: 'DELETE',
        path: withId(LEDGER_PATHS.transaction, row.id),
        changes: true,
        target: { kind: 'removed', id: row.id },
        label: `delete ${row.date} ${row.type} ${row.name}`,
      };
    }
  }
}

describe.each(databaseKinds())('ledger changes answers on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  /** A new user with a paycheck, two identical rent bills (rows equal but for creation order) and a phone bill. */
  async function userWithSchedules(label: string, subject = newSubject(label)): Promise<UserClient> {
    const user = test.as(subject);
    okJson(await user.post(DEPOSITS_PATHS.add, depositInput(ACME)));
    for (const expense of [RENT, RENT, PHONE]) okJson(await user.post(EXPENSES_PATHS.add, expenseInput(expense)));
    return user;
  }

  async function createLedger(user: UserClient, openingBalance: number): Promise<{ ledger: Ledger; version: string }> {
    return wholeLedgerOf(
      await user.post(LEDGER_PATHS.create, { ledger: { startDate: START, endDate: END, currentBalance: openingBalance } }),
    );
  }

  async function retrieve(user: UserClient): Promise<{ ledger: Ledger; version: string; etag: string }> {
    const response = await user.get(LEDGER_PATHS.retrieve);
    const answer = wholeLedgerOf(response);
    return { ...answer, etag: response.headers.etag as string };
  }

  function send(user: UserClient, write: Pick<PlannedWrite, 'method' | 'path' | 'body'>, answer: string | null) {
    const url = answer === null ? write.path : `${write.path}?answer=${answer}`;
    return user.request(write.method, url, write.body);
  }

  describe('contract examples', () => {
    it('answers a Pay with exactly the paid row at its position, the new balances, the count and the versions of its ETags', async () => {
      const user = await userWithSchedules('pay');
      const created = await createLedger(user, 500);
      expect(created.ledger.transactions.map((row) => `${row.date} ${row.name}`)).toEqual([
        '2026-11-01 Rent',
        '2026-11-01 Rent',
        '2026-11-06 Acme Paycheck',
        '2026-11-15 Phone',
        '2026-11-20 Acme Paycheck',
        '2026-12-01 Rent',
        '2026-12-01 Rent',
        '2026-12-04 Acme Paycheck',
        '2026-12-15 Phone',
        '2026-12-18 Acme Paycheck',
      ]);
      const paycheck = rowAt(created.ledger, 'Acme Paycheck', '2026-11-06');

      const { changes, etagVersion } = changesOf(
        await send(
          user,
          { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: updateBody(paycheck, { status: 'PAID' }) },
          'changes',
        ),
      );

      expect(changes).toEqual({
        basedOn: created.version,
        version: etagVersion,
        startDate: START,
        endDate: END,
        openingBalance: 500,
        currentBalance: 500,
        pendingBalance: 1500,
        count: 10,
        // 500 - 1200 - 1200 + 1000
        rows: [{ ...paycheck, status: 'PAID', balance: -900, position: 2 }],
        removed: [],
      });
      expect(etagVersion).not.toBe(created.version);
      // The same row, balance and version as a full reload.
      const after = await retrieve(user);
      expect(after.version).toBe(etagVersion);
      expect(after.ledger.transactions[2]).toEqual({ ...paycheck, status: 'PAID', balance: -900 });
    });

    it('answers an Add with the new row at its position, after an equal row made before it', async () => {
      const user = await userWithSchedules('add');
      const created = await createLedger(user, 500);
      const coffee = { date: '2026-11-20', name: 'Coffee', type: 'D', amount: 4.5 } as const;

      const first = changesOf(await send(user, { method: 'POST', path: LEDGER_PATHS.addTransaction, body: coffee }, 'changes'));
      // 500 - 2400 + 1000 - 45.55 + 1000 = 54.45, then the coffee: the paycheck of 11-20 comes first.
      expect(first.changes).toEqual({
        basedOn: created.version,
        version: first.etagVersion,
        startDate: START,
        endDate: END,
        openingBalance: 500,
        currentBalance: 500,
        pendingBalance: 500,
        count: 11,
        rows: [{ id: expect.any(String), ...coffee, balance: 49.95, status: 'PENDING', source: null, position: 5 }],
        removed: [],
      });

      // An equal row (date, type, name) sorts after the one made before it.
      const second = changesOf(await send(user, { method: 'POST', path: LEDGER_PATHS.addTransaction, body: coffee }, 'changes'));
      expect(second.changes.basedOn).toBe(first.changes.version);
      expect(second.changes.rows).toEqual([
        { id: expect.any(String), ...coffee, balance: 45.45, status: 'PENDING', source: null, position: 6 },
      ]);
      expect(second.changes.rows[0]?.id).not.toBe(first.changes.rows[0]?.id);
      expect(second.changes.count).toBe(12);
    });

    it('answers a Delete with removed: [id] and the new count and balances', async () => {
      const user = await userWithSchedules('delete');
      const created = await createLedger(user, 500);
      const phone = rowAt(created.ledger, 'Phone', '2026-11-15');

      const { changes, etagVersion } = changesOf(
        await send(user, { method: 'DELETE', path: withId(LEDGER_PATHS.transaction, phone.id) }, 'changes'),
      );

      expect(changes).toEqual({
        basedOn: created.version,
        version: etagVersion,
        startDate: START,
        endDate: END,
        openingBalance: 500,
        currentBalance: 500,
        pendingBalance: 500,
        count: 9,
        rows: [],
        removed: [phone.id],
      });
      expect(etagVersion).not.toBe(created.version);
      expect((await retrieve(user)).version).toBe(etagVersion);
    });

    it('answers an update that changes nothing with basedOn equal to version and no rows, and keeps the ETag', async () => {
      const user = await userWithSchedules('unchanged');
      await createLedger(user, 500);
      const before = await retrieve(user);
      const rent = before.ledger.transactions[0] as LedgerTransaction;

      const response = await send(user, { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: updateBody(rent) }, 'changes');
      const { changes, etagVersion } = changesOf(response);

      expect(changes).toEqual({
        basedOn: before.version,
        version: before.version,
        startDate: START,
        endDate: END,
        openingBalance: 500,
        currentBalance: 500,
        pendingBalance: 500,
        count: 10,
        rows: [],
        removed: [],
      });
      expect(etagVersion).toBe(before.version);
      expect(response.headers.etag).toBe(before.etag);
      const after = await retrieve(user);
      expect(after.etag).toBe(before.etag);
      expect(after.ledger).toEqual(before.ledger);
    });

    it.each([null, 'ledger'])(
      'answers the whole ledger, SPEC.md shape without a version, to Pay, Add and Delete with answer=%s',
      async (answer) => {
        const user = await userWithSchedules('whole');
        const created = await createLedger(user, 500);
        const paycheck = rowAt(created.ledger, 'Acme Paycheck', '2026-11-06');

        const paid = await send(
          user,
          { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: updateBody(paycheck, { status: 'PAID' }) },
          answer,
        );
        const afterPay = wholeLedgerOf(paid);
        expect(paid.body).not.toContain('version');
        expect(afterPay.ledger.transactions[2]).toEqual({ ...paycheck, status: 'PAID', balance: -900 });
        expect(afterPay.ledger.pendingBalance).toBe(1500);
        expect(afterPay.version).not.toBe(created.version);
        expect(await retrieve(user)).toMatchObject(afterPay);

        const added = await send(
          user,
          { method: 'POST', path: LEDGER_PATHS.addTransaction, body: { date: '2026-11-20', name: 'Coffee', type: 'D', amount: 4.5 } },
          answer,
        );
        const afterAdd = wholeLedgerOf(added);
        expect(added.body).not.toContain('version');
        const coffee = addedRow(afterPay.ledger, afterAdd.ledger);
        expect(afterAdd.ledger.transactions.indexOf(coffee)).toBe(5);
        expect(afterAdd.version).not.toBe(afterPay.version);

        const deleted = await send(user, { method: 'DELETE', path: withId(LEDGER_PATHS.transaction, coffee.id) }, answer);
        const afterDelete = wholeLedgerOf(deleted);
        expect(deleted.body).not.toContain('version');
        expect(afterDelete.ledger).toEqual(afterPay.ledger);
        expect(afterDelete.version).not.toBe(afterAdd.version);
        expect(await retrieve(user)).toMatchObject(afterDelete);
      },
    );

    it('refuses answer=bogus on Pay, Add and Delete with a field message for answer, and changes nothing', async () => {
      const user = await userWithSchedules('bogus');
      await createLedger(user, 500);
      const before = await retrieve(user);
      const paycheck = rowAt(before.ledger, 'Acme Paycheck', '2026-11-06');
      const writes = [
        { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: updateBody(paycheck, { status: 'PAID' }) },
        { method: 'POST', path: LEDGER_PATHS.addTransaction, body: { date: '2026-11-20', name: 'Coffee', type: 'D', amount: 4.5 } },
        { method: 'DELETE', path: withId(LEDGER_PATHS.transaction, paycheck.id) },
      ] as const;

      for (const write of writes) {
        const response = await send(user, write, 'bogus');
        expect(response.statusCode, response.body).toBe(400);
        const { error } = errorBodySchema.parse(response.json());
        expect(error.code).toBe('bad_request');
        expect(error.fields).toEqual({ answer: ANSWER_MESSAGE });
      }

      const after = await retrieve(user);
      expect(after.etag).toBe(before.etag);
      expect(after.ledger).toEqual(before.ledger);
    });
  });

  describe('ETag', () => {
    it('names a new version after create, a replacing create, extend and every changing write, and a GET after each names the same one', async () => {
      const user = await userWithSchedules('etag');
      const seen = new Set<string>();
      /** The answer's version is new, and a GET right after names the same one with the same ledger. */
      async function expectNewVersion(response: LightMyRequestResponse, answer: 'ledger' | 'changes' = 'ledger'): Promise<Ledger> {
        const version = answer === 'changes' ? changesOf(response).etagVersion : wholeLedgerOf(response).version;
        expect(response.headers.etag).toMatch(/^W\/"[^"]+"$/);
        expect(seen.has(version), `${version} after ${[...seen].join(', ')}`).toBe(false);
        seen.add(version);
        const reloaded = await retrieve(user);
        expect(reloaded.version).toBe(version);
        if (answer === 'ledger') expect(reloaded.ledger).toEqual(wholeLedgerOf(response).ledger);
        return reloaded.ledger;
      }

      await expectNewVersion(await user.post(LEDGER_PATHS.create, { ledger: { startDate: START, endDate: END, currentBalance: 500 } }));
      // A replaced ledger keeps its id: its version goes on, never back to one a client may hold.
      let ledger = await expectNewVersion(
        await user.post(LEDGER_PATHS.create, { ledger: { startDate: START, endDate: END, currentBalance: 250 } }),
      );
      ledger = await expectNewVersion(await user.post(LEDGER_PATHS.extend, { endDate: '2027-01-31' }));
      const paycheck = rowAt(ledger, 'Acme Paycheck', '2026-11-06');
      const phone = rowAt(ledger, 'Phone', '2026-11-15');
      const rent = rowAt(ledger, 'Rent', '2027-01-01');
      ledger = await expectNewVersion(await user.patch(LEDGER_PATHS.updateTransaction, updateBody(paycheck, { status: 'PAID' })));
      ledger = await expectNewVersion(
        await user.patch(`${LEDGER_PATHS.updateTransaction}?answer=changes`, updateBody(phone, { name: 'Mobile', amount: 50 })),
        'changes',
      );
      ledger = await expectNewVersion(
        await user.patch(LEDGER_PATHS.updateTransaction, updateBody(rowAt(ledger, 'Acme Paycheck', '2026-11-06'), { status: 'CLEARED' })),
      );
      ledger = await expectNewVersion(
        await user.post(`${LEDGER_PATHS.addTransaction}?answer=changes`, { date: '2026-12-24', name: 'Gift', type: 'D', amount: 80 }),
        'changes',
      );
      ledger = await expectNewVersion(
        await user.post(LEDGER_PATHS.addTransaction, { date: '2026-12-24', name: 'Gift', type: 'D', amount: 20 }),
      );
      ledger = await expectNewVersion(await user.delete(`${withId(LEDGER_PATHS.transaction, rent.id)}?answer=changes`), 'changes');
      await expectNewVersion(await user.delete(withId(LEDGER_PATHS.transaction, rowAt(ledger, 'Gift', '2026-12-24').id)));
      expect(seen.size).toBe(10);
    });
  });

  describe('opaque versions and If-Match (issue 22)', () => {
    const STALE = {
      error: { code: 'precondition_failed', message: 'The ledger changed since you read it: reload it and try again.' },
    };

    /** A write as a script sends it, with an If-Match header. */
    async function sendIfMatch(subject: string, ifMatch: string, method: InjectOptions['method'], url: string, body?: unknown) {
      const headers = { authorization: `Bearer ${await test.issuer.token(subject)}`, 'if-match': ifMatch };
      return body === undefined
        ? test.app.inject({ method, url, headers })
        : test.app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    }

    const WRITES = ['add', 'update', 'delete', 'extend', 'create'] as const;

    /** A ledger write as sent against this ledger: Pay the November phone bill, delete the December one. */
    function writeOf(label: (typeof WRITES)[number], ledger: Ledger): [InjectOptions['method'], string, unknown] {
      switch (label) {
        case 'add':
          return ['POST', LEDGER_PATHS.addTransaction, { date: '2026-12-24', name: 'Gift', type: 'D', amount: 20 }];
        case 'update':
          return [
            'PATCH',
            `${LEDGER_PATHS.updateTransaction}?answer=changes`,
            updateBody(rowAt(ledger, 'Phone', '2026-11-15'), { status: 'PAID' }),
          ];
        case 'delete':
          return ['DELETE', withId(LEDGER_PATHS.transaction, rowAt(ledger, 'Phone', '2026-12-15').id), undefined];
        case 'extend':
          return ['POST', LEDGER_PATHS.extend, { endDate: '2027-01-31' }];
        case 'create':
          return ['POST', LEDGER_PATHS.create, { ledger: { startDate: START, endDate: END, currentBalance: 9 } }];
      }
    }

    it('names versions as 22 base64url characters holding neither the ledger id nor a row id', async () => {
      const user = await userWithSchedules('opaque');
      const created = await createLedger(user, 500);
      const paycheck = rowAt(created.ledger, 'Acme Paycheck', '2026-11-06');
      const paid = changesOf(
        await user.patch(`${LEDGER_PATHS.updateTransaction}?answer=changes`, updateBody(paycheck, { status: 'PAID' })),
      );
      const ledgerIds = (await withLedgerTables(test.app.database.db).selectFrom('ledgers').select('id').execute()).map(
        (ledger) => ledger.id,
      );
      expect(ledgerIds.length).toBeGreaterThan(0);
      const ids = [...ledgerIds, ...created.ledger.transactions.map((row) => row.id)];
      for (const version of [created.version, paid.changes.basedOn, paid.changes.version, paid.etagVersion]) {
        expect(version).toMatch(/^[A-Za-z0-9_-]{22}$/);
        // Not even the leading, time-ordered part of an id.
        for (const id of ids) expect(version).not.toContain(id.slice(0, 8));
      }
      expect(paid.changes.basedOn).toBe(created.version);
      expect(paid.changes.version).not.toBe(created.version);
    });

    it('refuses every write whose If-Match names a version the ledger is no longer at with 412, and changes nothing', async () => {
      const subject = newSubject('stale');
      const user = await userWithSchedules('stale', subject);
      const created = await createLedger(user, 500);
      // Another client's Pay moves the ledger on: the version created.version is stale now.
      const paycheck = rowAt(created.ledger, 'Acme Paycheck', '2026-11-06');
      const current = wholeLedgerOf(await user.patch(LEDGER_PATHS.updateTransaction, updateBody(paycheck, { status: 'PAID' })));
      const before = await test.snapshot();
      for (const label of WRITES) {
        const [method, url, body] = writeOf(label, current.ledger);
        for (const ifMatch of [`W/"${created.version}"`, `"${created.version}"`, 'W/"not-a-version"']) {
          const response = await sendIfMatch(subject, ifMatch, method, url, body);
          expect(response.statusCode, `${label} ${ifMatch}: ${response.body}`).toBe(412);
          expect(response.json(), label).toEqual(STALE);
          expect(response.headers.etag, label).toBeUndefined();
        }
      }
      // If-Match on a first ledger, even `*`: there is no version it could name.
      const newcomer = newSubject('no-ledger');
      const first = { ledger: { startDate: START, endDate: END, currentBalance: 1 } };
      expect((await sendIfMatch(newcomer, '*', 'POST', LEDGER_PATHS.create, first)).statusCode).toBe(412);
      expect(await test.snapshot()).toBe(before);
      expect((await retrieve(user)).version).toBe(current.version);
    });

    it('lets a write through when If-Match names the current version, weak or strong, or is *; refuses one that is no entity tag', async () => {
      const subject = newSubject('current');
      const user = await userWithSchedules('current', subject);
      let held = await createLedger(user, 500);
      const forms = [(version: string) => `W/"${version}"`, (version: string) => `"${version}"`, () => '*'];
      for (const [index, label] of WRITES.entries()) {
        // Each write is sent as the ledger now is: the one before it moved the version on.
        const [method, url, body] = writeOf(label, held.ledger);
        const ifMatch = (forms[index % forms.length] ?? String)(held.version);
        const response = await sendIfMatch(subject, ifMatch, method, url, body);
        expect(response.statusCode, `${label} ${ifMatch}: ${response.body}`).toBe(200);
        const version = versionOf(response);
        expect(version, label).not.toBe(held.version);
        held = await retrieve(user);
        expect(held.version, label).toBe(version);
      }
      const before = await test.snapshot();
      const notATag = await sendIfMatch(subject, held.version, 'POST', LEDGER_PATHS.extend, { endDate: '2027-02-28' });
      expect(notATag.statusCode, notATag.body).toBe(400);
      expect(errorBodySchema.parse(notATag.json()).error.fields).toEqual({ 'if-match': expect.stringContaining('If-Match must be') });
      expect(await test.snapshot()).toBe(before);
    });
  });

  describe('ETag beyond the row writes', () => {
    it('moves when a schedule change re-projects rows or a statement takes rows in, and stays when neither changes anything', async () => {
      const user = await userWithSchedules('etag-elsewhere');
      const created = await createLedger(user, 500);
      const expenses = (okJson(await user.get(EXPENSES_PATHS.retrieve)) as { expenses: { id: string; name: string }[] }).expenses;
      const phone = expenses.find((expense) => expense.name === 'Phone');
      if (!phone) throw new Error('no Phone expense');

      // The same expense again changes no row: a page holding the ledger still holds it as it is.
      okJson(await user.put(withId(EXPENSES_PATHS.one, phone.id), expenseInput(PHONE)));
      expect((await retrieve(user)).version).toBe(created.version);
      // A new amount re-projects the rows from today (2026-11-21) on, under a new version.
      okJson(await user.put(withId(EXPENSES_PATHS.one, phone.id), expenseInput({ ...PHONE, amount: 50 })));
      const reprojected = await retrieve(user);
      expect(rowAt(reprojected.ledger, 'Phone', '2026-12-15').amount).toBe(50);
      expect(reprojected.version).not.toBe(created.version);

      // A statement that adds a row: its answer names the new version, and a GET the same one.
      const statement = { fileName: 'bank.csv', content: 'Date,Description,Amount\n2026-11-10,Corner Cafe,-4.50\n' };
      const imported = await user.post(STATEMENT_PATHS.import, statement);
      const importedVersion = versionOf(imported);
      expect((okJson(imported) as { imported: { added: number } }).imported.added).toBe(1);
      expect(importedVersion).not.toBe(reprojected.version);
      expect((await retrieve(user)).version).toBe(importedVersion);
      // The same statement again takes nothing in: the version stays.
      const again = await user.post(STATEMENT_PATHS.import, statement);
      expect((okJson(again) as { imported: { added: number; duplicates: number } }).imported).toMatchObject({ added: 0, duplicates: 1 });
      expect(versionOf(again)).toBe(importedVersion);
      expect((await retrieve(user)).version).toBe(importedVersion);
    });
  });

  describe('the page applying the changes answers', () => {
    it(
      'keeps the page ledger identical to a full reload after any sequence of Pay, Clear, Edit, Add and Delete, and reloads after a write it missed',
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: -200_000, max: 500_000 }),
            fc.array(step, { minLength: 1, maxLength: SCALE.maxSteps }),
            async (openingCents, steps) => {
              const user = await userWithSchedules('property');
              await createLedger(user, openingCents / 100);
              // The page's first load: it holds this ledger at the version the ETag names.
              const loaded = await retrieve(user);
              let held = loaded.ledger;
              noteLedgerVersion(held, loaded.etag);
              let heldVersion = loaded.version;
              // The ledger as the server has it, which the test picks its targets from.
              let truth = loaded.ledger;
              let truthVersion = loaded.version;
              // Whether another client changed the ledger since the page's last answer.
              let missedChange = false;

              for (const [index, current] of steps.entries()) {
                const own = current.kind !== 'otherClient';
                const write = plan(own ? current : current.write, truth);
                const where = `step ${index + 1} (${own ? '' : 'another client: '}${write.label})`;
                const response = await send(user, write, own ? 'changes' : current.answer === 'ledger' ? 'ledger' : null);
                if (response.statusCode !== 200) {
                  // A refusal changes nothing; none is expected, as every target is one the write may take.
                  const after = await retrieve(user);
                  expect(after.ledger, where).toEqual(truth);
                  expect(after.version, where).toBe(truthVersion);
                  throw new Error(`${where} was refused: ${response.statusCode} ${response.body}`);
                }

                if (!own) {
                  // Another tab's write: its whole ledger is not the page's, which still holds the old one.
                  const other = wholeLedgerOf(response);
                  expect(other.version === truthVersion, where).toBe(!write.changes);
                  truth = other.ledger;
                  truthVersion = other.version;
                  missedChange ||= write.changes;
                  continue;
                }

                const { changes, etagVersion } = changesOf(response);
                expect(changes.basedOn, where).toBe(truthVersion);
                expect(changes.version, where).toBe(etagVersion);
                expect(changes.version === changes.basedOn, where).toBe(!write.changes);

                const reload = await retrieve(user);
                expect(reload.version, where).toBe(changes.version);
                // The answer itself: the changed row as the reload has it at its position, and nothing else.
                const changedIds = changes.rows.map((row) => row.id);
                if (!write.changes) expect(changedIds, where).toEqual([]);
                else if (write.target.kind === 'changed') expect(changedIds, where).toEqual([write.target.id]);
                else if (write.target.kind === 'removed') expect(changedIds, where).toEqual([]);
                else {
                  expect(changedIds, where).toHaveLength(1);
                  expect(
                    truth.transactions.map((row) => row.id),
                    where,
                  ).not.toContain(changedIds[0]);
                }
                expect(changes.removed, where).toEqual(write.changes && write.target.kind === 'removed' ? [write.target.id] : []);
                for (const { position, ...row } of changes.rows) expect(reload.ledger.transactions[position], where).toEqual(row);
                expect(changes.count, where).toBe(reload.ledger.transactions.length);
                expect(changes.currentBalance, where).toBe(reload.ledger.currentBalance);
                expect(changes.pendingBalance, where).toBe(reload.ledger.pendingBalance);

                // The page: apply to what it holds, or reload when it missed a version.
                expect(heldVersion !== changes.basedOn, `${where}: a version gap exactly when another client changed the ledger`).toBe(
                  missedChange,
                );
                missedChange = false;
                const applied = applyLedgerChanges(held, changes);
                if (heldVersion === changes.basedOn) {
                  expect(applied, `${where}: changes refused though based on the version held`).not.toBeNull();
                  held = applied as Ledger;
                  heldVersion = changes.version;
                } else {
                  expect(applied, `${where}: changes applied though the page missed a write`).toBeNull();
                  noteLedgerVersion(reload.ledger, reload.etag);
                  held = reload.ledger;
                  heldVersion = reload.version;
                }
                expect(held, where).toStrictEqual(reload.ledger);
                truth = reload.ledger;
                truthVersion = reload.version;
              }
            },
          ),
          { numRuns: SCALE.runs },
        );
      },
      Math.max(60_000, SCALE.runs * SCALE.maxSteps * 500),
    );
  });
});
