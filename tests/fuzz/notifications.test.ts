/**
 * Notifications against hostile input and random days (issue 34 item 8), on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL, with real receivers on 127.0.0.1 (an HTTP server for webhooks,
 * smtp-server for mail) and nothing of ours stood in for. Three properties:
 *  - hostile calls: fast-check sends random settings, channels (webhook URLs and push endpoints
 *    naming this host in every spelling it knows: 127/8 in decimal, hex, octal and shortened
 *    forms, IPv6 forms of it, localhost names, names /etc/hosts maps to loopback, the host's own
 *    addresses, private blocks; email addresses with line breaks or spelt many ways), removals and
 *    tests with other or unknown ids, to a server that refuses private addresses. Never a 5xx; a
 *    400 names its fields; anything but a 200 changes nothing; no webhook or push endpoint that
 *    names this host is accepted, and the receiver never sees a connection; no address gets more
 *    than one confirmation mail (one an hour, counted per mailbox across users);
 *  - refused at send: channels to those spellings, added while the operator allowed private
 *    addresses, then sent to (a test, the day's round) by a server that does not: "Not delivered",
 *    and no connection;
 *  - random days: users in several zones, each with a shortfall ahead, webhooks and an email
 *    address, through random clock moves (a minute to 5 days), webhook answers (200, 503, 403, a
 *    redirect, a hang past the timeout), bills changed and tests sent. Every call answers 200; each
 *    planned message arrives at most once per channel, every try of it with the text it was planned
 *    with (the bill changed since or not); a round in which nobody's day is due reads no ledger; in
 *    every round another user's sends started before a user's first are at most one per other user
 *    plus the slots under way; a failing channel is tried again only after its back-off, nothing is
 *    sent to it once 5 days of failures make it "Needs attention", and Settings says so; an
 *    unconfirmed address gets its confirmation mail and nothing else.
 * Runs: FUZZ_RUNS / 10 hostile calls, FUZZ_RUNS / 100 refused-at-send and random-days runs per
 * database (20, 2 and 2 in `npm test`, about 8 s for both databases; 200, 20 and 20 under `npm run
 * fuzz`). A failure prints fast-check's seed and the shrunk case.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerReads } from '../support/ledger-reads.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { type ChannelInfo, NOTIFICATIONS_PATHS, notificationSettingsSchema } from '../../src/contract/notifications.js';
import { runNotifications } from '../../src/server/app.js';
import { createPushSender } from '../../src/server/notifications/push-sender.js';
import { newSubject } from '../support/api-expectations.js';
import {
  recipientsOf,
  type SmtpReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/notify-receivers.js';
import { expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type TestAppOptions, type UserClient } from '../support/test-app.js';

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const HOSTILE_RUNS = Math.max(1, Math.round(FUZZ_RUNS / 10));
const SCENARIO_RUNS = Math.max(1, Math.round(FUZZ_RUNS / 100));

const PUBLIC_URL = 'https://leftover.example.com';
/** Sat, Nov 21, 2026, midnight on a UTC server: where every random-days run starts. */
const START = Date.UTC(2026, 10, 21, 0, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/**
 * Short, so a hanging webhook costs a run little (production's is 5 s), yet far above an answer's
 * few milliseconds: a 200 that comes after it is a failure to the sender and a delivery to the
 * receiver, and the run could not tell who is right (such a run is counted and its delivery checks
 * left out).
 */
const WEBHOOK_TIMEOUT_MS = 500;
/** Sends under way at once, and of one user's (as notify-fair.test.ts has them). */
const SEND_CONCURRENCY = 4;
const SENDS_PER_USER = 2;
const CONFIRM_SUBJECT = 'Confirm your address for Leftover';

const channelPath = (id: string) => NOTIFICATIONS_PATHS.channel.replace(':id', encodeURIComponent(id));
const testPath = (id: string) => NOTIFICATIONS_PATHS.test.replace(':id', encodeURIComponent(id));

// ---- this host, spelt every way a URL may spell it ---------------------------------------------

/** The host's own addresses (192.0.2.2 here) and names /etc/hosts maps to loopback ("vm" here). */
const OWN_HOSTS = [
  ...Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => (net.isIPv6(entry.address) ? `[${entry.address.split('%')[0] ?? entry.address}]` : entry.address)),
  os.hostname(),
];

