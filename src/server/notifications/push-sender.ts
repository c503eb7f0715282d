/**
 * The push channel's delivery (issue 26): web push with VAPID (RFC 8292) and an aes128gcm payload
 * (RFC 8291) through the web-push package. The device's service worker shows the payload's title
 * and message. web-push loads with the first send, not at start (decision 0041).
 */
import https from 'node:https';
import type { AppConfiguration } from '../config.js';
import type { OpenDatabase } from '../db/database.js';
import type { DeliveryResult, OutgoingMessage, PushSender, PushSubscription } from './delivery.js';
import { checkHost, hostOf, PrivateAddressError, PRIVATE_ADDRESS_REFUSED, pinnedLookup } from './address-guard.js';
import { vapidKeys } from './vapid-key-store.js';

export interface PushSenderOptions {
  /**
   * How push services are reached (the tests' local push service trusts its own certificate through
   * it). It connects where it likes: an address written as an IP is still checked before each send,
   * against the allow-list (decision 0067).
   */
  readonly agent?: https.Agent;
  /** A push service silent for this long has failed this send (retried later). */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;
/** A message that cannot reach the device within a day is about a day that has passed. */
const TIME_TO_LIVE_SECONDS = 24 * 60 * 60;
/**
 * What one aes128gcm record carries to a device (4,096 bytes, RFC 8291 section 4) less the header,
 * the tag and the padding delimiter, with room to spare: a longer message is cut to fit.
 */
const MAX_PAYLOAD_BYTES = 3_800;

const loadWebPush = () => import('web-push').then((module) => module.default);

export async function createPushSender(
  database: OpenDatabase,
  /** VAPID_SUBJECT (config.notifications.vapidSubject): a mailto: or https: address. */
  config: {
    readonly notifications: Pick<AppConfiguration['notifications'], 'vapidSubject'> &
      Partial<Pick<AppConfiguration['notifications'], 'allowPrivateUrls'>>;
  },
  options: PushSenderOptions = {},
): Promise<PushSender> {
  const keys = await vapidKeys(database.db);
  const vapidDetails = { subject: config.notifications.vapidSubject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // A subscription's endpoint is the user's to choose, as a webhook's URL is: the socket connects only
  // to the address checked, a globally routable one not the server's own, unless the operator allows
  // more (NOTIFY_ALLOW_PRIVATE_URLS; decision 0067).
  const rules = { allowPrivate: config.notifications.allowPrivateUrls ?? false };
  const agent = options.agent ?? new https.Agent({ lookup: pinnedLookup(rules) });
  return {
    publicKey: keys.publicKey,
    async send(subscription, message) {
      const refused = subscriptionProblem(subscription);
      if (refused) return { delivered: false, reason: refused, retry: false };
      // An address written as an IP is connected to without a lookup: checked here, as a webhook's is.
      const check = await checkHost(hostOf(new URL(subscription.endpoint)), rules);
      if (!check.ok && !check.retry) return { delivered: false, reason: check.reason, retry: false };
      const webPush = await loadWebPush();
      try {
        await webPush.sendNotification(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth } },
          devicePayload(message),
          {
            vapidDetails,
            TTL: TIME_TO_LIVE_SECONDS,
            contentEncoding: 'aes128gcm',
            urgency: 'normal',
            timeout,
            agent,
          },
        );
        return { delivered: true };
      } catch (error) {
        if (error instanceof webPush.WebPushError) return refusedBy(error.statusCode);
        if (error instanceof PrivateAddressError) return { delivered: false, reason: PRIVATE_ADDRESS_REFUSED, retry: false };
        const detail =
          error instanceof Error && error.message === 'Socket timeout'
            ? `did not answer within ${timeout / 1000} s`
            : 'could not be reached';
        return { delivered: false, reason: `The push service ${detail}.`, retry: true };
      }
    },
  };
}

/** What the push service's refusal means for this subscription. */
function refusedBy(status: number): DeliveryResult {
  // RFC 8030 section 7.3: the subscription has expired or was never there; the device must subscribe again.
  if (status === 404 || status === 410) {
    return {
      delivered: false,
      reason: `The push service answered ${status}: this device is no longer subscribed.`,
      gone: true,
      retry: false,
    };
  }
  // Too many requests, or the service's own trouble: worth another try later.
  if (status === 429 || status >= 500) return { delivered: false, reason: `The push service answered ${status}.`, retry: true };
  return { delivered: false, reason: `The push service refused the message (${status}).`, retry: false };
}

/** Keys that cannot be encrypted to (web-push would throw): the subscription is broken, not the service. */
function subscriptionProblem({ endpoint, keys }: PushSubscription): string | undefined {
  if (!URL.canParse(endpoint) || new URL(endpoint).protocol !== 'https:') return 'The subscription has no https push service address.';
  const p256dh = Buffer.from(keys.p256dh, 'base64url');
  const auth = Buffer.from(keys.auth, 'base64url');
  if (p256dh.length !== 65 || p256dh[0] !== 0x04 || auth.length !== 16) return "The subscription's keys are not valid.";
  return undefined;
}

/** The JSON the service worker reads, its message cut (whole characters, with an ellipsis) when the whole would not fit one record. */
export function devicePayload(message: OutgoingMessage): string {
  const { title, url, kind, date } = message;
  let text = message.message;
  let payload = JSON.stringify({ title, message: text, url, kind, date });
  // Every character is at least one byte of JSON, so cutting as many characters as bytes are over,
  // and three more for the ellipsis, always fits.
  const over = Buffer.byteLength(payload) - MAX_PAYLOAD_BYTES;
  if (over > 0) {
    const characters = Array.from(text);
    text = `${characters.slice(0, Math.max(0, characters.length - over - 3)).join('')}…`;
    payload = JSON.stringify({ title, message: text, url, kind, date });
  }
  return payload;
}
