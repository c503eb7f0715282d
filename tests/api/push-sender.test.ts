/**
 * The push channel's sender (issue 26), on SQLite and (with TEST_POSTGRES_URL) PostgreSQL, against
 * a real push service of our own: an HTTPS server on 127.0.0.1 that takes the push as a browser's
 * push service would, checks its VAPID signature (RFC 8292), and hands the body to a fake device
 * that decrypts it with its own private key and auth secret (RFC 8291, aes128gcm, RFC 8188). The
 * decryption is this test's own code over node:crypto, so the sender is checked against the
 * standard, not against the library it uses. Then what a device keeps: the key pair survives a
 * restart and two first starts at once keep one pair; and what the service's refusals mean.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { type OpenDatabase, openDatabase } from '../../src/server/db/database.js';
import type { OutgoingMessage, PushSubscription } from '../../src/server/notifications/delivery.js';
import { PRIVATE_ADDRESS_REFUSED } from '../../src/server/notifications/address-guard.js';
import { createPushSender, type PushSenderOptions } from '../../src/server/notifications/push-sender.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/test-databases.js';

const CERTIFICATE = fs.readFileSync(new URL('../fixtures/push-service/cert.pem', import.meta.url));
const PRIVATE_KEY = fs.readFileSync(new URL('../fixtures/push-service/key.pem', import.meta.url));
const SUBJECT = 'mailto:ops@leftover.example';
/** The local push service listens on 127.0.0.1: a private address, which only the operator's setting lets through. */
const LOCAL_SERVICE_CONFIG = { notifications: { vapidSubject: SUBJECT, allowPrivateUrls: true } };

const MESSAGE: OutgoingMessage = {
  title: 'Leftover: your balance goes below $0',
  message:
    'Heads up: your Checking balance goes below $0 on Fri, Jan 5, 2027, when Car loan ($310.44) is due. Lowest ahead: -$107.52 on Sat, Jan 9, 2027.',
  url: 'http://localhost:3000/',
  kind: 'BELOW_ZERO',
  date: '2027-01-04',
};

/** A browser's side of one subscription: its key pair and auth secret, never shown to the server. */
interface FakeDevice {
  readonly subscription: PushSubscription;
  readonly ecdh: crypto.ECDH;
  readonly auth: Buffer;
}

function fakeDevice(endpoint: string): FakeDevice {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return {
    ecdh,
    auth,
    subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
  };
}

/**
 * What the device's browser does with the body (RFC 8291 section 3.4, RFC 8188 section 2): the
 * header gives the salt, the record size and the sender's one-time public key; ECDH with the
 * device's private key and the auth secret give the content key and nonce; the one record ends in
 * the delimiter 2 and any zero padding.
 */