/** Hosts a URL may name that are loopback, this host, or a block no public send may reach. */
const localHost: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '127.0.0.1',
    '127.1',
    '127.0.1',
    '127.0.0.1.',
    '0x7f.0.0.1',
    '0x7f.1',
    '0x7f000001',
    '0X7F000001',
    '2130706433',
    '0177.0.0.1',
    '017700000001',
    '127.000.000.001',
    '%31%32%37.0.0.1',
    '\uff11\uff12\uff17.\uff10.\uff10.\uff11',
    '0',
    '0.0.0.0',
    'localhost',
    'LocalHost.',
    'ntfy.localhost',
    'a.b.localhost',
    'vm',
    'runsc',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[::]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::127.0.0.1]',
    '[64:ff9b::7f00:1]',
    '[2002:7f00:1::]',
    '[::ffff:192.0.2.2]',
    '10.0.0.1',
    '192.168.1.1',
    '172.16.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '192.0.2.2',
    '198.18.0.1',
    '[fe80::1]',
    '[fc00::1]',
    '[fd00:ec2::254]',
    ...OWN_HOSTS,
  ),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `127.${a}.${b}.${c}`),
  fc.nat(0xffffff).map((offset) => String(0x7f000000 + offset)),
);

/** A path and query, some hostile. */
const urlTail: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('/', '/hook', '/topic', '/a?b=c', '/%2e%2e/admin', '/#frag', '/\u0000', '/ ', '/\r\nX: y'),
  fc.webPath(),
);

const scheme = fc.constantFrom('http', 'https', 'HTTP', 'Https');

/** A base64url push key of this many bytes. */
const pushKeyOf = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((array) => Buffer.from(array).toString('base64url'));

/** A device's real keys: a P-256 public key and a 16-byte auth secret. */
function deviceKeys(): { p256dh: string; auth: string } {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
}
const DEVICE_KEYS = deviceKeys();

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\u202e\u200b',
    'NaN',
    '1e400',
    '__proto__',
    'constructor',
    "'; DROP TABLE notification_channels; --",
    '<script>alert(1)</script>',
    -1,
    0,
    7.5,
    24,
    1e15,
    Number.MAX_SAFE_INTEGER,
    true,
    null,
    [],
    {},
    JSON.parse('{"__proto__": {"polluted": true}}') as Json,
  ),
  fc.string({ minLength: 250, maxLength: 2_100 }),
);

/** Addresses of few mailboxes, spelt several ways: the limits count mailboxes, not spellings. */
const emailTarget: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    'ann@example.com',
    'Ann@Example.COM',
    ' ann@example.com ',
    'ann+bills@example.com',
    'a.n.n@gmail.com',
    'ann@googlemail.com',
    'bob@example.org',
    'bob+x+y@example.org',
    'ann@example.com\r\nBcc: victim@example.net',
    'ann@example.com\nSubject: hi',
    'ann@example.com, victim@example.net',
    '"ann"@example.com',
    'ann@[127.0.0.1]',
    'ann@localhost',
    '@example.com',
    'ann@',
    `${'a'.repeat(250)}@example.com`,
  ),
  hostileValue,
);

