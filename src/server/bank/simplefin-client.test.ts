/**
 * The SimpleFIN client against the repository's simulator (issue 37): one simulator for the file,
 * reset before each test. Every outcome and thrown message is kept, and the last test looks for the
 * Access URLs' passwords in all of them.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimplefinSimulator, type SimplefinSimulator } from '../../../tests/support/simplefin-simulator.js';
import { addDays, isoDate } from '../../domain/calendar-date.js';
import { dayStartSeconds } from '../../domain/date-windows.js';
import { type AccountsOutcome, type AccountsRequest, type BridgeOptions, claim, fetchAccounts } from './simplefin-client.js';

const LOOPBACK: BridgeOptions = { allowPrivate: true };
/** 2027-01-08 03:00 UTC: still the 7th in Chicago. */
const NOW = new Date('2027-01-08T03:00:00Z');
const TODAY_CHICAGO = isoDate('2027-01-07');
const CHICAGO = 'America/Chicago';

let simulator: SimplefinSimulator;
let accessUrl: string;
const seen: unknown[] = [];
const passwords: string[] = [];

function passwordOf(url: string): string {
  return new URL(url).password;
}

beforeAll(async () => {
  simulator = await startSimplefinSimulator({ now: NOW });
  accessUrl = simulator.accessUrl();
  passwords.push(passwordOf(accessUrl));
});

afterAll(async () => {
  await simulator.close();
});

beforeEach(() => {
  simulator.reset();
  simulator.setClock(NOW);
  simulator.scenario('default');
});

async function fetchSeen(
  request: Partial<AccountsRequest> = {},
  options: BridgeOptions = LOOPBACK,
  url = accessUrl,
): Promise<AccountsOutcome> {
  const outcome = await fetchAccounts(
    url,
    { timeZone: CHICAGO, start: addDays(TODAY_CHICAGO, -30), end: addDays(TODAY_CHICAGO, 1), ...request },
    options,
  );
  seen.push(outcome);
  return outcome;
}

function okOf(outcome: AccountsOutcome) {
  if (!outcome.ok) throw new Error(`expected an answer, got ${outcome.failure.kind}: ${outcome.failure.reason}`);
  return outcome;
}

function failureOf(outcome: AccountsOutcome) {
  if (outcome.ok) throw new Error('expected a failure');
  return outcome.failure;
}

describe('claim', () => {
  it('claims a Setup Token once; the second claim answers 403 and says the token may have been stolen', async () => {
    const token = simulator.setupToken();
    const first = await claim(token, LOOPBACK);
    if (!first.ok) throw new Error(first.failure.reason);
    passwords.push(passwordOf(first.accessUrl));
    expect(new URL(first.accessUrl).origin).toBe(simulator.origin);
    expect(okOf(await fetchSeen({}, LOOPBACK, first.accessUrl)).accounts.length).toBeGreaterThan(0);

    const second = await claim(token, LOOPBACK);
    seen.push(second);
    expect(second).toEqual({
      ok: false,
      failure: {
        kind: 'already-claimed',
        reason:
          'This Setup Token was already used. If you did not use it, someone else may have: make a new one at your bridge and disconnect the old one.',
        stopSchedule: true,
      },
    });
    expect(simulator.requests.filter((request) => request.path.startsWith('/simplefin/claim/')).map((request) => request.status)).toEqual([
      200, 403,
    ]);
  });

  it('refuses what is not a token, plain http and loopback unless private addresses are allowed, before sending anything', async () => {
    const tokenOf = (url: string) => Buffer.from(url).toString('base64');
    const outcomes = await Promise.all([
      claim('not a token at all', LOOPBACK),
      claim(tokenOf('ftp://bridge.example/claim/x'), LOOPBACK),
      claim(simulator.setupToken(), { allowPrivate: false }),
      claim(tokenOf('https://127.0.0.1:9/simplefin/claim/x'), { allowPrivate: false }),
      claim(tokenOf('https://localhost:9/simplefin/claim/x'), { allowPrivate: false }),
    ]);
    seen.push(...outcomes);
    expect(outcomes.map((outcome) => (outcome.ok ? 'ok' : outcome.failure.kind))).toEqual([
      'not-a-token',
      'not-a-token',
      'insecure-address',
      'refused-address',
      'refused-address',
    ]);
    expect(simulator.requests).toEqual([]);
  });

  it('reads a token pasted across lines, or made with echo | base64 (a line end inside)', async () => {
    const claimUrl = Buffer.from(simulator.setupToken(), 'base64').toString('utf8');
    const withLineEnd = Buffer.from(`${claimUrl}\n`).toString('base64');
    const outcome = await claim(`${withLineEnd.slice(0, 20)}\n  ${withLineEnd.slice(20)}\n`, LOOPBACK);
    if (!outcome.ok) throw new Error(outcome.failure.reason);
    passwords.push(passwordOf(outcome.accessUrl));
  });

  it('follows no redirect and gives up on a slow claim', async () => {
    simulator.fail({ fault: { kind: 'redirect' }, on: 'claim', times: 1 });
    const redirected = await claim(simulator.setupToken(), LOOPBACK);
    simulator.fail({ fault: { kind: 'slow', delayMs: 3000 }, on: 'claim', times: 1 });
    const slow = await claim(simulator.setupToken(), { ...LOOPBACK, timeoutMs: 200 });
    seen.push(redirected, slow);
    expect(redirected.ok ? 'ok' : redirected.failure.kind).toBe('redirect');
    expect(slow.ok ? 'ok' : slow.failure.kind).toBe('too-slow');
  });
});

