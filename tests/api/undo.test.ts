/**
 * Undo (issue 24 item 2, decision 0040) through the API, on SQLite and (with TEST_POSTGRES_URL)
 * PostgreSQL: every undoable write answers a Leftover-Undo token, and POST /api/undo with it puts
 * back exactly what was there (the export document and the ledger answer are equal to those before
 * the write: ids, creation order, statuses, balances, skipped occurrences, imported statement
 * rows, schedules and their creation times) and answers what the write answered. Then the
 * refusals: 404 (another user's, used, unknown), 410 (past ten minutes), 409 (a later write touched
 * the same rows, or the ledger was replaced), 400 (a bad body), each changing nothing. One app per
 * database, with a clock the tests move; every test signs in as its own users.
 */
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { YOUR_DATA_PATHS, yourDataExportSchema } from '../../src/contract/your-data.js';
import { ENDPOINTS, UNDO_HEADER, withId } from '../../src/contract/common.js';
import { DEPOSITS_PATHS, depositsInfoSchema } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { type Ledger, LEDGER_PATHS, type LedgerTransaction } from '../../src/contract/ledger.js';
import { STATEMENT_PATHS, statementImportSchema } from '../../src/contract/statements.js';
import { expectBadRequest, expectNotFound, newSubject, undoToken } from '../support/api-expectations.js';
import { byName, depositInput, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, TEST_NOW, type TestApp, type UserClient } from '../support/test-app.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

const UNDO = ENDPOINTS.undo.path;
const NOTHING_TO_UNDO = 'Nothing to undo: this undo is not yours or was already used.';
const TOO_OLD = 'This can no longer be undone: it is more than 10 minutes old.';
const CHANGED_SINCE = 'This can no longer be undone: something changed since.';
const TOKEN_MESSAGE = 'Token must be the text of a Leftover-Undo header (1 to 100 characters).';
const STATEMENT = fs.readFileSync(new URL('../fixtures/statements/checking-ofx1-sgml.ofx', import.meta.url), 'utf8');

/** The app's clock: moved by the expiry test, back to TEST_NOW after it. */
let clock = TEST_NOW;

function tokenOf(response: LightMyRequestResponse): string {
  expect(response.statusCode, response.body).toBe(200);
  return undoToken(response);
}

function expectRefused(response: LightMyRequestResponse, status: number, code: string, message: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ error: { code, message } });
}

/** Everything the user has, as the API shows it: equal exactly when an undo put back what was there. */
async function everything(user: UserClient) {
  const exported = yourDataExportSchema.parse(okJson(await user.get(YOUR_DATA_PATHS.export)));
  return { exported: { ...exported, exportedAt: '' }, register: okJson(await user.get(LEDGER_PATHS.retrieve)) };
}

/**
 * A user with Acme's $1,000 every other Friday from 2026-11-06, Rent $1,200 on the 1st and Phone
 * $45.55 on the 15th, and a ledger for November and December 2026 opening at $500.
 */
async function planUser(test: TestApp, label: string): Promise<{ user: UserClient; ledger: Ledger }> {
  const user = test.as(newSubject(label));
  okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2026-11-06', frequency: 'BW' })));
  okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1200, day: 1 })));
  okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Phone', amount: 45.55, day: 15 })));
  const ledger = ledgerOf(
    await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 500 } }),
  );
  return { user, ledger };
}