/** A user's normalised mailbox, as the issue counts it: case, a +tag and a Gmail address's dots do not matter. */
function mailbox(address: string): string {
  const lowered = address.trim().toLowerCase();
  const at = lowered.lastIndexOf('@');
  let local = lowered.slice(0, at).split('+')[0] ?? '';
  let domain = lowered.slice(at + 1);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

type HostileCall =
  | { readonly op: 'settings'; readonly body: Json }
  | { readonly op: 'add'; readonly kind: 'WEBHOOK' | 'PUSH' | 'EMAIL' | 'OTHER'; readonly body: Json }
  | { readonly op: 'remove' | 'test'; readonly pick: number; readonly id: string | null };

function hostileCalls(port: number): fc.Arbitrary<HostileCall> {
  const localUrl = fc
    .tuple(scheme, localHost, fc.option(fc.constant(port), { nil: undefined }), urlTail)
    .map(([protocol, host, withPort, tail]) => `${protocol}://${host}${withPort === undefined ? '' : `:${withPort}`}${tail}`);
  const localHttpsUrl = fc.tuple(localHost, urlTail).map(([host, tail]) => `https://${host}:${port}${tail}`);
  return fc.oneof(
    fc.record({
      op: fc.constant('settings' as const),
      body: fc.oneof(
        fc.record(
          {
            hour: fc.oneof(fc.integer({ min: -2, max: 26 }), hostileValue),
            belowZero: fc.oneof(fc.boolean(), hostileValue),
            billsDue: fc.oneof(fc.boolean(), hostileValue),
          },
          { requiredKeys: [] },
        ),
        hostileValue,
      ),
    }),
    fc.record({
      op: fc.constant('add' as const),
      kind: fc.constant('WEBHOOK' as const),
      body: fc.record({ kind: fc.constant<Json>('WEBHOOK'), target: fc.oneof(localUrl, localUrl, hostileValue) }),
    }),
    fc.record({
      op: fc.constant('add' as const),
      kind: fc.constant('PUSH' as const),
      body: fc.record({
        kind: fc.constant<Json>('PUSH'),
        target: fc.oneof(
          fc.record({
            endpoint: fc.oneof(localHttpsUrl, localHttpsUrl, localUrl, hostileValue),
            keys: fc.oneof(
              fc.constant<Json>(DEVICE_KEYS),
              fc.record({ p256dh: fc.oneof(pushKeyOf(65), hostileValue), auth: fc.oneof(pushKeyOf(16), hostileValue) }),
              hostileValue,
            ),
          }),
          hostileValue,
        ),
      }),
    }),
    fc.record({
      op: fc.constant('add' as const),
      kind: fc.constant('EMAIL' as const),
      body: fc.record({ kind: fc.constant<Json>('EMAIL'), target: emailTarget }),
    }),
    fc.record({
      op: fc.constant('add' as const),
      kind: fc.constant('OTHER' as const),
      body: fc.oneof(
        fc.record({ kind: fc.oneof(fc.constantFrom<Json>('SMS', 'email', 'webhook', ''), hostileValue), target: hostileValue }),
        hostileValue,
      ),
    }),
    fc.record({
      op: fc.constantFrom('remove' as const, 'test' as const),
      // One of the caller's channels, another user's, or an id of no channel.
      pick: fc.nat(),
      id: fc.option(fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }), fc.constantFrom('..', '%2F', 'null', '0')), { nil: null }),
    }),
  );
}

/** A non-200 answer: the contract's error body; a 400 names every field it refuses, each with words. */
function expectRefusal(answer: LightMyRequestResponse): void {
  expect([400, 404, 409, 413], answer.body).toContain(answer.statusCode);
  const body = strictErrorBodySchema.parse(answer.json());
  if (answer.statusCode === 400) {
    const fields = Object.entries(body.error.fields ?? {});
    expect(fields.length, answer.body).toBeGreaterThan(0);
    for (const [field, message] of fields) {
      expect(field).not.toBe('');
      expect(message.length, answer.body).toBeGreaterThan(0);
    }
  }
}

// ---- random days -------------------------------------------------------------------------------

const ZONES = ['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Kiritimati'] as const;

type Outcome = 'ok' | 'unavailable' | 'forbidden' | 'redirect' | 'hang';
const OUTCOME_BEHAVIOUR = {
  ok: { status: 200 },
  unavailable: { status: 503 },
  forbidden: { status: 403 },
  redirect: { status: 302, location: 'http://127.0.0.1:9/elsewhere' },
  hang: 'hold',
} as const;

interface UserPlan {
  readonly zone: (typeof ZONES)[number];
  readonly hour: number;
  readonly billsDue: boolean;
  readonly bill: { readonly amount: number; readonly day: number };
  readonly webhooks: number;
  readonly email: 'none' | 'unconfirmed' | 'confirmed';
}

