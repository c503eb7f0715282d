/**
 * A view's first reads in one call (issue 35, decision 0128), over HTTP on a real database: each read
 * answered in its place exactly as its own call answers it (status, ETag, body), a read that fails
 * failing there alone, the budget the call names passed on, and every request for anything but the
 * first views' reads refused with 400 and nothing read.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { BUDGET_HEADER } from '../../src/contract/budgets.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { type FirstReadsView, firstReadsSchema } from '../../src/contract/first-reads.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { VALID_DEPOSIT, VALID_EXPENSE, VALID_LEDGER } from '../support/api-calls.js';
import { expectBadRequest } from '../support/api-expectations.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

const FIRST_READS = '/api/first-reads';
const WINDOW = `${LEDGER_PATHS.retrieve}?limit=100&today=2026-11-21`;
const READS_MESSAGE =
  "paths must list at most 4 of the first views' reads (deposits, expenses, an account's forecast or ledger, the accounts), comma-separated.";

function firstReadsUrl(paths: readonly string[]): string {
  return `${FIRST_READS}?${new URLSearchParams({ paths: paths.join(',') }).toString()}`;
}

function answersOf(response: LightMyRequestResponse): FirstReadsView['answers'] {
  expect(response.statusCode, response.body).toBe(200);
  return firstReadsSchema.parse(response.json()).answers;
}

/** What the read's own call answers, in the batch's terms. */
async function alone(user: UserClient, path: string, headers: Record<string, string> = {}) {
  const response = await user.request('GET', path, undefined, headers);
  const etag = response.headers.etag;
  return { path, status: response.statusCode, etag: typeof etag === 'string' ? etag : null, body: response.json() as unknown };
}

function parsed(answers: FirstReadsView['answers']) {
  return answers.map((answer) => ({ ...answer, body: JSON.parse(answer.body) as unknown }));
}

describe.each(databaseKinds())('first reads in one call on %s', (kind) => {
  let test: TestApp;
  let user: UserClient;

  beforeAll(async () => {
    test = await startTestApp(kind);
    user = test.as(`first-reads-${kind}`);
    expect((await user.post(DEPOSITS_PATHS.add, VALID_DEPOSIT)).statusCode).toBe(200);
    expect((await user.post(EXPENSES_PATHS.add, VALID_EXPENSE)).statusCode).toBe(200);
    expect((await user.post(LEDGER_PATHS.create, VALID_LEDGER)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await test?.close();
  });

  it("answers Plan's and Home's reads each as its own call does, in the order asked", async () => {
    const paths = [ACCOUNTS_PATHS.list, DEPOSITS_PATHS.retrieve, EXPENSES_PATHS.retrieve, '/api/ledger/forecast'];
    const answers = parsed(answersOf(await user.get(firstReadsUrl(paths))));
    expect(answers).toEqual(await Promise.all(paths.map((path) => alone(user, path))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  });

  it("answers the Ledger's window with the ledger's version as its ETag, beside the accounts", async () => {
    const [window, accounts] = parsed(answersOf(await user.get(firstReadsUrl([WINDOW, ACCOUNTS_PATHS.list]))));
    expect(window).toEqual(await alone(user, WINDOW));
    expect(window?.etag).toMatch(/^W\/".+"$/);
    expect(accounts).toEqual(await alone(user, ACCOUNTS_PATHS.list));
  });

  it('answers a read that fails in its place, with its own error, and the others as always', async () => {
    const unknownAccount = '/api/accounts/0190a1b2-c3d4-7e5f-8a6b-00000000dead/ledger/retrieve-ledger?limit=100';
    const [missing, deposits] = parsed(answersOf(await user.get(firstReadsUrl([unknownAccount, DEPOSITS_PATHS.retrieve]))));
    expect(missing).toEqual(await alone(user, unknownAccount));
    expect(missing?.status).toBe(404);
    expect(deposits?.status).toBe(200);
  });

  it('reads the budget the call names: a new budget has none of the personal deposits', async () => {
    const created = await user.post('/api/budgets', { name: 'Household' });
    expect(created.statusCode, created.body).toBe(200);
    const budget = (created.json() as { id: string }).id;
    const [inBudget] = parsed(
      answersOf(await user.request('GET', firstReadsUrl([DEPOSITS_PATHS.retrieve]), undefined, { [BUDGET_HEADER]: budget })),
    );
    expect(inBudget).toEqual(await alone(user, DEPOSITS_PATHS.retrieve, { [BUDGET_HEADER]: budget }));
    expect((inBudget?.body as { deposits: unknown[] }).deposits).toEqual([]);
    const [personal] = parsed(answersOf(await user.get(firstReadsUrl([DEPOSITS_PATHS.retrieve]))));
    expect((personal?.body as { deposits: unknown[] }).deposits).toHaveLength(1);
  });

  it('answers no reads for none asked', async () => {
    expect(answersOf(await user.get(FIRST_READS))).toEqual([]);
    expect(answersOf(await user.get(`${FIRST_READS}?paths=`))).toEqual([]);
  });

  it.each([
    ['this call itself', [FIRST_READS]],
    ['a write', [DEPOSITS_PATHS.add]],
    ['a read that is no first view’s', ['/api/account/export']],
    ['a path outside the API', ['/index.html']],
    ['another origin', ['https://example.com/api/accounts']],
    ['a climb out of the path', ['/api/accounts/../me']],
    ['a climb in the place of an account', ['/api/accounts/../ledger/retrieve-ledger']],
    ['an empty read in the list', [ACCOUNTS_PATHS.list, '']],
    ['five reads', [ACCOUNTS_PATHS.list, DEPOSITS_PATHS.retrieve, EXPENSES_PATHS.retrieve, WINDOW, ACCOUNTS_PATHS.list]],
    ['a read a hundred times the length of a window', [`${ACCOUNTS_PATHS.list}?x=${'a'.repeat(11_000)}`]],
    ['one read repeated 500 times', Array.from({ length: 500 }, () => ACCOUNTS_PATHS.list)],
  ])('refuses %s with 400, reading nothing', async (_what, paths) => {
    expectBadRequest(await user.get(firstReadsUrl(paths)), { paths: READS_MESSAGE });
  });

  it('refuses a call without a token as every call is, before reading anything', async () => {
    const response = await test.app.inject({ method: 'GET', url: firstReadsUrl([DEPOSITS_PATHS.retrieve]) });
    expect(response.statusCode).toBe(401);
  });
});
