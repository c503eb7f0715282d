/**
 * Sent once, never lost (issue 26 item 4, decision 0051; docs/RELIABILITY.md):
 *  - in one process, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL, with the clock fixed and
 *    moved by the test, which runs the minute's round itself (runNotifications): a ledger that goes
 *    below $0 in 5 days gives exactly one message per channel at the user's hour in their zone, one
 *    more the day before, and none once the bill is lowered; a new shortfall is a new message; a
 *    failing channel backs off and after 5 days "Needs attention"; a retry sends the text as
 *    planned without reading a ledger (decision 0070);
 *  - on PostgreSQL, two built server processes on one database (their clocks start where the test
 *    says and run on; their round every 100 ms) send each message once; restarting them sends
 *    nothing twice; a process killed (SIGKILL) while a webhook holds its request leaves the message
 *    to the next process once its lease runs out: it arrives again, never not at all.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerReads } from '../support/ledger-reads.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { type ChannelInfo, NOTIFICATIONS_PATHS, notificationSettingsSchema } from '../../src/contract/notifications.js';
import { runNotifications } from '../../src/server/app.js';
import { newSubject } from '../support/api-expectations.js';
import { type HttpUser, httpUser } from '../support/http-user.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/notify-receivers.js';
import { processRunOn } from '../support/process-run.js';
import { expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import type { ServerProcess } from '../support/server-process.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

const ZONE = 'America/Los_Angeles';
const PUBLIC_URL = 'https://leftover.example.com';
/** Thu, Nov 26: $100 less the car loan is -$210.44; Dec 26 takes it to -$520.88. */
const CAR_LOAN = { name: 'Car loan', amount: 310.44, day: 26 };
const LEDGER = { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 100 } };
const NOTICE =
  'Heads up: your Checking balance goes below $0 on Thu, Nov 26, 2026, when Car loan ($310.44) is due. Lowest ahead: -$520.88 on Sat, Dec 26, 2026.';

/** A moment on a day of November 2026 in Los Angeles (UTC-8), as the server's UTC clock reads it. */
function inLosAngeles(day: number, hour: number, minute = 0): Date {
  return new Date(Date.UTC(2026, 10, day, hour + 8, minute));
}

interface Webhook {
  readonly kind: string;
  readonly title: string;
  readonly message: string;
  readonly date: string;
}

function bodiesAt(receiver: WebhookReceiver, path: string): Webhook[] {
  return receiver.received.filter((request) => request.path === path).map((request) => JSON.parse(request.body) as Webhook);
}