type Step =
  | { readonly op: 'round'; readonly minutes: number; readonly outcomes: readonly Outcome[] }
  | { readonly op: 'bill'; readonly user: number; readonly amount: number }
  | { readonly op: 'test'; readonly user: number; readonly channel: number };

const userPlan: fc.Arbitrary<UserPlan> = fc.record({
  zone: fc.constantFrom(...ZONES),
  hour: fc.integer({ min: 0, max: 23 }),
  billsDue: fc.boolean(),
  bill: fc.record({ amount: fc.integer({ min: 101, max: 900 }), day: fc.integer({ min: 23, max: 30 }) }),
  // Now and then an attacker's many webhooks: what users in turn must keep from holding up the others.
  webhooks: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 5, max: 8 }) }),
  email: fc.constantFrom('none' as const, 'unconfirmed' as const, 'confirmed' as const),
});

const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('ok' as const) },
  { weight: 3, arbitrary: fc.constant('unavailable' as const) },
  { weight: 1, arbitrary: fc.constant('forbidden' as const) },
  { weight: 1, arbitrary: fc.constant('redirect' as const) },
  { weight: 1, arbitrary: fc.constant('hang' as const) },
);

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('round' as const),
      minutes: fc.constantFrom(0, 1, 2, 3, 7, 20, 64, 121, 600, 1_440, 2_880, 5 * 1_440 + 3),
      outcomes: fc.array(outcome, { minLength: 1, maxLength: 6 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('bill' as const), user: fc.nat(), amount: fc.integer({ min: 1, max: 900 }) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('test' as const), user: fc.nat(), channel: fc.nat() }) },
);

