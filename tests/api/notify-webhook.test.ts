/**
 * The webhook channel (issue 26 item 3, decision 0051) against a real HTTP receiver on loopback,
 * on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: the JSON POST, ntfy's own form for an ntfy
 * topic, no redirect followed, the timeout, a test that answers only "Delivered" or "Not
 * delivered" with why in the server's log (issue 34), and every address but a globally routable
 * one that is not the server's own refused when the operator has not allowed private ones
 * (NOTIFY_ALLOW_PRIVATE_URLS, decision 0067), when added and again when sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
/** All a test send may say when it failed, whatever happened (decision 0067). */
const NOT_DELIVERED = { delivered: false, message: 'Not delivered' };

/** Every address of this machine's interfaces but loopback: 192.0.2.2 here, a private or public one elsewhere. */
const ownAddresses = () =>
  Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal)
    .map((entry) => entry.address);

/** A loopback port nothing listens on: a server's, closed again. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(databaseKinds())('webhooks on %s', (kind) => {
  let receiver: WebhookReceiver;
  /** NOTIFY_ALLOW_PRIVATE_URLS=true, as a home server sending to its own network would. */
  let allowing: TestApp;
  /** What `allowing` logs (warnings and worse): where a failed test's reason goes. */
  const logLines: string[] = [];
  /** The default: private addresses refused. */
  let guarded: TestApp;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    const env = { TZ: 'UTC', PUBLIC_URL };
    allowing = await startTestApp(kind, {
      env: { ...env, NOTIFY_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'warn' },
      notifications: { webhookTimeoutMs: TEST_TIMEOUT_MS },
      logStream: { write: (line) => void logLines.push(line) },
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

  /** The reasons the log gives for the failed tests of one channel. */
  const loggedReasons = (id: string): string[] =>
    logLines
      .map((line) => JSON.parse(line) as { msg?: string; channelId?: string; reason?: string })
      .filter((entry) => entry.msg === 'a test notification was not delivered' && entry.channelId === id)
      .map((entry) => entry.reason ?? '');

  it('POSTs { title, message, url, kind, date } as JSON and records that it arrived', async () => {
    const user = allowing.as(newSubject('webhook'));
    const id = await addWebhook(user, receiver.url('/json'));
    expect(await testSend(user, id)).toEqual({ delivered: true, message: 'Delivered' });
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
    expect(await testSend(user, id)).toEqual({ delivered: true, message: 'Delivered' });
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
    expect(await testSend(user, id)).toEqual(NOT_DELIVERED);
    await receiver.waitFor(1, '/moved');
    expect(receiver.received.filter((request) => request.path === '/landed')).toEqual([]);
    expect(loggedReasons(id)).toEqual(['The webhook answered 302, a redirect, which Leftover does not follow.']);
  });

  it('gives up on a webhook that does not answer in time (5 s in production)', async () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(5_000);
    const user = allowing.as(newSubject('slow'));
    receiver.behave('/slow', 'hold');
    const id = await addWebhook(user, receiver.url('/slow'));
    const started = Date.now();
    expect(await testSend(user, id)).toEqual(NOT_DELIVERED);
    expect(Date.now() - started).toBeLessThan(TEST_TIMEOUT_MS + 3_000);
    expect(loggedReasons(id)).toEqual(['The webhook did not answer within 0.4 seconds.']);
    receiver.release('/slow');
  });

  it('answers a refusal, a timeout and a closed port alike, "Not delivered", here and in Settings; why goes to the log', async () => {
    const user = allowing.as(newSubject('alike'));
    receiver.behave('/refusing', { status: 403 });
    receiver.behave('/holding', 'hold');
    const refusing = await addWebhook(user, receiver.url('/refusing'));
    const holding = await addWebhook(user, receiver.url('/holding'));
    const closed = await addWebhook(user, `http://127.0.0.1:${await closedPort()}/hook`);
    for (const id of [refusing, holding, closed]) expect(await testSend(user, id)).toEqual(NOT_DELIVERED);
    receiver.release('/holding');
    // Settings says no more than the answer did: a webhook's last result carries no reason either.
    const settings = notificationSettingsSchema.parse(okJson(await user.get(NOTIFICATIONS_PATHS.settings)));
    expect(settings.channels.map((channel) => channel.lastResult)).toEqual(
      [1, 2, 3].map(() => ({ delivered: false, reason: 'Not delivered', at: TEST_NOW.toISOString() })),
    );
    expect([refusing, holding, closed].map(loggedReasons)).toEqual([
      ['The webhook answered 403.'],
      ['The webhook did not answer within 0.4 seconds.'],
      ['Could not reach the webhook (ECONNREFUSED).'],
    ]);
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
      // Issue 34: an allow-list, so every special-purpose block and every spelling of one is refused.
      'http://192.0.2.2/hook',
      'http://198.18.0.1/hook',
      'http://198.51.100.7/hook',
      'http://203.0.113.9/hook',
      'http://100.64.0.1/hook',
      'http://224.0.0.1/hook',
      'http://255.255.255.255/hook',
      'http://240.0.0.1/hook',
      'http://[::127.0.0.1]/hook',
      'http://[::ffff:10.0.0.1]/hook',
      'http://[2002:7f00:1::]/hook',
      'http://[2002:c0a8:114::1]/hook',
      'http://[64:ff9b::7f00:1]/hook',
      'http://[64:ff9b::a00:1]/hook',
      'http://[fc00::1]/hook',
      'http://[fe80::]/hook',
      'http://[ff02::1]/hook',
      'http://[2001:db8::1]/hook',
      // The server's own interfaces, whatever their addresses.
      ...ownAddresses().map((address) => `http://${net.isIPv6(address) ? `[${address}]` : address}:${receiver.port}/own`),
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

describe("the server's own address", () => {
  it('is refused at the check, before any socket connects: http://<this host’s address>/', async () => {
    const addresses = ownAddresses();
    expect(addresses.length).toBeGreaterThan(0);
    // Were the check to let one through, the spy stops the connection before a packet leaves.
    const connect = vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(() => {
      throw new Error('a connection was attempted');
    });
    try {
      const message = { title: 't', message: 'm', url: `${PUBLIC_URL}/`, kind: 'TEST', date: '2026-11-21' } as const;
      for (const address of addresses) {
        const target = `http://${net.isIPv6(address) ? `[${address}]` : address}/`;
        expect(await sendWebhook(target, message, { allowPrivate: false }), target).toEqual({
          delivered: false,
          reason: PRIVATE_ADDRESS_REFUSED,
          retry: false,
        });
      }
      // Globally routable, but this server's own (as a host with a public address would list it): refused all the same.
      expect(await sendWebhook('http://8.8.4.4/', message, { allowPrivate: false, ownAddresses: () => ['8.8.4.4'] })).toEqual({
        delivered: false,
        reason: PRIVATE_ADDRESS_REFUSED,
        retry: false,
      });
      expect(connect).not.toHaveBeenCalled();
    } finally {
      connect.mockRestore();
    }
  });
});
