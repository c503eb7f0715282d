/**
 * Each user's own today and what Leftover tells them (issue 26, decisions 0047 and 0051): the time
 * zone (PATCH /api/me), the notification settings and channels under /api/notifications, and the
 * answers of each. One file for the server and the page's Settings alike.
 */
import * as z from 'zod/mini';
import { canonicalTimeZone } from '../domain/time-zones.js';
import { idSchema, pathsOf } from './common.js';
import { OBJECT_BODY, wholeNumberField } from './request-fields.js';

export const CHANNEL_KINDS = ['EMAIL', 'PUSH', 'WEBHOOK'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** What a message is about: a shortfall ahead, tomorrow's bills, a test, or an email address's confirmation link. */
export const MESSAGE_KINDS = ['BELOW_ZERO', 'BILLS_DUE', 'TEST', 'CONFIRM'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** The hour the day's messages go out, in the user's zone, until they choose another: 08:00. */
export const DEFAULT_NOTIFICATION_HOUR = 8;
/** At most this many channels (addresses, devices, webhooks) a user. */
export const MAX_CHANNELS = 10;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_WEBHOOK_URL_LENGTH = 2000;

const TIME_ZONE_MESSAGE = 'Time zone must be an IANA time zone, like America/Los_Angeles.';

/** An IANA zone name, turned into its canonical spelling ("US/Pacific" becomes America/Los_Angeles). */
export const timeZoneField = z.pipe(
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Time zone is required.' : TIME_ZONE_MESSAGE) })
    .check(z.refine((value: string) => canonicalTimeZone(value) !== null, TIME_ZONE_MESSAGE)),
  z.transform((value: string) => canonicalTimeZone(value) as string),
);

/**
 * PATCH /api/me: the user's time zone. With `onlyIfUnset: true` it is stored only when the user has
 * none yet, which is what the page sends at sign-in (the browser's zone never overwrites a choice
 * made in Settings); either way the answer is the profile as it now is (decision 0047).
 */
export const profileUpdateSchema = z.object(
  {
    timeZone: timeZoneField,
    onlyIfUnset: z.optional(z.boolean({ error: 'Only if unset must be true or false.' })),
  },
  OBJECT_BODY,
);
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

/** PUT /api/notifications: when the day's messages go out (hour 0 to 23 in the user's zone) and which rules are on. */
export const notificationPreferencesSchema = z.object(
  {
    hour: wholeNumberField('Hour', 0, 23),
    belowZero: z.boolean({ error: 'Before my balance goes below $0 must be true or false.' }),
    billsDue: z.boolean({ error: 'Bills due tomorrow must be true or false.' }),
  },
  OBJECT_BODY,
);
export type NotificationPreferences = z.output<typeof notificationPreferencesSchema>;

const EMAIL_MESSAGE = 'Target must be an email address, like you@example.com.';
const WEBHOOK_MESSAGE = 'Target must be an http:// or https:// address.';
const PUSH_MESSAGE = 'Target must be a push subscription: { endpoint, keys: { p256dh, auth } }.';

function isWebAddress(value: string, schemes: readonly string[]): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return schemes.includes(url.protocol) && url.hostname !== '' && url.username === '' && url.password === '';
}

const emailTarget = z.string({ error: EMAIL_MESSAGE }).check(
  z.trim(),
  z.maxLength(MAX_EMAIL_LENGTH, `Target must be at most ${MAX_EMAIL_LENGTH} characters.`),
  // Checked by zod's address pattern: one @, a dotted domain, nothing a mail header could be split with.
  z.email(EMAIL_MESSAGE),
);

const webhookTarget = z.string({ error: WEBHOOK_MESSAGE }).check(
  z.trim(),
  z.maxLength(MAX_WEBHOOK_URL_LENGTH, `Target must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`),
  z.refine((value: string) => isWebAddress(value, ['http:', 'https:']), WEBHOOK_MESSAGE),
);

/** A base64url key of a push subscription (RFC 8291): p256dh is 65 bytes (87 characters), auth 16 (22). */
const pushKey = (name: string, min: number, max: number) =>
  z
    .string({ error: PUSH_MESSAGE })
    .check(
      z.regex(/^[A-Za-z0-9_-]+=*$/, `The subscription's ${name} key must be base64url.`),
      z.minLength(min, PUSH_MESSAGE),
      z.maxLength(max, PUSH_MESSAGE),
    );

/** What the browser's PushSubscription.toJSON() gives: a push service's https address and the keys that encrypt for this device. */
export const pushSubscriptionSchema = z.object(
  {
    endpoint: z.string({ error: PUSH_MESSAGE }).check(
      z.maxLength(MAX_WEBHOOK_URL_LENGTH, PUSH_MESSAGE),
      z.refine((value: string) => isWebAddress(value, ['https:']), "The subscription's endpoint must be an https:// address."),
    ),
    expirationTime: z.optional(z.nullable(z.number({ error: PUSH_MESSAGE }))),
    keys: z.object({ p256dh: pushKey('p256dh', 80, 96), auth: pushKey('auth', 16, 32) }, { error: PUSH_MESSAGE }),
  },
  { error: PUSH_MESSAGE },
);
export type PushSubscriptionTarget = z.output<typeof pushSubscriptionSchema>;

const KIND_MESSAGE = 'Kind must be EMAIL, PUSH or WEBHOOK.';

/** POST /api/notifications/channels: an email address, a webhook URL, or this device's push subscription. */
export const newChannelSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('EMAIL'), target: emailTarget }, OBJECT_BODY),
    z.object({ kind: z.literal('WEBHOOK'), target: webhookTarget }, OBJECT_BODY),
    z.object({ kind: z.literal('PUSH'), target: pushSubscriptionSchema }, OBJECT_BODY),
  ],
  { error: KIND_MESSAGE },
);
export type NewChannel = z.output<typeof newChannelSchema>;

