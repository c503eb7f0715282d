/**
 * A name must show something (issue 34 item 7), on SQLite and (with TEST_POSTGRES_URL) PostgreSQL:
 * every call that takes a name (the one name check, trimmedText in src/contract/request-fields.ts)
 * refuses a name of only fillers, format characters or spaces with a 400 naming the field, and
 * stores nothing; a name of one symbol or one digit is a name.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { API_CALLS, type ApiCall, callName, VALID_DEPOSIT, VALID_EXPORT_DOCUMENT } from '../support/api-calls.js';
import { expectBadRequest, newSubject } from '../support/api-expectations.js';
import { okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Names that show nothing, and what the one check says of each (a blank one is trimmed to nothing first). */
const INVISIBLE: readonly (readonly [string, string])[] = [
  ['\u{16fe4}', 'Name must contain a visible character.'],
  ['\u{16fe4}\u{16fe4}\u{16fe4}', 'Name must contain a visible character.'],
  ['\u3164', 'Name must contain a visible character.'],
  ['\u200b', 'Name must contain a visible character.'],
  ['\u00ad', 'Name must contain a visible character.'],
  ['\ufeff', 'Name is required.'],
  ['   ', 'Name is required.'],
];

/** The calls whose body carries a name at its top, each with that body and the name put in. */
const NAMED: readonly (readonly [ApiCall, (name: string) => unknown])[] = API_CALLS.flatMap((call) => {
  const id = crypto.randomUUID();
  const body = call.validBody?.(id);
  if (typeof body !== 'object' || body === null) return [];
  // A transfer's name may be left out (then it is "Transfer to <account>"), but a name given is checked.
  if (!('name' in body) && call.operation !== 'addTransfer') return [];
  return [[call, (name: string) => ({ ...body, name })] as const];
});

describe.each(databaseKinds())('names that show nothing on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test?.close());

  it('covers every call that takes a name', () => {
    expect(NAMED.map(([call]) => call.operation).sort()).toEqual(
      [
        'addAccount',
        'addDeposit',
        'addExpense',
        'addTransaction',
        'addTransaction',
        'addTransfer',
        'createBudget',
        'renameBudget',
        'updateAccount',
        'updateDeposit',
        'updateExpense',
        'updateTransaction',
        'updateTransaction',
      ].sort(),
    );
  });

  it('refuses them with a 400 naming the field on every call that takes a name, a restored file’s names too, and stores nothing', async () => {
    const user = test.as(newSubject('invisible'));
    const before = await test.snapshot();
    const id = crypto.randomUUID();
    for (const [name, message] of INVISIBLE) {
      for (const [call, withName] of NAMED) {
        const response = await user.request(call.method, call.url(id), withName(name));
        expect(response.statusCode, `${callName(call)} ${JSON.stringify(name)}`).toBe(400);
        expectBadRequest(response, { name: message });
      }
      const restored = { ...VALID_EXPORT_DOCUMENT, deposits: [{ ...VALID_EXPORT_DOCUMENT.deposits[0], name }] };
      const response = await user.post('/api/account/import', restored);
      expect(response.statusCode, `restore ${JSON.stringify(name)}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'bad_request', fields: { 'deposits.0.name': message } } });
    }
    expect(await test.snapshot()).toBe(before);
  });

  it('keeps a name of one symbol or one digit', async () => {
    const user = test.as(newSubject('symbol'));
    const deposits = okJson(await user.post(DEPOSITS_PATHS.add, { ...VALID_DEPOSIT, name: '☕' })) as { deposits: { name: string }[] };
    expect(deposits.deposits.map((deposit) => deposit.name)).toEqual(['☕']);
    const expenses = okJson(await user.post(EXPENSES_PATHS.add, { name: '1', type: 'Misc', day: 1, amount: 5, endDate: null })) as {
      expenses: { name: string }[];
    };
    expect(expenses.expenses.map((expense) => expense.name)).toEqual(['1']);
    expect(okJson(await user.post(ACCOUNTS_PATHS.list, { name: '☕', kind: 'CASH' }))).toMatchObject({ name: '☕' });
  });
});
