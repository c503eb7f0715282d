/**
 * The webhook channel (issue 26 item 3, decision 0051) against a real HTTP receiver on loopback,
 * on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: the JSON POST, ntfy's own form for an ntfy
 * topic, no redirect followed, the timeout, and private addresses refused when the operator has
 * not allowed them (NOTIFY_ALLOW_PRIVATE_URLS), when added and again when sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NotificationSettings, NOTIFICATIONS_PATHS, notificationSettingsSchema } from '../../src/contract/notifications.js';
import { todayInZone } from '../../src/domain/time-zones.js';
import { PRIVATE_ADDRESS_REFUSED } from '../../src/server/notifications/address-guard.js';
import { sendWebhook, WEBHOOK_TIMEOUT_MS } from '../../src/server/notifications/webhook-sender.js';
import { expectBadRequest, newSubject } from '../support/api-expectations.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/notify-receivers.js';
import { okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, TEST_NOW, type TestApp, type UserClient } from '../support/test-app.js';

/** The test-send call of a channel (its path names the channel's id before /test). */
const testPath = (id: string) => NOTIFICATIONS_PATHS.test.replace(':id', encodeURIComponent(id));

const PUBLIC_URL = 'https://leftover.example.com';
/** Short, so the timeout test waits a moment; production's is WEBHOOK_TIMEOUT_MS. */
const TEST_TIMEOUT_MS = 400;
const TEST_MESSAGE = 'This is a test from Leftover: notifications reach you here.';