/** The date and hour at `ms` in `zone`, read with Intl (not the server's own code). */
function localMoment(ms: number, zone: string): { date: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/** A channel's back-off after `failures` failures in a row, as decision 0070 states it: 1, 2, 4 ... 64 minutes, then 2 hours. */
const backOffMs = (failures: number) => Math.min(2 ** (failures - 1), 120) * MINUTE;
const NEEDS_ATTENTION_MS = 5 * DAY;

interface Webhook {
  readonly title: string;
  readonly message: string;
  readonly kind: string;
  readonly date: string;
}

/** A try at a webhook, at the app's time: by the day's round or by a test. */
interface Attempt {
  readonly by: 'round' | 'test';
  readonly at: number;
  readonly delivered: boolean;
  readonly body: Webhook;
}

const textOf = (mail: { text?: string | undefined }) => (mail.text ?? '').split('\n\n')[0] ?? '';

describe.each(databaseKinds())('notifications fuzzer on %s', (kind) => {
  let receiver: WebhookReceiver;
  let smtp: SmtpReceiver;
  /** Private addresses refused (the default), email and push offered. */
  let guarded: TestApp;
  /** The same database with NOTIFY_ALLOW_PRIVATE_URLS=true: the operator's setting before they turned it off. */
  let allowing: TestApp;
  /** NOTIFY_ALLOW_PRIVATE_URLS=true on a database of its own, its clock moved by the runs: the random days. */
  let days: TestApp;
  let clock = START;
  const ledgerReads = new LedgerReads();

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    smtp = await startSmtpReceiver();
    const mail = { TZ: 'UTC', PUBLIC_URL, SMTP_URL: smtp.url, MAIL_FROM: 'Leftover <leftover@example.com>' };
    const push: TestAppOptions['notifications'] = {
      pushSender: (database, config) => createPushSender(database, config, { timeoutMs: 500 }),
      webhookTimeoutMs: WEBHOOK_TIMEOUT_MS,
    };
    guarded = await startTestApp(kind, { env: mail, notifications: push });
    const { issuer, database } = guarded;
    allowing = await startTestApp(kind, {
      env: { ...mail, NOTIFY_ALLOW_PRIVATE_URLS: 'true' },
      notifications: push,
      // The guarded app's database and issuer, left for it to close and drop.
      database: { url: database.url, drop: async () => undefined },
      issuer: {
        issuer: issuer.issuer,
        audience: issuer.audience,
        publicJwk: issuer.publicJwk,
        jwksFetches: () => issuer.jwksFetches(),
        token: (subject, options) => issuer.token(subject, options),
        rotateKey: () => issuer.rotateKey(),
        close: async () => undefined,
      },
    });
    days = await startTestApp(kind, {
      now: () => new Date(clock),
      env: { ...mail, NOTIFY_ALLOW_PRIVATE_URLS: 'true' },
      queryObserver: ledgerReads,
      notifications: { webhookTimeoutMs: WEBHOOK_TIMEOUT_MS, sendConcurrency: SEND_CONCURRENCY, sendsPerUser: SENDS_PER_USER },
    });
  });
  afterAll(async () => {
    await days?.close();
    await allowing?.close();
    await guarded?.close();
    await receiver?.close();
    await smtp?.close();
  });

  const channelsOf = async (user: UserClient): Promise<ChannelInfo[]> =>
    notificationSettingsSchema.parse(okJson(await user.get(NOTIFICATIONS_PATHS.settings))).channels;

  it(
    'refuses hostile settings and channels with a 400 per field and changes nothing; no address of this host is accepted or reached',
    async () => {
      const users = ['ann', 'bob', 'cai'].map((name) => guarded.as(newSubject(`hostile-${name}`)));
      const connections = receiver.connections();
      await fc.assert(
        fc.asyncProperty(fc.nat(users.length - 1), hostileCalls(receiver.port), async (who, call) => {
          const user = users[who] as UserClient;
          const before = await guarded.snapshot();
          let answer: LightMyRequestResponse;
          if (call.op === 'settings') answer = await user.put(NOTIFICATIONS_PATHS.settings, call.body);
          else if (call.op === 'add') answer = await user.post(NOTIFICATIONS_PATHS.channels, call.body);
          else {
            // Another user's channel, one of the caller's own, or an id that is nobody's.
            const owner = users[call.pick % users.length] as UserClient;
            const owned = await channelsOf(owner);
            const id = call.id ?? owned[call.pick % Math.max(1, owned.length)]?.id ?? crypto.randomUUID();
            answer = call.op === 'remove' ? await user.delete(channelPath(id)) : await user.post(testPath(id));
          }
          expect(answer.statusCode, answer.body).toBeLessThan(500);
          if (answer.statusCode === 200) {
            // Nothing that names this host is kept; a push service that cannot be looked up now (an
            // .invalid name never is) is the only endpoint that may be.
            if (call.op === 'add') expect(call.kind, answer.body).not.toBe('WEBHOOK');
            if (call.op === 'add' && call.kind === 'PUSH') {
              const { channels } = notificationSettingsSchema.parse(answer.json());
              for (const channel of channels.filter((candidate) => candidate.kind === 'PUSH')) {
                expect(new URL(channel.target).hostname, channel.target).toMatch(/\.invalid\.?$/);
              }
            }
          } else {
            expectRefusal(answer);
            expect(await guarded.snapshot()).toBe(before);
          }
          expect(receiver.connections()).toBe(connections);
        }),
        {
          numRuns: HOSTILE_RUNS,
          // Push services that only an .invalid name stands for: accepted, and never reached.
          examples: [
            [
              0,
              {
                op: 'add',
                kind: 'PUSH',
                body: { kind: 'PUSH', target: { endpoint: 'https://push.example.invalid/x', keys: DEVICE_KEYS } },
              },
            ],
          ],
        },
      );
      // At most one confirmation mail per mailbox (the clock stands still: all in one hour), however spelt, whoever added it.
      const perMailbox = new Map<string, number>();
      for (const mail of smtp.messages) {
        expect(mail.subject).toBe(CONFIRM_SUBJECT);
        for (const to of recipientsOf(mail)) perMailbox.set(mailbox(to), (perMailbox.get(mailbox(to)) ?? 0) + 1);
      }
      for (const [address, count] of perMailbox) expect(count, address).toBe(1);
    },
    60_000 + HOSTILE_RUNS * 1_000,
  );

  it(
    'sends nothing to channels of this host added while private addresses were allowed: a test and the day’s round say "Not delivered"',
    async () => {
      const connections = receiver.connections();
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), localHost, urlTail), { minLength: 1, maxLength: 4 }), async (targets) => {
          const subject = newSubject('was-allowed');
          const adder = allowing.as(subject);
          const user = guarded.as(subject);
          okJson(await adder.put(NOTIFICATIONS_PATHS.settings, { hour: 0, belowZero: true, billsDue: true }));
          okJson(await adder.post(EXPENSES_PATHS.add, expenseInput({ name: 'Car loan', amount: 310.44, day: 24 })));
          ledgerOf(
            await adder.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 100 } }),
          );
          for (const [isPush, host, tail] of targets) {
            const url = `${isPush ? 'https' : 'http'}://${host}:${receiver.port}${tail}`;
            const body = isPush ? { kind: 'PUSH', target: { endpoint: url, keys: DEVICE_KEYS } } : { kind: 'WEBHOOK', target: url };
            const added = await adder.post(NOTIFICATIONS_PATHS.channels, body);
            // A spelling the contract refuses whatever the setting (a line break in the path, say) is no channel to try.
            if (added.statusCode !== 200) expectRefusal(added);
          }
          for (const channel of await channelsOf(user)) {
            expect(okJson(await user.post(testPath(channel.id)))).toEqual({ delivered: false, message: 'Not delivered' });
          }
          const round = await runNotifications(guarded.app);
          expect(round.sent).toBe(0);
          expect(receiver.connections()).toBe(connections);
        }),
        { numRuns: SCENARIO_RUNS },
      );
    },
    60_000 + SCENARIO_RUNS * 5_000,
  );

  let run = 0;
  /** Runs whose delivery checks were left out: a 200 came after the sender's timeout. */
  let lateRuns = 0;

  it(
    'through random days and answers, sends each message at most once per channel with the text it was planned with, fairly, backing off and giving up as promised',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(userPlan, { minLength: 2, maxLength: 4 }),
          fc.array(step, { minLength: 2, maxLength: 8 }),
          async (plans, steps) => {
            run += 1;
            clock = START;
            const mailed = smtp.messages.length;
            const users: RunUser[] = [];
            /** Whether a 200 reached the sender after its timeout: then who was sent what is not known here. */
            let late = false;
            for (const [index, plan] of plans.entries())
              users.push(await setUp(plan, `/${kind}/r${run}/u${index}`, `r${run}u${index}.${kind}@example.com`));
            const webhookOf = new Map(users.flatMap((user) => user.webhooks.map((webhook) => [webhook.path, { user, webhook }] as const)));
            const attempts = new Map<string, Attempt[]>();
            const record = (from: number, by: Attempt['by']) => {
              for (const request of receiver.received.slice(from)) {
                if (!webhookOf.has(request.path)) continue;
                const list = attempts.get(request.path) ?? [];
                list.push({ by, at: clock, delivered: request.answered === 200, body: JSON.parse(request.body) as Webhook });
                attempts.set(request.path, list);
              }
            };
            try {
              for (const action of steps) {
                if (action.op === 'bill') {
                  const user = users[action.user % users.length] as (typeof users)[number];
                  okJson(
                    await user.client.put(
                      `/api/expenses/${user.billId}`,
                      expenseInput({ name: 'Car loan', amount: action.amount, day: user.plan.bill.day }),
                    ),
                  );
                } else if (action.op === 'test') {
                  const user = users[action.user % users.length] as (typeof users)[number];
                  const webhook = user.webhooks[action.channel % user.webhooks.length];
                  if (!webhook) continue;
                  const from = receiver.received.length;
                  const answer = okJson(await user.client.post(testPath(webhook.id))) as { delivered: boolean };
                  record(from, 'test');
                  // A test that arrives brings a channel that needs attention back: its user may be planned again.
                  if (answer.delivered) user.mayPlan = true;
                } else {
                  [...webhookOf.keys()].forEach((path, index) => {
                    receiver.behave(path, OUTCOME_BEHAVIOUR[action.outcomes[index % action.outcomes.length] ?? 'ok']);
                  });
                  clock += action.minutes * MINUTE;
                  // Whose day may be planned now: their hour has come on a date not planned yet, or a test brought a channel back.
                  let anyoneDue = false;
                  for (const user of users) {
                    const moment = localMoment(clock, user.plan.zone);
                    if (user.mayPlan || (moment.hour >= user.plan.hour && moment.date !== user.plannedOn)) anyoneDue = true;
                    if (moment.hour >= user.plan.hour) user.plannedOn = moment.date;
                    user.mayPlan = false;
                  }
                  const from = receiver.received.length;
                  const mailsBefore = smtp.messages.length;
                  ledgerReads.count = 0;
                  const summary = await runNotifications(days.app);
                  const answered = receiver.received.slice(from).filter((request) => request.answered === 200).length;
                  // Mail is parsed as it comes: wait for what the round says it sent before counting.
                  await smtp.waitFor(mailsBefore + summary.sent - answered, undefined, 2_000).catch(() => undefined);
                  if (answered + smtp.messages.length - mailsBefore !== summary.sent) late = true;
                  // Retries send what was planned: a round that plans nobody's day reads no ledger.
                  if (!anyoneDue) expect(ledgerReads.count, JSON.stringify(summary)).toBe(0);
                  record(from, 'round');
                  if (summary.cancelled === 0)
                    expectFairRound(
                      receiver.received.slice(from).map((request) => webhookOf.get(request.path)?.user.index ?? -1),
                      users,
                    );
                }
              }

              if (late) {
                lateRuns += 1;
                return;
              }
              for (const [path, list] of attempts) {
                const { user, webhook } = webhookOf.get(path) as NonNullable<ReturnType<typeof webhookOf.get>>;
                const messages = new Map<string, Attempt[]>();
                for (const attempt of list.filter((candidate) => candidate.body.kind !== 'TEST')) {
                  const key = `${attempt.body.kind} ${attempt.body.date} ${attempt.body.title}`;
                  messages.set(key, [...(messages.get(key) ?? []), attempt]);
                }
                for (const [key, tries] of messages) {
                  // At most once, and every try with the text it was planned with, whatever the bill says since.
                  expect(tries.filter((attempt) => attempt.delivered).length, `${path} ${key}`).toBeLessThanOrEqual(1);
                  expect(new Set(tries.map((attempt) => JSON.stringify(attempt.body))).size, `${path} ${key}`).toBe(1);
                }
                expectBackOff(
                  path,
                  list,
                  (await channelsOf(user.client)).find((channel) => channel.id === webhook.id),
                );
              }
              for (const user of users) {
                const mails = smtp.messages.slice(mailed).filter((mail) => recipientsOf(mail).includes(user.address));
                if (user.plan.email === 'none') expect(mails).toEqual([]);
                // An address not confirmed gets its confirmation mail and nothing else.
                else if (user.plan.email === 'unconfirmed') expect(mails.map((mail) => mail.subject)).toEqual([CONFIRM_SUBJECT]);
                else {
                  const texts = mails.filter((mail) => mail.subject !== CONFIRM_SUBJECT).map((mail) => `${mail.subject} ${textOf(mail)}`);
                  expect(texts.length).toBe(new Set(texts).size);
                }
              }
            } finally {
              // The run's users leave no channel behind, so later runs (which start at the same moment) plan only their own.
              for (const user of users)
                for (const channel of await channelsOf(user.client)) okJson(await user.client.delete(channelPath(channel.id)));
              for (const path of webhookOf.keys()) receiver.release(path);
            }
          },
        ),
        { numRuns: SCENARIO_RUNS },
      );
      // A run whose checks were left out tells nothing: most must not be.
      expect(lateRuns, `${lateRuns} of ${run} runs had a 200 come after the sender’s timeout`).toBeLessThanOrEqual(Math.floor(run / 2));
    },
    60_000 + SCENARIO_RUNS * 15_000,
  );

  interface RunUser {
    readonly index: number;
    readonly plan: UserPlan;
    readonly client: UserClient;
    readonly billId: string;
    readonly webhooks: { readonly path: string; readonly id: string }[];
    readonly address: string;
    plannedOn: string | null;
    mayPlan: boolean;
  }

  let userCount = 0;

  /** A user of the random days: zone, hour, rules, a bill that takes $100 below $0, webhooks and maybe an address. */
  async function setUp(plan: UserPlan, prefix: string, address: string): Promise<RunUser> {
    const index = userCount;
    userCount += 1;
    const client = days.as(newSubject(`days-${index}`));
    okJson(await client.patch(NOTIFICATIONS_PATHS.profile, { timeZone: plan.zone }));
    okJson(await client.put(NOTIFICATIONS_PATHS.settings, { hour: plan.hour, belowZero: true, billsDue: plan.billsDue }));
    const { expenses } = expensesInfoSchema.parse(
      okJson(await client.post(EXPENSES_PATHS.add, expenseInput({ name: 'Car loan', ...plan.bill }))),
    );
    ledgerOf(await client.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 100 } }));
    const webhooks: { path: string; id: string }[] = [];
    for (let channel = 0; channel < plan.webhooks; channel += 1) {
      const path = `${prefix}/c${channel}`;
      const { channels } = notificationSettingsSchema.parse(
        okJson(await client.post(NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target: receiver.url(path) })),
      );
      webhooks.push({ path, id: channels.find((candidate) => candidate.target === receiver.url(path))?.id ?? '' });
    }
    if (plan.email !== 'none') {
      okJson(await client.post(NOTIFICATIONS_PATHS.channels, { kind: 'EMAIL', target: address }));
      const [confirmation] = await smtp.waitFor(1, address);
      if (plan.email === 'confirmed') {
        const link = new RegExp(`${PUBLIC_URL}(/notify/confirm/[A-Za-z0-9_-]+)`).exec(confirmation?.text ?? '')?.[1] ?? '';
        const confirmed = await days.app.inject({ method: 'POST', url: link });
        expect(confirmed.statusCode, confirmed.body).toBe(200);
      }
    }
    return { index, plan, client, billId: expenses[0]?.id ?? '', webhooks, address, plannedOn: null, mayPlan: false };
  }

  /**
   * Users in turn: before a user's first request of a round, each other user's sends were claimed at
   * most once (a user served moves behind every user not yet served), and at most the other slots
   * under way came in the meantime. A user with an address to mail is left out: a mail is a claim
   * the webhook receiver does not see.
   */
  function expectFairRound(senders: readonly number[], runUsers: readonly RunUser[]): void {
    for (const user of runUsers.filter((candidate) => candidate.plan.email !== 'confirmed')) {
      const first = senders.indexOf(user.index);
      if (first < 0) continue;
      const others = senders.slice(0, first).filter((sender) => sender !== user.index && sender >= 0).length;
      expect(others, `user ${user.index}'s first send of the round came after ${others} of others'`).toBeLessThanOrEqual(
        runUsers.length - 1 + (SEND_CONCURRENCY - 1),
      );
    }
  }

  /**
   * A webhook's tries, in order: the day's rounds never try a failing channel before its back-off is
   * over, and never once 5 days of failures make it need attention (until a test arrives); Settings
   * says what the tries say.
   */
  function expectBackOff(path: string, tries: readonly Attempt[], channel: ChannelInfo | undefined): void {
    let failingSince: number | null = null;
    let failures = 0;
    let lastFailure = 0;
    let needsAttention = false;
    for (const attempt of tries) {
      if (attempt.by === 'test') {
        if (attempt.delivered) [failingSince, failures, needsAttention] = [null, 0, false];
        continue;
      }
      expect(needsAttention, `${path}: sent to after it needed attention`).toBe(false);
      if (failures > 0)
        expect(attempt.at - lastFailure, `${path}: tried again within its back-off`).toBeGreaterThanOrEqual(backOffMs(failures));
      if (attempt.delivered) {
        [failingSince, failures] = [null, 0];
        continue;
      }
      failingSince ??= attempt.at;
      failures += 1;
      lastFailure = attempt.at;
      if (attempt.at - failingSince >= NEEDS_ATTENTION_MS) needsAttention = true;
    }
    expect(channel, path).toBeDefined();
    expect({ state: channel?.state, failingSince: channel?.failingSince }, path).toEqual({
      state: needsAttention ? 'NEEDS_ATTENTION' : failingSince === null ? 'OK' : 'FAILING',
      failingSince: failingSince === null ? null : new Date(failingSince).toISOString(),
    });
  }
});
