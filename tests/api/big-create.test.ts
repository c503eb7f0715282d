/**
 * A create that may write thousands of rows runs in the big writes' thread (decision 0123), on
 * SQLite and (with TEST_POSTGRES_URL) PostgreSQL: its answer, ETag and stored rows are the ones a
 * create here gives, its refusals are the same status and words and change nothing, an owner of
 * 10,000 rows makes even a small ledger there, and a small create still runs in the app's own unit
 * of work. One app per database; each test is its own user.
 */
import { describe, expect, it, vi } from 'vitest';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { newSubject } from '../support/api-expectations.js';
import { depositInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
/** Five years: 261 Mondays from 2026-11-02. */
const FIVE_YEARS = { ledger: { startDate: '2026-11-02', endDate: '2031-11-01', currentBalance: 250 } };
const WEEKS = 261;

/** `count` weekly paychecks, each with its own name and amount. */
async function weeklyPaychecks(user: UserClient, count: number): Promise<void> {
  for (let index = 1; index <= count; index += 1) {
    okJson(
      await user.post(
        DEPOSITS_PATHS.add,
        depositInput({ name: `Job ${index}`, amount: 10 + index, startDate: '2026-11-02', frequency: 'W' }),
      ),
    );
  }
}

describe.each(databaseKinds())('a create of thousands of rows on %s', (kind) => {
  it('runs in the big writes’ thread and answers what a full read then gives, byte for byte, under the same ETag', async () => {
    const test = getApp(kind);
    const user = test.as(newSubject('big-create'));
    await weeklyPaychecks(user, 16);
    const run = vi.spyOn(test.app.ledgerWrites, 'run');
    let created;
    try {
      created = await user.post(LEDGER_PATHS.create, FIVE_YEARS);
      // The app's own unit of work never saw it: the thread ran its own.
      expect(run).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
    }
    const ledger = ledgerOf(created);
    expect(ledger.transactions).toHaveLength(16 * WEEKS);
    expect(ledger.openingBalance).toBe(250);
    expect(created.headers['content-type']).toMatch(/^application\/json/);
    const read = await user.get(LEDGER_PATHS.retrieve);
    expect(created.headers.etag).toBe(read.headers.etag);
    expect(created.body).toBe(read.body);
    // Made again over it, the ledger is replaced, not added to: the thread deletes what the first one stored.
    const again = await user.post(LEDGER_PATHS.create, FIVE_YEARS);
    expect(ledgerOf(again).transactions).toHaveLength(16 * WEEKS);
    expect(again.headers.etag).not.toBe(created.headers.etag);
  });

  it('refuses in the thread as here: a stale If-Match with 412 and its words, changing nothing', async () => {
    const test = getApp(kind);
    const user = test.as(newSubject('big-create-refused'));
    await weeklyPaychecks(user, 16);
    okJson(await user.post(LEDGER_PATHS.create, FIVE_YEARS));
    const before = await test.snapshot();
    const stale = await user.request('POST', LEDGER_PATHS.create, FIVE_YEARS, { 'if-match': 'W/"not-this-one"' });
    expect(stale.statusCode, stale.body).toBe(412);
    const { error } = strictErrorBodySchema.parse(stale.json());
    expect(error.code).toBe('precondition_failed');
    expect(error.message).toBe('The ledger changed since you read it: reload it and try again.');
    expect(await test.snapshot()).toBe(before);
  });

  it('runs a small create in the thread too when the owner holds 10,000 rows, whose delete is big', async () => {
    const test = getApp(kind);
    const user = test.as(newSubject('big-replace'));
    await weeklyPaychecks(user, 40);
    expect(ledgerOf(await user.post(LEDGER_PATHS.create, FIVE_YEARS)).transactions).toHaveLength(40 * WEEKS);
    const run = vi.spyOn(test.app.ledgerWrites, 'run');
    let replaced;
    try {
      // Four Mondays of 40 paychecks: 160 rows in place of 10,440.
      replaced = await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-02', endDate: '2026-11-29', currentBalance: 0 } });
      expect(run).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
    }
    expect(ledgerOf(replaced).transactions).toHaveLength(160);
    expect(replaced.body).toBe((await user.get(LEDGER_PATHS.retrieve)).body);
  });

  it('makes a small ledger in the app’s own unit of work, as before', async () => {
    const test = getApp(kind);
    const user = test.as(newSubject('small-create'));
    await weeklyPaychecks(user, 2);
    const run = vi.spyOn(test.app.ledgerWrites, 'run');
    try {
      expect(ledgerOf(await user.post(LEDGER_PATHS.create, FIVE_YEARS)).transactions).toHaveLength(2 * WEEKS);
      expect(run).toHaveBeenCalledTimes(1);
    } finally {
      run.mockRestore();
    }
  });
});