describe.each(databaseKinds())('webhooks on %s', (kind) => {
  let receiver: WebhookReceiver;
  /** NOTIFY_ALLOW_PRIVATE_URLS=true, as a home server sending to its own network would. */
  let allowing: TestApp;
  /** The default: private addresses refused. */
  let guarded: TestApp;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    const env = { TZ: 'UTC', PUBLIC_URL };
    allowing = await startTestApp(kind, {
      env: { ...env, NOTIFY_ALLOW_PRIVATE_URLS: 'true' },
      notifications: { webhookTimeoutMs: TEST_TIMEOUT_MS },
    });
    guarded = await startTestApp(kind, { env });
  });
  afterAll(async () => {
    await allowing?.close();
    await guarded?.close();
    await receiver?.close();
  });

  async function addWebhook(user: UserClient, target: string): Promise<string> {
    const settings = notificationSettingsSchema.parse(okJson(await user.post(NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target })));
    const channel = settings.channels.find((candidate) => candidate.target === target);
    if (!channel) throw new Error(`no channel for ${target}`);
    expect(channel).toMatchObject({ kind: 'WEBHOOK', confirmed: true, lastResult: null });
    return channel.id;
  }

  const testSend = async (user: UserClient, id: string) => okJson(await user.post(testPath(id)));

  it('POSTs { title, message, url, kind, date } as JSON and records that it arrived', async () => {
    const user = allowing.as(newSubject('webhook'));
    const id = await addWebhook(user, receiver.url('/json'));
    expect(await testSend(user, id)).toEqual({ delivered: true });
    const [request] = await receiver.waitFor(1, '/json');
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      title: 'Leftover test',
      message: TEST_MESSAGE,
      url: `${PUBLIC_URL}/`,
      kind: 'TEST',
      date: todayInZone(TEST_NOW, 'UTC'),
    });
    const settings: NotificationSettings = notificationSettingsSchema.parse(okJson(await user.get(NOTIFICATIONS_PATHS.settings)));
    expect(settings.channels[0]?.lastResult).toEqual({ delivered: true, at: TEST_NOW.toISOString() });
  });

  it('publishes to an ntfy topic as ntfy expects: JSON to the server’s root naming the topic, with a title and a click', async () => {
    const user = allowing.as(newSubject('ntfy'));
    // A self-hosted ntfy is usually named ntfy.<domain>; *.localhost is loopback by definition (RFC 6761).
    const id = await addWebhook(user, `http://ntfy.localhost:${receiver.port}/leftover-alerts?auth=QmVhcmVy`);
    expect(await testSend(user, id)).toEqual({ delivered: true });
    const [request] = await receiver.waitFor(1, '/?auth=QmVhcmVy');
    expect(request?.method).toBe('POST');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      topic: 'leftover-alerts',
      title: 'Leftover test',
      message: TEST_MESSAGE,
      click: `${PUBLIC_URL}/`,
      tags: [],
    });
  });

  it('does not follow a redirect: the 302 is the answer, and where it points gets nothing', async () => {
    const user = allowing.as(newSubject('redirect'));
    receiver.behave('/moved', { status: 302, location: receiver.url('/landed') });
    const id = await addWebhook(user, receiver.url('/moved'));
    expect(await testSend(user, id)).toEqual({
      delivered: false,
      reason: 'The webhook answered 302, a redirect, which Leftover does not follow.',
    });
    await receiver.waitFor(1, '/moved');
    expect(receiver.received.filter((request) => request.path === '/landed')).toEqual([]);
    const settings = notificationSettingsSchema.parse(okJson(await user.get(NOTIFICATIONS_PATHS.settings)));
    expect(settings.channels[0]?.lastResult).toEqual({
      delivered: false,
      reason: 'The webhook answered 302, a redirect, which Leftover does not follow.',
      at: TEST_NOW.toISOString(),
    });
  });

  it('gives up on a webhook that does not answer in time (5 s in production)', async () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(5_000);
    const user = allowing.as(newSubject('slow'));
    receiver.behave('/slow', 'hold');
    const id = await addWebhook(user, receiver.url('/slow'));
    const started = Date.now();
    expect(await testSend(user, id)).toEqual({ delivered: false, reason: 'The webhook did not answer within 0.4 seconds.' });
    expect(Date.now() - started).toBeLessThan(TEST_TIMEOUT_MS + 3_000);
    receiver.release('/slow');
  });

  it('says what a failing webhook answered', async () => {
    const user = allowing.as(newSubject('failing'));
    receiver.behave('/broken', { status: 503 });
    const id = await addWebhook(user, receiver.url('/broken'));
    expect(await testSend(user, id)).toEqual({ delivered: false, reason: 'The webhook answered 503.' });
  });

  it('refuses loopback, private, link-local and metadata addresses when they are not allowed, and sends them nothing', async () => {
    const user = guarded.as(newSubject('guarded'));
    const before = receiver.received.length;
    for (const target of [
      receiver.url('/private'),
      `http://localhost:${receiver.port}/private`,
      `http://ntfy.localhost:${receiver.port}/topic`,
      `http://[::1]:${receiver.port}/private`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/private`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/hook',
      'http://192.168.1.20/hook',
      'http://172.16.0.9/hook',
      'http://100.100.100.200/hook',
      'http://[fd00:ec2::254]/hook',
      'http://[fe80::1]/hook',
      'http://0.0.0.0/hook',
      'http://2130706433/hook',
    ]) {
      expectBadRequest(
        await user.post(NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target }),
        { target: PRIVATE_ADDRESS_REFUSED },
        PRIVATE_ADDRESS_REFUSED,
      );
    }
    expect(notificationSettingsSchema.parse(okJson(await user.get(NOTIFICATIONS_PATHS.settings))).channels).toEqual([]);
    // At send time the address the socket would connect to is checked again (a name that resolves privately, or a literal).
    const message = { title: 't', message: 'm', url: `${PUBLIC_URL}/`, kind: 'TEST', date: '2026-11-21' } as const;
    for (const target of [`http://ntfy.localhost:${receiver.port}/topic`, receiver.url('/private')]) {
      expect(await sendWebhook(target, message, { allowPrivate: false })).toEqual({
        delivered: false,
        reason: PRIVATE_ADDRESS_REFUSED,
        retry: false,
      });
    }
    expect(receiver.received.length).toBe(before);
  });
});