describe('fetchAccounts: the answer', () => {
  it("reads accounts with their bank, balance in cents, and dates in the user's zone; pendings only when asked", async () => {
    const outcome = okOf(await fetchSeen());
    expect(outcome.requests).toBe(1);
    expect(outcome.accounts.map((account) => [account.id, account.institution, account.currency, account.balanceDate])).toEqual([
      ['ACT-checking', 'Simulated Bank', 'USD', TODAY_CHICAGO],
      ['ACT-savings', 'Simulated Bank', 'USD', TODAY_CHICAGO],
      ['ACT-card', 'Simulated Credit Union', 'USD', TODAY_CHICAGO],
      ['ACT-euro', 'Simulated Bank', 'EUR', TODAY_CHICAGO],
    ]);
    const checking = outcome.accounts[0];
    expect(checking?.transactions.some((transaction) => transaction.pending)).toBe(false);
    // In UTC the same answer is dated a day later.
    expect(
      okOf(await fetchSeen({ timeZone: 'UTC', start: isoDate('2026-12-08'), end: isoDate('2027-01-09') })).accounts[0]?.balanceDate,
    ).toBe('2027-01-08');

    const withPending = okOf(await fetchSeen({ pending: true })).accounts[0];
    const coffee = withPending?.transactions.find((transaction) => transaction.pending);
    expect(coffee).toEqual({
      id: 'TRN-pending-coffee',
      posted: null,
      transactedOn: addDays(TODAY_CHICAGO, -1),
      amount: -450,
      description: 'CORNER COFFEE',
      pending: true,
    });
    expect(simulator.accountRequests().map((request) => request.query.pending ?? [])).toEqual([[], [], ['1']]);
  });

  it('asks for named accounts only, or balances only', async () => {
    const named = okOf(await fetchSeen({ accountIds: ['ACT-savings', 'ACT-card'] }));
    expect(named.accounts.map((account) => account.id)).toEqual(['ACT-savings', 'ACT-card']);
    const balances = okOf(await fetchSeen({ balancesOnly: true }));
    expect(balances.accounts.every((account) => account.transactions.length === 0)).toBe(true);
    expect(balances.accounts[0]?.balance).toBe(okOf(await fetchSeen()).accounts[0]?.balance);
    const [first, second] = simulator.accountRequests();
    expect(first?.query.account).toEqual(['ACT-savings', 'ACT-card']);
    expect(second?.query['balances-only']).toEqual(['1']);
  });

  it('asks a long range in windows of at most 90 days, from the first midnight to the last, and reads them as one', async () => {
    const start = addDays(TODAY_CHICAGO, -200);
    const end = addDays(TODAY_CHICAGO, 1);
    const outcome = okOf(await fetchSeen({ start, end }));
    const asked = simulator.accountRequests();
    expect(outcome.requests).toBe(3);
    // 201 days from Chicago's midnight in June to its midnight in January, one of them 25 hours long (November).
    expect(asked.map((request) => request.windowDays).slice(0, 2)).toEqual([90, 90]);
    expect(asked[2]?.windowDays).toBeCloseTo(21 + 1 / 24, 9);
    expect(Number(asked[0]?.query['start-date']?.[0])).toBe(dayStartSeconds(start, CHICAGO));
    expect(asked[1]?.query['start-date']).toEqual(asked[0]?.query['end-date']);
    expect(asked[2]?.query['start-date']).toEqual(asked[1]?.query['end-date']);
    expect(Number(asked[2]?.query['end-date']?.[0])).toBe(dayStartSeconds(end, CHICAGO));
    // The simulator's 180 days of history, whole, each transaction once.
    const ids = outcome.accounts[0]?.transactions.map((transaction) => transaction.id) ?? [];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id.startsWith('TRN-pay-'))).toHaveLength(13);
    expect(outcome.warnings).toEqual([]);
  });

  it('reads "100.5" as $100.50, for a balance and an amount', async () => {
    simulator.scenario('balance-100.5');
    const checking = okOf(await fetchSeen()).accounts[0];
    expect(checking?.balance).toBe(10050);
    expect(checking?.transactions.map((transaction) => transaction.amount)).toEqual([10050]);
  });

  it('leaves out a transaction whose amount it cannot read, with a warning, and keeps the rest', async () => {
    simulator.scenario('bad-amount');
    const outcome = okOf(await fetchSeen());
    expect(outcome.accounts[0]?.transactions.map((transaction) => [transaction.id, transaction.amount])).toEqual([
      ['TRN-good-1', -2000],
      ['TRN-good-2', -725],
    ]);
    expect(outcome.warnings).toEqual([
      'A transaction of Checking (REFUND WITH A COMMA) was left out: its amount "12,50" is not an amount Leftover reads.',
    ]);
  });

  it('reads a pending that posts under a new id, and twin purchases as two', async () => {
    simulator.scenario('pending-posted-new-id');
    const before = okOf(await fetchSeen({ pending: true })).accounts[0]?.transactions.at(-1);
    simulator.advance(86_400);
    simulator.step();
    const after = okOf(await fetchSeen({ pending: true, end: addDays(TODAY_CHICAGO, 2) })).accounts[0]?.transactions;
    expect(before).toMatchObject({ id: 'TRN-pending-coffee', pending: true, posted: null, amount: -450 });
    expect(after?.map((transaction) => transaction.id)).not.toContain('TRN-pending-coffee');
    expect(after?.at(-1)).toMatchObject({
      id: 'TRN-posted-coffee',
      pending: false,
      posted: addDays(TODAY_CHICAGO, 1),
      transactedOn: addDays(TODAY_CHICAGO, -1),
    });

    simulator.scenario('twin-purchases');
    const twins = okOf(await fetchSeen()).accounts[0]?.transactions.filter(
      (transaction) => transaction.description === 'CITY TRANSIT FARE',
    );
    expect(twins?.map((transaction) => transaction.id)).toEqual(['TRN-fare-1', 'TRN-fare-2']);
  });
});