describe.each(databaseKinds())('undo on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind, { now: () => clock });
  });
  afterAll(() => test?.close());

  const undo = (user: UserClient, token: unknown) => user.post(UNDO, { token });
  const patch = (user: UserClient, row: LedgerTransaction, changes: Partial<LedgerTransaction>, query = '') =>
    user.patch(`${LEDGER_PATHS.updateTransaction}${query}`, { ...row, ...changes });

  /** Undoes the write, checks the answer is the ledger as a GET then reads it (ETag too, and no token), and that all is as `before`. */
  async function undoLedgerWrite(user: UserClient, token: string, before: Awaited<ReturnType<typeof everything>>): Promise<void> {
    const undone = await undo(user, token);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.headers[UNDO_HEADER]).toBeUndefined();
    const read = await user.get(LEDGER_PATHS.retrieve);
    expect(undone.json()).toEqual(read.json());
    expect(undone.headers.etag).toBe(read.headers.etag);
    expect(await everything(user)).toEqual(before);
  }

  it('undoes a Pay, a Clear and an Edit: the row back as it was, same id, status and balances, and the version moves on', async () => {
    const { user, ledger } = await planUser(test, 'undo-row');
    const rent = byName(ledger, 'Rent', '2026-12-01');
    const before = await everything(user);
    const etagBefore = (await user.get(LEDGER_PATHS.retrieve)).headers.etag;

    // A Pay asked to answer only its changes carries the token as well.
    const paid = await patch(user, rent, { status: 'PAID' }, '?answer=changes');
    const payToken = tokenOf(paid);
    expect(paid.json()).toHaveProperty('changes');
    await undoLedgerWrite(user, payToken, before);
    // Undoing is a write: the version moved on from both the Pay's and the one before it (decision 0030).
    const etagAfter = (await user.get(LEDGER_PATHS.retrieve)).headers.etag;
    expect(etagAfter).not.toBe(etagBefore);
    expect(etagAfter).not.toBe(paid.headers.etag);

    await undoLedgerWrite(user, tokenOf(await patch(user, rent, { status: 'CLEARED' })), before);
    const edited = await patch(user, rent, { name: 'Rent (late)', amount: 1210.5, date: '2026-12-03' });
    expect(byName(ledgerOf(edited), 'Rent (late)').source?.edited).toBe(true);
    await undoLedgerWrite(user, tokenOf(edited), before);
    // Undoing a Pay is not a status edit: the row is PENDING again and can be paid again.
    expect(byName(ledgerOf(await patch(user, rent, { status: 'PAID' })), 'Rent', '2026-12-01').status).toBe('PAID');
  });

  it('undoes an Add, and a Delete of a generated row: the row back with its id, its occurrence no longer skipped', async () => {
    const { user, ledger } = await planUser(test, 'undo-add-delete');
    const before = await everything(user);
    await undoLedgerWrite(
      user,
      tokenOf(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-25', name: 'Coffee', type: 'D', amount: 4.5 })),
      before,
    );
    const phone = byName(ledger, 'Phone', '2026-12-15');
    const deleted = await user.delete(`${withId(LEDGER_PATHS.transaction, phone.id)}?answer=changes`);
    expect(yourDataExportSchema.parse(okJson(await user.get(YOUR_DATA_PATHS.export))).accounts[0]?.ledger?.skippedOccurrences).toHaveLength(
      1,
    );
    await undoLedgerWrite(user, tokenOf(deleted), before);
    expect(before.register).toEqual({ ledger });
  });

  it('undoes an Extend, and a Delete inside it, last first: an Extend then projects the occurrence again', async () => {
    const { user } = await planUser(test, 'undo-extend');
    const before = await everything(user);
    const extended = await user.post(LEDGER_PATHS.extend, { endDate: '2027-01-31' });
    const extendToken = tokenOf(extended);
    const januaryRent = byName(ledgerOf(extended), 'Rent', '2027-01-01');
    const afterExtend = await everything(user);
    const deleteToken = tokenOf(await user.delete(withId(LEDGER_PATHS.transaction, januaryRent.id)));

    // The Extend's rows changed since (one is gone): refused until the Delete is undone.
    const before409 = await test.snapshot();
    expectRefused(await undo(user, extendToken), 409, 'conflict', CHANGED_SINCE);
    expect(await test.snapshot()).toBe(before409);
    await undoLedgerWrite(user, deleteToken, afterExtend);
    await undoLedgerWrite(user, extendToken, before);

    // Nothing of January is skipped: extending again projects its Rent.
    expect(byName(ledgerOf(await user.post(LEDGER_PATHS.extend, { endDate: '2027-01-31' })), 'Rent', '2027-01-01').status).toBe('PENDING');
  });

  it('undoes a big Extend as a small one, in its own thread: the same answer, ETag and data', async () => {
    const { user } = await planUser(test, 'undo-big-extend');
    for (let day = 1; day <= 90; day += 1) {
      okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: `Bill ${day}`, amount: 10, day: 1 + (day % 28) })));
    }
    const before = await everything(user);
    const rowsBefore = ledgerOf(await user.get(LEDGER_PATHS.retrieve)).transactions.length;
    const extended = await user.post(LEDGER_PATHS.extend, { endDate: '2031-10-31' });
    expect(ledgerOf(extended).transactions.length - rowsBefore).toBeGreaterThan(4_000);
    // A journal this long runs in the big writes' thread (decision 0103): the app's own unit of work never sees it.
    const run = vi.spyOn(test.app.ledgerWrites, 'run');
    try {
      await undoLedgerWrite(user, tokenOf(extended), before);
      expect(run).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
    }
    // Used up in the thread as here: a second undo finds nothing.
    expectNotFound(await undo(user, tokenOf(extended)), NOTHING_TO_UNDO);
  });

  it('undoes a statement import: rows, statuses and balances as before, and the same file imports again as new', async () => {
    const user = test.as(newSubject('undo-import'));
    okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2027-01-01', frequency: 'BW' })));
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1200, day: 1 })));
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Phone', amount: 50.55, day: 15 })));
    ledgerOf(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2027-01-01', endDate: '2027-01-31', currentBalance: 500 } }));
    const before = await everything(user);
    const importIt = () => user.post(STATEMENT_PATHS.import, { fileName: 'statement.ofx', content: STATEMENT });

    const imported = await importIt();
    const counts = { matched: 4, added: 4, duplicates: 0, outside: 0, skipped: 0 };
    expect(statementImportSchema.parse(okJson(imported)).imported).toEqual(counts);
    await undoLedgerWrite(user, tokenOf(imported), before);
    const again = await importIt();
    expect(statementImportSchema.parse(okJson(again)).imported).toEqual(counts);
    expect(again.headers[UNDO_HEADER]).toEqual(expect.any(String));
  });

  it('undoes adding, changing and deleting a deposit and an expense: the schedule, its rows and the list order exactly back', async () => {
    const { user, ledger } = await planUser(test, 'undo-schedules');
    // A second Phone on the same day: the list orders the two by when they were added.
    const expenses = expensesInfoSchema.parse(
      okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Phone', amount: 20, day: 15 }))),
    ).expenses;
    const [firstPhone] = expenses.filter((expense) => expense.name === 'Phone');
    const acme = depositsInfoSchema.parse(okJson(await user.get(DEPOSITS_PATHS.retrieve))).deposits[0];
    if (!firstPhone || !acme) throw new Error('the plan is missing Phone or Acme');
    // A skipped occurrence of the Phone about to be deleted: deleting the bill forgets it, undoing it remembers it.
    okJson(await user.delete(withId(LEDGER_PATHS.transaction, byName(ledger, 'Phone', '2026-12-15').id)));

    const writes: { label: string; send: () => Promise<LightMyRequestResponse>; list: string }[] = [
      {
        label: 'add deposit',
        send: () => user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Side', amount: 300, startDate: '2026-11-27', frequency: 'BW' })),
        list: DEPOSITS_PATHS.retrieve,
      },
      {
        label: 'change deposit',
        send: () => user.put(withId(DEPOSITS_PATHS.one, acme.id), { ...acme, amount: 1100 }),
        list: DEPOSITS_PATHS.retrieve,
      },
      { label: 'delete deposit', send: () => user.delete(withId(DEPOSITS_PATHS.one, acme.id)), list: DEPOSITS_PATHS.retrieve },
      {
        label: 'add expense',
        send: () => user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Gym', amount: 30, day: 10 })),
        list: EXPENSES_PATHS.retrieve,
      },
      {
        label: 'change expense',
        send: () => user.put(withId(EXPENSES_PATHS.one, firstPhone.id), { ...firstPhone, amount: 47, day: 20 }),
        list: EXPENSES_PATHS.retrieve,
      },
      { label: 'delete expense', send: () => user.delete(withId(EXPENSES_PATHS.one, firstPhone.id)), list: EXPENSES_PATHS.retrieve },
    ];
    for (const { label, send, list } of writes) {
      const before = await everything(user);
      const written = await send();
      const token = tokenOf(written);
      expect(await everything(user), label).not.toEqual(before);
      const undone = await undo(user, token);
      expect(undone.statusCode, `${label}: ${undone.body}`).toBe(200);
      expect(undone.headers[UNDO_HEADER], label).toBeUndefined();
      // The answer is the list the write answered, as it is now.
      expect(undone.json(), label).toEqual(okJson(await user.get(list)));
      expect(await everything(user), label).toEqual(before);
    }
  });

  it('answers 404 for another user’s token, a used one, an unknown one and a malformed one, changing nothing', async () => {
    const { user, ledger } = await planUser(test, 'undo-owner');
    const token = tokenOf(await patch(user, byName(ledger, 'Rent', '2026-12-01'), { status: 'PAID' }));
    const stranger = test.as(newSubject('undo-stranger'));
    await planUser(test, 'undo-stranger-too');
    const snapshot = await test.snapshot();
    expectNotFound(await undo(stranger, token), NOTHING_TO_UNDO);
    expectNotFound(await undo(user, 'A'.repeat(43)), NOTHING_TO_UNDO);
    expectNotFound(await undo(user, 'not a token'), NOTHING_TO_UNDO);
    expect(await test.snapshot()).toBe(snapshot);
    // The stranger's try neither used it nor changed anything: the owner's undo still works, once.
    expect(byName(ledgerOf(await undo(user, token)), 'Rent', '2026-12-01').status).toBe('PENDING');
    expectNotFound(await undo(user, token), NOTHING_TO_UNDO);
  });

  it('answers 410 once more than ten minutes have passed on the app’s clock, and undoes at ten minutes exactly', async () => {
    const { user, ledger } = await planUser(test, 'undo-expiry');
    const late = tokenOf(await patch(user, byName(ledger, 'Rent', '2026-12-01'), { status: 'PAID' }));
    const onTime = tokenOf(await patch(user, byName(ledger, 'Phone', '2026-12-15'), { status: 'PAID' }));
    try {
      clock = new Date(TEST_NOW.getTime() + 10 * 60 * 1000 + 1000);
      const snapshot = await test.snapshot();
      expectRefused(await undo(user, late), 410, 'gone', TOO_OLD);
      expect(await test.snapshot()).toBe(snapshot);
      clock = new Date(TEST_NOW.getTime() + 10 * 60 * 1000);
      expect(byName(ledgerOf(await undo(user, onTime)), 'Phone', '2026-12-15').status).toBe('PENDING');
    } finally {
      clock = TEST_NOW;
    }
  });

  it('answers 409 when a later write touched the same row, and undoes when later writes touched others', async () => {
    const { user, ledger } = await planUser(test, 'undo-conflict');
    const rent = byName(ledger, 'Rent', '2026-12-01');
    const phone = byName(ledger, 'Phone', '2026-12-15');
    const payRent = tokenOf(await patch(user, rent, { status: 'PAID' }));
    const payPhone = tokenOf(await patch(user, phone, { status: 'PAID' }));
    const clearRent = tokenOf(await patch(user, { ...rent, status: 'PAID' }, { status: 'CLEARED' }));

    const snapshot = await test.snapshot();
    expectRefused(await undo(user, payRent), 409, 'conflict', CHANGED_SINCE);
    expect(await test.snapshot()).toBe(snapshot);
    // Last first works: the Clear, then the Pay (whose row is again as the Pay left it); Phone stays paid.
    expect(byName(ledgerOf(await undo(user, clearRent)), 'Rent', '2026-12-01').status).toBe('PAID');
    const undone = ledgerOf(await undo(user, payRent));
    expect(byName(undone, 'Rent', '2026-12-01')).toEqual(rent);
    expect(byName(undone, 'Phone', '2026-12-15').status).toBe('PAID');
    expect(byName(ledgerOf(await undo(user, payPhone)), 'Phone', '2026-12-15')).toEqual(phone);
  });

  it('checks the journal before its lock, and again under it when a write landed between: 409 if it touched the undone rows', async () => {
    const writes = test.app.ledgerWrites;
    const run = writes.run.bind(writes);
    /** Runs `between` after the next undo checked its journal and before it takes its lock (the undo's unit of work). */
    const landBetween = (between: () => Promise<void>) =>
      vi.spyOn(writes, 'run').mockImplementationOnce(async (owner, plan, steps) => {
        await between();
        return run(owner, plan, steps);
      });
    const { user, ledger } = await planUser(test, 'undo-between');
    const extended = await user.post(LEDGER_PATHS.extend, { endDate: '2027-01-31' });
    const extendToken = tokenOf(extended);
    const januaryRent = byName(ledgerOf(extended), 'Rent', '2027-01-01');

    // A Pay of a row the Extend added: the undo would take a paid row away, so it refuses and changes nothing.
    let payToken = '';
    const spy = landBetween(async () => {
      payToken = tokenOf(await patch(user, januaryRent, { status: 'PAID' }));
    });
    try {
      const refused = await undo(user, extendToken);
      expectRefused(refused, 409, 'conflict', CHANGED_SINCE);
      expect(payToken).not.toBe('');
      expect(byName(ledgerOf(await user.get(LEDGER_PATHS.retrieve)), 'Rent', '2027-01-01').status).toBe('PAID');

      // Once that Pay is undone, a Pay of a row the Extend did not add lands between: the Extend is undone, the Pay kept.
      okJson(await undo(user, payToken));
      const decemberRent = byName(ledger, 'Rent', '2026-12-01');
      landBetween(async () => {
        tokenOf(await patch(user, decemberRent, { status: 'PAID' }));
      });
      const undone = ledgerOf(await undo(user, extendToken));
      expect(undone.endDate).toBe('2026-12-31');
      expect(undone.transactions.filter((row) => row.date > '2026-12-31')).toEqual([]);
      expect(byName(undone, 'Rent', '2026-12-01').status).toBe('PAID');
      expect(undone.transactions).toHaveLength(ledger.transactions.length);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers 409 for a schedule write whose rows a later Extend added to, and undoes it after the Extend is undone', async () => {
    const { user } = await planUser(test, 'undo-schedule-extend');
    const before = await everything(user);
    const addGym = tokenOf(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Gym', amount: 30, day: 10 })));
    const extend = tokenOf(await user.post(LEDGER_PATHS.extend, { endDate: '2027-01-31' }));
    const snapshot = await test.snapshot();
    // The Extend projected Gym into January: taking Gym away would leave that row behind.
    expectRefused(await undo(user, addGym), 409, 'conflict', CHANGED_SINCE);
    expect(await test.snapshot()).toBe(snapshot);
    okJson(await undo(user, extend));
    okJson(await undo(user, addGym));
    expect(await everything(user)).toEqual(before);
  });

  it('answers 409 for a write to a ledger since replaced, and for an Extend whose new days took another row; nothing changes', async () => {
    const { user } = await planUser(test, 'undo-replaced');
    const coffee = byName(
      ledgerOf(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-25', name: 'Coffee', type: 'D', amount: 4.5 })),
      'Coffee',
    );
    const deleteCoffee = tokenOf(await user.delete(withId(LEDGER_PATHS.transaction, coffee.id)));
    ledgerOf(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 700 } }));
    const extend = tokenOf(await user.post(LEDGER_PATHS.extend, { endDate: '2027-01-31' }));
    okJson(await user.post(LEDGER_PATHS.addTransaction, { date: '2027-01-20', name: 'Books', type: 'D', amount: 12 }));

    const snapshot = await test.snapshot();
    expectRefused(await undo(user, deleteCoffee), 409, 'conflict', CHANGED_SINCE);
    expectRefused(await undo(user, extend), 409, 'conflict', CHANGED_SINCE);
    expect(await test.snapshot()).toBe(snapshot);
  });

  it('keeps at most 50 entries a user, drops expired ones on the next write, and never stores a token itself', async () => {
    const subject = newSubject('undo-bounded');
    const user = test.as(subject);
    ledgerOf(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 5 } }));
    const tokens: string[] = [];
    for (let index = 0; index < 51; index += 1) {
      tokens.push(
        tokenOf(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-25', name: `Tea ${index}`, type: 'D', amount: 1 })),
      );
    }
    const stored = () =>
      withLedgerTables(test.app.database.db)
        .selectFrom('undo_entries')
        .selectAll()
        .where('owner_iss', '=', test.issuer.issuer)
        .where('owner_sub', '=', subject)
        .execute();
    const entries = await stored();
    expect(entries).toHaveLength(50);
    expect(JSON.stringify(entries)).not.toContain(tokens[50]);
    expectNotFound(await undo(user, tokens[0]), NOTHING_TO_UNDO);
    expect(ledgerOf(await undo(user, tokens[1])).transactions.some((row) => row.name === 'Tea 1')).toBe(false);
    try {
      clock = new Date(TEST_NOW.getTime() + 11 * 60 * 1000);
      tokenOf(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-25', name: 'Late tea', type: 'D', amount: 1 }));
      expect(await stored()).toHaveLength(1);
    } finally {
      clock = TEST_NOW;
    }
  });

  it('forgets every undo with the account: a delete leaves nothing to undo', async () => {
    const { user, ledger } = await planUser(test, 'undo-account');
    const token = tokenOf(await patch(user, byName(ledger, 'Rent', '2026-12-01'), { status: 'PAID' }));
    okJson(await user.request('DELETE', YOUR_DATA_PATHS.delete, { confirm: 'DELETE' }));
    expectNotFound(await undo(user, token), NOTHING_TO_UNDO);
  });

  it('refuses a bad body with 400 naming token, and gives no token for an update that changes nothing', async () => {
    const { user, ledger } = await planUser(test, 'undo-bad-body');
    const snapshot = await test.snapshot();
    expectBadRequest(await user.post(UNDO, {}), { token: 'Token is required.' });
    for (const token of [5, null, '', 'x'.repeat(101), ['a']]) expectBadRequest(await undo(user, token), { token: TOKEN_MESSAGE });
    expect((await user.post(UNDO, [])).statusCode).toBe(400);
    const unchanged = await patch(user, byName(ledger, 'Rent', '2026-12-01'), {});
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    expect(unchanged.headers[UNDO_HEADER]).toBeUndefined();
    expect(await test.snapshot()).toBe(snapshot);
  });
});