/** How the last delivery to a channel went (a test, a message, or an email's confirmation link); null before any. */
export const deliveryResultSchema = z.union([
  z.object({ delivered: z.literal(true), at: z.string() }),
  z.object({ delivered: z.literal(false), reason: z.string(), at: z.string() }),
]);
export type LastDeliveryResult = z.infer<typeof deliveryResultSchema>;

export const channelSchema = z.object({
  id: idSchema,
  kind: z.enum(CHANNEL_KINDS),
  /** The email address, the webhook URL, or the push subscription's endpoint (how the page knows this device's). */
  target: z.string(),
  /** An email address is confirmed by the link sent to it before anything else is; every other channel is confirmed when added. */
  confirmed: z.boolean(),
  lastResult: z.nullable(deliveryResultSchema),
});
export type ChannelInfo = z.infer<typeof channelSchema>;

/** GET /api/notifications, and the answer of every write under it. */
export const notificationSettingsSchema = z.object({
  /** The user's IANA zone, or the server's (TZ) while they have none stored. */
  timeZone: z.string(),
  hour: z.number(),
  belowZero: z.boolean(),
  billsDue: z.boolean(),
  channels: z.array(channelSchema),
  /** The kinds this server offers: EMAIL only with SMTP_URL set, PUSH only with its keys (decision 0051). */
  available: z.array(z.enum(CHANNEL_KINDS)),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** POST /api/notifications/channels/{id}/test: what happened to the test message. */
export const testDeliverySchema = z.union([
  z.object({ delivered: z.literal(true) }),
  z.object({ delivered: z.literal(false), reason: z.string() }),
]);
export type TestDelivery = z.infer<typeof testDeliverySchema>;

/** GET /api/notifications/push-key: the VAPID public key (base64url) for PushManager.subscribe's applicationServerKey. */
export const pushKeySchema = z.object({ publicKey: z.string() });
export type PushKey = z.infer<typeof pushKeySchema>;

/** The paths as the endpoint table spells them, for tests and scripts. */
export const NOTIFICATIONS_PATHS = /* @__PURE__ */ pathsOf({
  profile: 'getProfile',
  settings: 'getNotifications',
  channels: 'addNotificationChannel',
  channel: 'removeNotificationChannel',
  test: 'testNotificationChannel',
  pushKey: 'getPushKey',
});