describe('fetchAccounts: when the bridge fails', () => {
  it.each([
    [{ kind: 'status', status: 402 } as const, 'payment-required', true],
    [{ kind: 'status', status: 403 } as const, 'revoked', true],
    [{ kind: 'status', status: 500 } as const, 'http-error', false],
    [{ kind: 'html-502' } as const, 'not-json', false],
    [{ kind: 'redirect' } as const, 'redirect', false],
    [{ kind: 'invalid-json' } as const, 'invalid-json', false],
  ])('answers %o as %s', async (fault, kind, stopSchedule) => {
    simulator.fail({ fault, times: 1 });
    const failure = failureOf(await fetchSeen());
    expect(failure.kind).toBe(kind);
    expect(failure.stopSchedule).toBe(stopSchedule);
    expect(failure.reason.length).toBeGreaterThan(10);
  });

  it('stops reading an answer past its size cap, counted as it streams in', async () => {
    simulator.fail({ fault: { kind: 'oversized', bytes: 2_000_000 }, times: 1 });
    const started = Date.now();
    const failure = failureOf(await fetchSeen({}, { ...LOOPBACK, maxBytes: 64 * 1024 }));
    expect(failure).toEqual({
      kind: 'too-big',
      reason: "The bridge's answer was larger than 64 KB, more than Leftover reads at once.",
      stopSchedule: false,
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up on a slow answer at its time limit', async () => {
    simulator.fail({ fault: { kind: 'slow', delayMs: 5000 }, times: 1 });
    const started = Date.now();
    const failure = failureOf(await fetchSeen({}, { ...LOOPBACK, timeoutMs: 300 }));
    const took = Date.now() - started;
    expect(failure).toEqual({ kind: 'too-slow', reason: 'The bridge did not answer within 0.3 seconds.', stopSchedule: false });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(2000);
  });

  it('fails the whole range when a later window fails, asking no window after it', async () => {
    simulator.fail({ fault: { kind: 'status', status: 500 }, after: 1 });
    const outcome = await fetchSeen({ start: addDays(TODAY_CHICAGO, -200), end: addDays(TODAY_CHICAGO, 1) });
    expect(failureOf(outcome).kind).toBe('http-error');
    expect(outcome.requests).toBe(2);
    expect(simulator.accountRequests().map((request) => request.status)).toEqual([200, 500]);
  });

  it('skips only the account of an act.failed or act.missingdata, and warns of gen.*', async () => {
    simulator.fail({
      fault: {
        kind: 'errlist',
        errors: [
          { code: 'act.failed', msg: 'Failed to get all transactions. Try again later.', account_id: 'ACT-savings' },
          { code: 'act.missingdata', msg: 'Incomplete transaction listing.', account_id: 'ACT-card' },
          { code: 'gen.', msg: 'Scheduled maintenance <b>tonight</b>' },
        ],
      },
    });
    const outcome = okOf(await fetchSeen());
    expect(outcome.accounts.map((account) => account.id)).toEqual(['ACT-checking', 'ACT-euro']);
    expect(outcome.skipped).toEqual([
      {
        id: 'ACT-savings',
        name: '',
        code: 'act.failed',
        reason: 'An account was not synced: the bridge could not get it (Failed to get all transactions. Try again later.).',
      },
      {
        id: 'ACT-card',
        name: 'Visa Card',
        code: 'act.missingdata',
        reason: "Visa Card was not synced: the bridge's list of its transactions was incomplete (Incomplete transaction listing.).",
      },
    ]);
    // The bridge's words as plain text: whoever shows them escapes them.
    expect(outcome.warnings).toEqual(['The bridge says: Scheduled maintenance <b>tonight</b>']);
    expect(outcome.attention).toBeNull();
  });

  it('skips the accounts of a connection whose bank wants a new sign-in (con.auth), and needs attention', async () => {
    simulator.fail({
      fault: {
        kind: 'errlist',
        errors: [{ code: 'con.auth', msg: 'Authentication failed for Simulated Credit Union', conn_id: 'CON-simulated-credit-union' }],
      },
    });
    const outcome = okOf(await fetchSeen());
    expect(outcome.accounts.map((account) => account.id)).toEqual(['ACT-checking', 'ACT-savings', 'ACT-euro']);
    expect(outcome.attention).toEqual({
      kind: 'bank-login',
      reason: 'A bank of this connection wants you to sign in again at the bridge: Authentication failed for Simulated Credit Union',
      stopSchedule: false,
    });
    simulator.fail({ fault: { kind: 'errlist', errors: [{ code: 'con.auth', msg: 'Sign in again' }] } });
    expect(failureOf(await fetchSeen()).kind).toBe('bank-login');
  });

  it('warns past the daily quota, then is refused (403) and stays refused', async () => {
    simulator.setQuota({ warnAfter: 2, blockAfter: 4 });
    const outcomes: AccountsOutcome[] = [];
    for (let request = 0; request < 6; request += 1) outcomes.push(await fetchSeen({ balancesOnly: true }));
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.warnings.length : outcome.failure.kind))).toEqual([
      0,
      0,
      1,
      1,
      'revoked',
      'revoked',
    ]);
    const warned = outcomes[2];
    expect(warned?.ok && warned.warnings[0]).toBe(
      'The bridge says: You have made 3 requests today. Keep to 2 a day, or this access will be disabled.',
    );
  });

  it('refuses an address the allow-list refuses, and a wrong password, without the Access URL in any word', async () => {
    const elsewhere = `https://someone:${passwords[0]}@127.0.0.1:9/simplefin`;
    expect(failureOf(await fetchSeen({}, { allowPrivate: false }, elsewhere)).kind).toBe('refused-address');
    expect(failureOf(await fetchSeen({}, { allowPrivate: false }, accessUrl)).kind).toBe('insecure-address');
    const wrong = new URL(accessUrl);
    wrong.password = 'not-the-password';
    expect(failureOf(await fetchSeen({}, LOOPBACK, wrong.href)).kind).toBe('revoked');
    // A bridge that echoes the password back has it hidden.
    simulator.fail({ fault: { kind: 'errlist', errors: [{ code: 'gen.', msg: `Your URL was ${accessUrl}` }] }, times: 1 });
    const echoed = okOf(await fetchSeen());
    expect(echoed.warnings.join(' ')).toContain('[hidden]');
    let thrown: unknown;
    try {
      await fetchAccounts(accessUrl, { timeZone: CHICAGO, start: TODAY_CHICAGO }, LOOPBACK);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RangeError);
    seen.push(String(thrown), (thrown as Error).stack);
  });
});