function decryptOnDevice(device: FakeDevice, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  expect(keyIdLength).toBe(65);
  expect(record.length).toBeLessThanOrEqual(recordSize);

  const devicePublic = device.ecdh.getPublicKey();
  const sharedSecret = device.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), devicePublic, senderKey]);
  const inputKey = Buffer.from(crypto.hkdfSync('sha256', sharedSecret, device.auth, keyInfo, 32));
  const contentKey = Buffer.from(crypto.hkdfSync('sha256', inputKey, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', inputKey, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const decipher = crypto.createDecipheriv('aes-128-gcm', contentKey, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  expect(padded[end], 'the last record ends in the delimiter 2').toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

interface ReceivedPush {
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A push service: answers each path's status (201 unless told), or never answers `silentPath`. */
interface PushService {
  readonly origin: string;
  readonly received: ReceivedPush[];
  readonly answers: Map<string, number>;
  readonly options: PushSenderOptions;
  close(): Promise<void>;
}

async function startPushService(): Promise<PushService> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, number>();
  const server = https.createServer({ cert: CERTIFICATE, key: PRIVATE_KEY }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      if (path === '/silent') return;
      response.writeHead(answers.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new https.Agent({ ca: CERTIFICATE });
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answers,
    options: { agent },
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** RFC 8292: `vapid t=<ES256 JWT>, k=<public key>`; the JWT's signature checks against k. */
function checkedVapidClaims(authorization: string | undefined, publicKey: string): Record<string, unknown> {
  const match = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  expect(match, `Authorization: ${authorization}`).not.toBeNull();
  const [, header = '', claims = '', signature = '', key = ''] = match ?? [];
  expect(key).toBe(publicKey);
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const point = Buffer.from(key, 'base64url');
  const verifier = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = crypto.verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: verifier, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  expect(signed, 'the VAPID signature checks against the key the page subscribed with').toBe(true);
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>;
}

async function open(database: TestDatabase): Promise<OpenDatabase> {
  return openDatabase(loadConfig({ DATABASE_URL: database.url }).database);
}

describe.each(databaseKinds())('the push sender on %s', (kind) => {
  let database: TestDatabase;
  let opened: OpenDatabase;
  let service: PushService;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    opened = await open(database);
    service = await startPushService();
  });

  afterAll(async () => {
    await service.close();
    await opened.close();
    await database.drop();
  });

  it('delivers the message encrypted for the device, which decrypts the title and message it shows', async () => {
    const sender = await createPushSender(opened, LOCAL_SERVICE_CONFIG, service.options);
    const device = fakeDevice(`${service.origin}/push/device-1`);
    const before = Math.floor(Date.now() / 1000);

    expect(await sender.send(device.subscription, MESSAGE)).toEqual({ delivered: true });

    const push = service.received.find((each) => each.path === '/push/device-1');
    expect(push).toBeDefined();
    if (!push) return;
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    const claims = checkedVapidClaims(push.headers.authorization as string | undefined, sender.publicKey);
    expect(claims.aud).toBe(service.origin);
    expect(claims.sub).toBe(SUBJECT);
    expect(claims.exp).toBeGreaterThan(before);
    expect(claims.exp).toBeLessThanOrEqual(before + 24 * 60 * 60 + 60);
    // Another device cannot read it: the payload is encrypted to this one's keys alone.
    expect(() => decryptOnDevice(fakeDevice(device.subscription.endpoint), push.body)).toThrow();
    expect(JSON.parse(decryptOnDevice(device, push.body))).toEqual(MESSAGE);
  });

  it('cuts a message too long for one push to whole characters ending in an ellipsis, and still delivers it', async () => {
    const sender = await createPushSender(opened, LOCAL_SERVICE_CONFIG, service.options);
    const device = fakeDevice(`${service.origin}/push/long`);
    const long = { ...MESSAGE, kind: 'BILLS_DUE' as const, message: `Due tomorrow: ${'Rent “Main St” ($1,200.00), '.repeat(400)}` };

    expect(await sender.send(device.subscription, long)).toEqual({ delivered: true });

    const push = service.received.find((each) => each.path === '/push/long');
    const shown = JSON.parse(decryptOnDevice(device, push?.body ?? Buffer.alloc(0))) as OutgoingMessage;
    expect(shown).toEqual({ ...long, message: expect.stringMatching(/…$/) });
    expect(long.message.startsWith(shown.message.slice(0, -1))).toBe(true);
    expect(shown.message.length).toBeGreaterThan(1000);
  });

  it('keeps its key pair across a restart, and two first starts at once keep one pair', async () => {
    const first = await createPushSender(opened, LOCAL_SERVICE_CONFIG, service.options);
    await opened.close();
    opened = await open(database);
    const restarted = await createPushSender(opened, LOCAL_SERVICE_CONFIG, service.options);
    expect(restarted.publicKey).toBe(first.publicKey);
    expect(Buffer.from(restarted.publicKey, 'base64url')).toHaveLength(65);

    // A device subscribed before the restart still gets, and can read, what is sent after it.
    const device = fakeDevice(`${service.origin}/push/after-restart`);
    expect(await restarted.send(device.subscription, MESSAGE)).toEqual({ delivered: true });
    const push = service.received.find((each) => each.path === '/push/after-restart');
    checkedVapidClaims(push?.headers.authorization as string | undefined, first.publicKey);

    const fresh = await createTestDatabase(kind);
    // Opened (and so migrated) one after the other: one thread holding two SQLite connections
    // cannot wait for itself. The two first starts then race for the key pair.
    const one = await open(fresh);
    const other = await open(fresh);
    try {
      const senders = await Promise.all([
        createPushSender(one, { notifications: { vapidSubject: SUBJECT } }),
        createPushSender(other, { notifications: { vapidSubject: SUBJECT } }),
      ]);
      expect(senders[1].publicKey).toBe(senders[0].publicKey);
      expect(senders[0].publicKey).not.toBe(first.publicKey);
      expect(await one.db.selectFrom('push_vapid_keys').selectAll().execute()).toHaveLength(1);
    } finally {
      await one.close();
      await other.close();
      await fresh.drop();
    }
  });

  it("never connects to a private address unless the operator allows it: the endpoint is the user's to choose", async () => {
    // No agent of the test's own: the sender's pinned lookup decides where the socket goes.
    const sender = await createPushSender(opened, { notifications: { vapidSubject: SUBJECT, allowPrivateUrls: false } });
    const device = fakeDevice(`${service.origin}/push/private`);

    expect(await sender.send(device.subscription, MESSAGE)).toEqual({ delivered: false, reason: PRIVATE_ADDRESS_REFUSED, retry: false });
    expect(service.received.some((each) => each.path === '/push/private')).toBe(false);
  });

  it('reads 404 and 410 as a subscription that is gone, 429 and 5xx as worth a retry, and other refusals as final', async () => {
    const sender = await createPushSender(opened, LOCAL_SERVICE_CONFIG, service.options);
    const answered = async (status: number) => {
      service.answers.set(`/push/answers-${status}`, status);
      return sender.send(fakeDevice(`${service.origin}/push/answers-${status}`).subscription, MESSAGE);
    };
    for (const status of [404, 410]) {
      expect(await answered(status)).toEqual({
        delivered: false,
        reason: `The push service answered ${status}: this device is no longer subscribed.`,
        gone: true,
        retry: false,
      });
    }
    expect(await answered(429)).toEqual({ delivered: false, reason: 'The push service answered 429.', retry: true });
    expect(await answered(503)).toEqual({ delivered: false, reason: 'The push service answered 503.', retry: true });
    expect(await answered(403)).toEqual({ delivered: false, reason: 'The push service refused the message (403).', retry: false });
  });

  it('answers a retry when the push service cannot be reached or stays silent, and refuses broken keys without sending', async () => {
    const quick = await createPushSender(opened, LOCAL_SERVICE_CONFIG, { ...service.options, timeoutMs: 300 });
    expect(await quick.send(fakeDevice(`${service.origin}/silent`).subscription, MESSAGE)).toEqual({
      delivered: false,
      reason: 'The push service did not answer within 0.3 s.',
      retry: true,
    });

    const closed = https.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await quick.send(fakeDevice(`https://127.0.0.1:${closedPort}/push/x`).subscription, MESSAGE)).toEqual({
      delivered: false,
      reason: 'The push service could not be reached.',
      retry: true,
    });

    const sent = service.received.length;
    const device = fakeDevice(`${service.origin}/push/broken`);
    const brokenKeys = { ...device.subscription, keys: { p256dh: 'AAAA', auth: device.subscription.keys.auth } };
    expect(await quick.send(brokenKeys, MESSAGE)).toEqual({
      delivered: false,
      reason: "The subscription's keys are not valid.",
      retry: false,
    });
    const plainHttp = { ...device.subscription, endpoint: `http://127.0.0.1:${closedPort}/push/x` };
    expect(await quick.send(plainHttp, MESSAGE)).toEqual({
      delivered: false,
      reason: 'The subscription has no https push service address.',
      retry: false,
    });
    expect(service.received).toHaveLength(sent);
  });
});