describe.each(databaseKinds())('notifications sent once, in one process, on %s', (kind) => {
  let clock = inLosAngeles(21, 7, 59);
  let receiver: WebhookReceiver;
  let test: TestApp;
  const ledgerReads = new LedgerReads();
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    test = await startTestApp(kind, {
      now: () => clock,
      env: { TZ: 'UTC', PUBLIC_URL, NOTIFY_ALLOW_PRIVATE_URLS: 'true' },
      queryObserver: ledgerReads,
    });
  });
  afterAll(async () => {
    await test?.close();
    await receiver?.close();
  });

  /** A user in Los Angeles whose Checking goes below $0 in 5 days (Sat, Nov 21 to Thu, Nov 26), with two webhooks. */
  async function shortUser(name: string): Promise<{ user: UserClient; paths: string[]; carLoanId: string }> {
    const user = test.as(newSubject(name));
    okJson(await user.patch(NOTIFICATIONS_PATHS.profile, { timeZone: ZONE }));
    const { expenses } = expensesInfoSchema.parse(okJson(await user.post(EXPENSES_PATHS.add, expenseInput(CAR_LOAN))));
    ledgerOf(await user.post(LEDGER_PATHS.create, LEDGER));
    const paths = [`/${kind}-${name}-a`, `/${kind}-${name}-b`];
    for (const path of paths) okJson(await user.post(NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target: receiver.url(path) }));
    return { user, paths, carLoanId: expenses[0]?.id ?? '' };
  }

  const run = async (at: Date) => {
    clock = at;
    return runNotifications(test.app);
  };
  const counts = (paths: readonly string[]) => paths.map((path) => bodiesAt(receiver, path).length);

  it('sends one message per channel at the user’s hour, one more the day before, none once the bill is lowered', async () => {
    clock = inLosAngeles(21, 7, 59);
    const kept = await shortUser('kept');
    const lowered = await shortUser('lowered');
    const all = [...kept.paths, ...lowered.paths];

    // 07:59 in Los Angeles is 15:59 on the server: its own 08:00 is long past, the user's is not.
    expect(await run(inLosAngeles(21, 7, 59))).toEqual({ planned: 0, sent: 0, failed: 0, retried: 0, cancelled: 0 });
    expect(await run(inLosAngeles(21, 8, 0))).toEqual({ planned: 4, sent: 4, failed: 0, retried: 0, cancelled: 0 });
    expect(counts(all)).toEqual([1, 1, 1, 1]);
    for (const path of all) {
      expect(bodiesAt(receiver, path)[0]).toEqual({
        title: 'Checking goes below $0 on Thu, Nov 26, 2026',
        message: NOTICE,
        url: `${PUBLIC_URL}/`,
        kind: 'BELOW_ZERO',
        date: '2026-11-26',
      });
    }
    for (const at of [inLosAngeles(21, 8, 1), inLosAngeles(21, 23, 59), inLosAngeles(22, 8), inLosAngeles(23, 9)]) {
      expect(await run(at)).toMatchObject({ planned: 0, sent: 0 });
    }

    // Mon, Nov 23: one user lowers the bill; the row of Nov 26 is ahead, so it is re-projected.
    okJson(await lowered.user.put(`/api/expenses/${lowered.carLoanId}`, expenseInput({ ...CAR_LOAN, amount: 50 })));
    expect(await run(inLosAngeles(24, 8))).toMatchObject({ planned: 0, sent: 0 });
    expect(await run(inLosAngeles(25, 7, 30))).toMatchObject({ planned: 0, sent: 0 });
    // Wed, Nov 25, the day before: the reminder, for the user whose shortfall is still there.
    expect(await run(inLosAngeles(25, 8))).toMatchObject({ planned: 2, sent: 2 });
    expect(counts(all)).toEqual([2, 2, 1, 1]);
    for (const path of kept.paths) {
      expect(bodiesAt(receiver, path)[1]).toMatchObject({ title: 'Tomorrow: Checking goes below $0', message: NOTICE, date: '2026-11-26' });
    }
    expect(await run(inLosAngeles(26, 8))).toMatchObject({ planned: 0, sent: 0 });
    expect(counts(all)).toEqual([2, 2, 1, 1]);

    // A new shortfall is a new message: insurance of $500 on Dec 3 takes the lowered user below $0 (told the next morning).
    okJson(await lowered.user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Insurance', amount: 500, day: 3 })));
    expect(await run(inLosAngeles(27, 8))).toMatchObject({ planned: 2, sent: 2 });
    expect(counts(all)).toEqual([2, 2, 2, 2]);
    expect(bodiesAt(receiver, lowered.paths[0] ?? '')[1]).toMatchObject({
      title: 'Checking goes below $0 on Thu, Dec 3, 2026',
      date: '2026-12-03',
    });
  });

  it('after downtime sends what is true today, once, never a backlog', async () => {
    clock = inLosAngeles(21, 7);
    const late = await shortUser('late');
    // The server was down from before Sat, Nov 21 until Wed, Nov 25, 09:00: four mornings missed.
    expect(await run(inLosAngeles(25, 9))).toMatchObject({ planned: 2, sent: 2 });
    // One message per channel: the notice (never sent, so not a reminder), about what is true today.
    expect(late.paths.map((path) => bodiesAt(receiver, path).map((body) => body.title))).toEqual([
      ['Checking goes below $0 on Thu, Nov 26, 2026'],
      ['Checking goes below $0 on Thu, Nov 26, 2026'],
    ]);
    expect(await run(inLosAngeles(25, 9, 1))).toMatchObject({ planned: 0, sent: 0 });
    expect(counts(late.paths)).toEqual([1, 1]);
  });

  /** The channel of `path` as GET /api/notifications answers it. */
  async function channelAt(user: UserClient, path: string): Promise<ChannelInfo | undefined> {
    const { channels } = notificationSettingsSchema.parse(okJson(await user.get(NOTIFICATIONS_PATHS.settings)));
    return channels.find((channel) => channel.target === receiver.url(path));
  }

  it('backs a failing channel off, retrying for 5 days; then it "Needs attention" and gets nothing until a test arrives', async () => {
    clock = inLosAngeles(21, 7);
    const failing = await shortUser('failing');
    const [down, up] = failing.paths as [string, string];
    receiver.behave(down, { status: 503 });
    expect(await run(inLosAngeles(21, 8))).toMatchObject({ planned: 2, sent: 1, retried: 1 });
    // Not due again yet: the channel is tried a minute later, then 2, 4, ... 64 minutes, then every 2 hours.
    expect(await run(inLosAngeles(21, 8, 0))).toMatchObject({ sent: 0, retried: 0 });
    expect(await run(inLosAngeles(21, 8, 1))).toMatchObject({ retried: 1 });
    expect(await run(inLosAngeles(21, 8, 2))).toMatchObject({ retried: 0 });
    expect(await run(inLosAngeles(21, 8, 3))).toMatchObject({ retried: 1 });
    expect(counts([down, up])).toEqual([3, 1]);
    expect(await channelAt(failing.user, down)).toMatchObject({
      state: 'FAILING',
      failingSince: inLosAngeles(21, 8).toISOString(),
      retryAt: inLosAngeles(21, 8, 7).toISOString(),
      // What the webhook answered is the server's to know, not the API's (decision 0067).
      lastResult: { delivered: false, reason: 'Not delivered', at: inLosAngeles(21, 8, 3).toISOString() },
    });
    expect(await channelAt(failing.user, up)).toMatchObject({ state: 'OK', failingSince: null, retryAt: null });

    // A day on, the message (about Thu, Nov 26) is still tried: no longer given up after a day.
    expect(await run(inLosAngeles(22, 8, 1))).toMatchObject({ failed: 0, retried: 1 });
    // Wed, Nov 25: the reminder is planned for both channels; the failing one sends one message a try, the oldest first.
    expect(await run(inLosAngeles(25, 8))).toMatchObject({ planned: 2, sent: 1, retried: 1 });
    expect(await run(inLosAngeles(26, 7, 59))).toMatchObject({ failed: 0, retried: 1 });
    expect(counts([down, up])).toEqual([6, 2]);
    // Five days after its first failure, the next failure marks it "Needs attention": what it had waiting fails.
    expect(await run(inLosAngeles(26, 9, 3))).toMatchObject({ sent: 0, failed: 2, retried: 0 });
    expect(counts([down, up])).toEqual([7, 2]);
    expect(await channelAt(failing.user, down)).toMatchObject({
      state: 'NEEDS_ATTENTION',
      failingSince: inLosAngeles(21, 8).toISOString(),
      retryAt: null,
      lastResult: { delivered: false, reason: 'Not delivered', at: inLosAngeles(26, 9, 3).toISOString() },
    });
    expect(await run(inLosAngeles(26, 23))).toMatchObject({ sent: 0, failed: 0, retried: 0 });
    // A new shortfall (insurance of $500 on Dec 3) is planned for the channel that works only.
    okJson(await failing.user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Insurance', amount: 500, day: 3 })));
    expect(await run(inLosAngeles(27, 8))).toMatchObject({ planned: 1, sent: 1 });
    expect(counts([down, up])).toEqual([7, 3]);

    // Mended, and a test arrives: the channel is back.
    receiver.behave(down, { status: 200 });
    const id = (await channelAt(failing.user, down))?.id ?? '';
    expect(okJson(await failing.user.post(NOTIFICATIONS_PATHS.test.replace(':id', id)))).toEqual({ delivered: true, message: 'Delivered' });
    expect(await channelAt(failing.user, down)).toMatchObject({ state: 'OK', failingSince: null, retryAt: null });
  });

  it('sends a retry as it was planned, reading no ledger; the next morning’s planning calls off what is no longer true', async () => {
    clock = inLosAngeles(21, 7);
    const changed = await shortUser('changed');
    const [first, second] = changed.paths as [string, string];
    receiver.behave(first, { status: 503 });
    receiver.behave(second, { status: 503 });
    ledgerReads.reset();
    await run(inLosAngeles(23, 8));
    expect(counts(changed.paths)).toEqual([1, 1]);
    // Planning reads the ledgers (the counter sees those reads).
    expect(ledgerReads.count).toBeGreaterThan(0);
    // 08:00:30: the bill is lowered, and the shortfall is gone.
    clock = inLosAngeles(23, 8, 0);
    okJson(await changed.user.put(`/api/expenses/${changed.carLoanId}`, expenseInput({ ...CAR_LOAN, amount: 50 })));
    receiver.behave(first, { status: 200 });
    ledgerReads.reset();
    expect(await run(inLosAngeles(23, 8, 1))).toMatchObject({ sent: 1, retried: 1, cancelled: 0 });
    expect(ledgerReads.count).toBe(0);
    expect(bodiesAt(receiver, first)).toEqual([
      {
        title: 'Checking goes below $0 on Thu, Nov 26, 2026',
        message: NOTICE,
        url: `${PUBLIC_URL}/`,
        kind: 'BELOW_ZERO',
        date: '2026-11-26',
      },
      {
        title: 'Checking goes below $0 on Thu, Nov 26, 2026',
        message: NOTICE,
        url: `${PUBLIC_URL}/`,
        kind: 'BELOW_ZERO',
        date: '2026-11-26',
      },
    ]);
    // Tue, Nov 24, 08:00: the day's planning reads the ledgers and calls off the message still waiting.
    receiver.behave(second, { status: 200 });
    expect(await run(inLosAngeles(24, 8))).toMatchObject({ sent: 0, cancelled: 1 });
    expect(await run(inLosAngeles(24, 12))).toMatchObject({ sent: 0 });
    expect(counts(changed.paths)).toEqual([2, 2]);
  });

  it('sends a user only their own data', async () => {
    clock = inLosAngeles(21, 7);
    const mine = await shortUser('mine');
    const theirs = test.as(newSubject('theirs'));
    okJson(await theirs.patch(NOTIFICATIONS_PATHS.profile, { timeZone: ZONE }));
    okJson(await theirs.post(EXPENSES_PATHS.add, expenseInput({ name: 'Their secret bill', amount: 999, day: 24 })));
    ledgerOf(await theirs.post(LEDGER_PATHS.create, LEDGER));
    okJson(await theirs.post(NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target: receiver.url(`/${kind}-theirs`) }));
    await run(inLosAngeles(21, 9));
    for (const path of mine.paths) {
      const [body] = bodiesAt(receiver, path);
      expect(body?.message).toBe(NOTICE);
    }
    expect(bodiesAt(receiver, `/${kind}-theirs`).map((body) => body.message)).toEqual([
      'Heads up: your Checking balance goes below $0 on Tue, Nov 24, 2026, when Their secret bill ($999.00) is due. Lowest ahead: -$1,898.00 on Thu, Dec 24, 2026.',
    ]);
  });
});

