/**
 * Fair notifications (issue 34 item 3, decision 0070), on SQLite and (with TEST_POSTGRES_URL)
 * PostgreSQL: two attackers, each with 20 accounts going below $0 and 10 webhooks that take the
 * request and never answer (400 messages waiting between them), cannot hold up a third user's
 * notice: it arrives within 60 s of that user's hour.
 *
 * The app runs its own timer, as a server does, on a clock 20 times faster than real time, and
 * the waits that are real are scaled alike: a webhook's 5 s timeout is 250 ms, a round every 100 ms
 * (2 s). Its sends are 4 at once and at most 2 of one user's, so the attackers alone fill every
 * slot: the third user's notice still goes at the next free one. Work the processor does is not
 * scaled (a real second is 20 s of the app's), so the attackers' own planning is done before the
 * third user's hour is near.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSchema, ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { NOTIFICATIONS_PATHS } from '../../src/contract/notifications.js';
import { WEBHOOK_TIMEOUT_MS } from '../../src/server/notifications/webhook-sender.js';
import { inAccount, newSubject } from '../support/api-expectations.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/notify-receivers.js';
import { recordFigures } from '../support/reliability-figures.js';
import { expenseInput, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

/** App milliseconds a real millisecond. */
const SPEED = 20;
const PUBLIC_URL = 'https://leftover.example.com';
/** Sat, Nov 21, 2026 in UTC (the server's zone and every user's). */
const at = (hour: number, minute: number, second = 0) => Date.UTC(2026, 10, 21, hour, minute, second);
const LEDGER = { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 100 } };
/** $100 less $310.44 on Thu, Nov 26: below $0 within the 14 days ahead. */
const BILL = { name: 'Car loan', amount: 310.44, day: 26 };
const ATTACKER_ACCOUNTS = 20;
const ATTACKER_WEBHOOKS = 10;

describe.each(databaseKinds())('fair notifications on %s', (kind) => {
  let receiver: WebhookReceiver;
  let test: TestApp;
  /** The app's clock: `app` at the real moment `real`, running SPEED times as fast. */
  let anchor = { app: at(6, 0), real: Date.now() };
  const appNow = () => anchor.app + (Date.now() - anchor.real) * SPEED;
  const setClock = (app: number) => {
    anchor = { app, real: Date.now() };
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    test = await startTestApp(kind, {
      now: () => new Date(appNow()),
      env: { TZ: 'UTC', PUBLIC_URL, NOTIFY_ALLOW_PRIVATE_URLS: 'true' },
      notifications: {
        everyMs: 100,
        webhookTimeoutMs: Math.round(WEBHOOK_TIMEOUT_MS / SPEED),
        sendConcurrency: 4,
        sendsPerUser: 2,
      },
    });
  });
  afterAll(async () => {
    await test?.close();
    await receiver?.close();
  });

  /** A user whose day's messages go at `hour`, with `accounts` accounts each going below $0 on Nov 26. */
  async function userWith(name: string, hour: number, accounts: number): Promise<UserClient> {
    const user = test.as(newSubject(name));
    okJson(await user.put(NOTIFICATIONS_PATHS.settings, { hour, belowZero: true, billsDue: false }));
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput(BILL)));
    okJson(await user.post(LEDGER_PATHS.create, LEDGER));
    for (let index = 1; index < accounts; index += 1) {
      const { id } = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: `Savings ${index}`, kind: 'SAVINGS' })));
      okJson(await user.post(EXPENSES_PATHS.add, { ...expenseInput(BILL), accountId: id }));
      okJson(await user.post(inAccount(LEDGER_PATHS.create, id), LEDGER));
    }
    return user;
  }

  async function addWebhooks(user: UserClient, paths: readonly string[]): Promise<void> {
    for (const path of paths) okJson(await user.post(NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target: receiver.url(path) }));
  }

  it('sends a third user’s notice within 60 s of their hour while two attackers’ 20 webhooks hang', async () => {
    const hanging = ['a', 'b'].flatMap((attacker) =>
      Array.from({ length: ATTACKER_WEBHOOKS }, (_, index) => `/${kind}-attacker-${attacker}-${index}`),
    );
    for (const path of hanging) receiver.behave(path, 'hold');
    // Set up at 06:00, before anybody's hour: the attackers' is 07:00, the third user's 08:00.
    setClock(at(6, 0));
    await Promise.all(
      ['a', 'b'].map(async (attacker, index) =>
        addWebhooks(
          await userWith(`attacker-${attacker}`, 7, ATTACKER_ACCOUNTS),
          hanging.slice(index * ATTACKER_WEBHOOKS, (index + 1) * ATTACKER_WEBHOOKS),
        ),
      ),
    );
    const victim = `/${kind}-victim`;
    await addWebhooks(await userWith('victim', 8, 1), [victim]);
    const attackerRequests = () => receiver.received.filter((request) => hanging.includes(request.path)).length;
    expect(attackerRequests()).toBe(0);

    // 07:00: the attackers' day is planned, and every one of their webhooks is sent to and hangs.
    setClock(at(7, 0));
    for (const path of hanging) await receiver.waitFor(1, path, 20_000);
    // 07:59:50: their channels are due again (a minute's back-off is long over), and 10 s later the third user's hour comes.
    setClock(at(7, 59, 50));
    const jumped = anchor.real;
    const [notice] = await receiver.waitFor(1, victim, 20_000);
    const arrivedAt = anchor.app + ((notice?.receivedAt ?? Number.NaN) - anchor.real) * SPEED;
    const lateSeconds = (arrivedAt - at(8, 0)) / 1000;
    const held = receiver.received.filter(
      (request) => hanging.includes(request.path) && request.receivedAt >= jumped && request.receivedAt <= (notice?.receivedAt ?? 0),
    );

    recordFigures(`notify-fair-${kind}`, {
      noticeSecondsAfterHour: Math.round(lateSeconds * 10) / 10,
      attackerMessagesWaiting: ATTACKER_ACCOUNTS * ATTACKER_WEBHOOKS * 2,
      attackerSendsHangingBeforeIt: held.length,
      attackersHeardFrom: new Set(held.map((request) => request.path.split('-')[2])).size,
      speed: SPEED,
    });
    expect(JSON.parse(notice?.body ?? '{}')).toMatchObject({ kind: 'BELOW_ZERO', date: '2026-11-26' });
    // Not before its hour, and within a minute of it.
    expect(lateSeconds).toBeGreaterThanOrEqual(0);
    expect(lateSeconds).toBeLessThan(60);
    // The attack was on: both attackers' webhooks were already holding sends.
    expect(new Set(held.map((request) => request.path.split('-')[2]))).toEqual(new Set(['a', 'b']));
    expect(held.length).toBeGreaterThanOrEqual(4);
  }, 60_000);
});