describe('fetchAccounts: the address', () => {
  it("asks /accounts under the Access URL's path, with or without a trailing slash, and at the root", async () => {
    const { username, password } = new URL(accessUrl);
    const base = `http://${username}:${password}@${new URL(accessUrl).host}`;
    for (const url of [`${base}/simplefin/`, base]) await fetchSeen({ balancesOnly: true }, LOOPBACK, url);
    expect(simulator.requests.map((request) => [request.path, request.status])).toEqual([
      ['/simplefin/accounts', 200],
      ['/accounts', 404],
    ]);
  });
});

describe('the simulator, as the real bridge does', () => {
  it('caps a range over 90 days with a gen.api warning', async () => {
    const start = dayStartSeconds(addDays(TODAY_CHICAGO, -120), CHICAGO);
    const url = new URL(`${simulator.origin}/simplefin/accounts?start-date=${start}&end-date=${start + 100 * 86_400}`);
    const { username, password } = new URL(accessUrl);
    const response = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` } });
    const body = (await response.json()) as { errlist: { code: string; msg: string }[] };
    expect(body.errlist).toEqual([{ code: 'gen.api', msg: 'Requested date range exceeds limit of 90 days and was capped.' }]);
    expect(simulator.accountRequests()[0]?.windowDays).toBe(100);
  });
});

describe('npm run simplefin:simulator', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('prints a Setup Token that claims, and its control API switches the scenario', async () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/simplefin-simulator.ts', '--port', '0'], { cwd: root });
    let output = '';
    const token = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no Setup Token printed: ${output}`)), 20_000);
      child?.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const match = /^Setup Token: (\S+)$/m.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child?.on('exit', (code) => reject(new Error(`the simulator exited (${code}): ${output}`)));
    });
    const claimed = await claim(token, LOOPBACK);
    if (!claimed.ok) throw new Error(claimed.failure.reason);
    passwords.push(passwordOf(claimed.accessUrl));
    const control = `${new URL(claimed.accessUrl).origin}/control`;
    expect((await fetch(`${control}/scenario`, { method: 'POST', body: JSON.stringify({ name: 'balance-100.5' }) })).status).toBe(200);
    const outcome = okOf(
      await fetchSeen({ timeZone: 'UTC', start: isoDate('2020-01-01'), end: isoDate('2020-01-02') }, LOOPBACK, claimed.accessUrl),
    );
    expect(outcome.accounts.map((account) => account.balance)).toEqual([10050]);
    const { requests } = (await (await fetch(`${control}/requests`)).json()) as { requests: { path: string; status: number }[] };
    expect(requests.map((request) => [request.path.replace(/claim\/.*/, 'claim/…'), request.status])).toEqual([
      ['/simplefin/claim/…', 200],
      ['/simplefin/accounts', 200],
    ]);
    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('secrets in words', () => {
  it("never has an Access URL's password in an outcome, a reason, a warning or a thrown error", () => {
    const text = seen.map((each) => (typeof each === 'string' ? each : JSON.stringify(each))).join('\n');
    expect(passwords.length).toBeGreaterThanOrEqual(3);
    expect(text.length).toBeGreaterThan(1000);
    for (const password of passwords) expect(text).not.toContain(password);
  });
});