const FIXED_CLOCK_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/fixed-clock-server.mjs');

describe.runIf(databaseKinds().includes('postgres'))('notifications sent once by two server processes on one PostgreSQL database', () => {
  const processes = processRunOn('postgres');
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** A process of the built server whose clock starts at `clock`, its round every 100 ms. */
  const startAt = (clock: Date) =>
    processes().start({
      entry: FIXED_CLOCK_SERVER,
      env: { TZ: 'UTC', PUBLIC_URL, NOTIFY_ALLOW_PRIVATE_URLS: 'true', TEST_CLOCK_START: clock.toISOString(), TEST_NOTIFY_EVERY_MS: '100' },
    });

  /** Rounds of both processes in the meantime: long enough for any repeat to show. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500));

  /**
   * A user in Los Angeles short on `billDay`, set up while their hour is 23:00 so nothing is planned
   * half-way; then the hour is 08:00, already past, and the processes' next rounds plan their day.
   */
  async function shortUser(server: ServerProcess, name: string, billDay: number, paths: readonly string[]): Promise<HttpUser> {
    const user = await httpUser(server.origin, processes().issuer, newSubject(name));
    const expectOk = async (method: string, url: string, body?: unknown) => {
      const answer = await user.call(method, url, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    await expectOk('PATCH', NOTIFICATIONS_PATHS.profile, { timeZone: ZONE });
    await expectOk('PUT', NOTIFICATIONS_PATHS.settings, { hour: 23, belowZero: true, billsDue: false });
    await expectOk('POST', EXPENSES_PATHS.add, expenseInput({ ...CAR_LOAN, day: billDay }));
    await expectOk('POST', LEDGER_PATHS.create, LEDGER);
    for (const path of paths) await expectOk('POST', NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target: receiver.url(path) });
    await expectOk('PUT', NOTIFICATIONS_PATHS.settings, { hour: 8, belowZero: true, billsDue: false });
    return user;
  }

  it('sends each message once with two processes, nothing twice after a restart, and again after a SIGKILL mid-send', async () => {
    const paths = ['/ann-a', '/ann-b', '/ben-a', '/ben-b'];
    const count = (path: string) => bodiesAt(receiver, path).length;
    // Sat, Nov 21, 10:00 in Los Angeles.
    let servers = [await startAt(inLosAngeles(21, 10)), await startAt(inLosAngeles(21, 10))];
    await shortUser(servers[0] as ServerProcess, 'ann', 26, paths.slice(0, 2));
    await shortUser(servers[1] as ServerProcess, 'ben', 26, paths.slice(2));
    for (const path of paths) await receiver.waitFor(1, path);
    await settle();
    expect(paths.map(count)).toEqual([1, 1, 1, 1]);
    expect(bodiesAt(receiver, '/ann-a')[0]?.message).toBe(NOTICE);

    // A restart later the same day: the day is planned and its messages sent; nothing goes twice.
    for (const server of servers) await server.stop();
    servers = [await startAt(inLosAngeles(21, 11)), await startAt(inLosAngeles(21, 11))];
    await settle();
    expect(paths.map(count)).toEqual([1, 1, 1, 1]);

    // Wed, Nov 25, the day before: one reminder each, from whichever process claims it first.
    for (const server of servers) await server.stop();
    servers = [await startAt(inLosAngeles(25, 9)), await startAt(inLosAngeles(25, 9))];
    for (const path of paths) await receiver.waitFor(2, path);
    await settle();
    expect(paths.map(count)).toEqual([2, 2, 2, 2]);
    expect(bodiesAt(receiver, '/ben-b')[1]).toMatchObject({ title: 'Tomorrow: Checking goes below $0', date: '2026-11-26' });

    // One process, killed while a webhook holds its request: the message is sent again once the lease runs out.
    for (const server of servers) await server.stop();
    const doomed = await startAt(inLosAngeles(25, 10));
    receiver.behave('/cai', 'hold');
    await shortUser(doomed, 'cai', 28, ['/cai']);
    await receiver.waitFor(1, '/cai');
    await doomed.kill();
    // Ten minutes on: the killed process's lease (two minutes) has run out.
    const heir = await startAt(inLosAngeles(25, 10, 10));
    await receiver.waitFor(2, '/cai');
    receiver.release('/cai');
    await settle();
    expect(count('/cai')).toBe(2);
    expect(bodiesAt(receiver, '/cai').map((body) => body.date)).toEqual(['2026-11-28', '2026-11-28']);
    await heir.stop();
    expect(paths.map(count)).toEqual([2, 2, 2, 2]);
  }, 180_000);
});
