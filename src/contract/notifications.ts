/**
 * Each user's own today and what Leftover tells them (issue 26, decisions 0047 and 0051): the time
 * zone (PATCH /api/me), the notification settings and channels under /api/notifications, and the
 * answers of each. One file for the server and the page's Settings alike.
 */
import * as z from 'zod/mini';
import { idSchema, pathsOf } from './common.js';

export const CHANNEL_KINDS = ['EMAIL', 'PUSH', 'WEBHOOK'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const CHANNEL_STATES = ['OK', 'FAILING', 'NEEDS_ATTENTION'] as const;

/** The hour the day's messages go out, in the user's zone, until they choose another: 08:00. */
export const DEFAULT_NOTIFICATION_HOUR = 8;
/** At most this many channels (addresses, devices, webhooks) a user. */
export const MAX_CHANNELS = 10;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_WEBHOOK_URL_LENGTH = 2000;

/**
 * How the last delivery to a channel went (a test, a message, or an email's confirmation link); null
 * before any. A webhook's or a push device's reason is only ever NOT_DELIVERED: the address is the
 * user's to choose, so why it failed would say what answers there (decision 0067).
 */
export const deliveryResultSchema = z.union([
  z.object({ delivered: z.literal(true), at: z.string() }),
  z.object({ delivered: z.literal(false), reason: z.string(), at: z.string() }),
]);

export const channelSchema = z.object({
  id: idSchema,
  kind: z.enum(CHANNEL_KINDS),
  /** The email address, the webhook URL, or the push subscription's endpoint (how the page knows this device's). */
  target: z.string(),
  /** An email address is confirmed by the link sent to it before anything else is; every other channel is confirmed when added. */
  confirmed: z.boolean(),
  lastResult: z.nullable(deliveryResultSchema),
  /**
   * How the day's messages are getting there (decision 0070): OK; FAILING since `failingSince`, not
   * tried again before `retryAt` (the channel's back-off); NEEDS_ATTENTION after 5 days of failures,
   * when nothing more is planned or sent for it until a test arrives.
   */
  state: z.enum(CHANNEL_STATES),
  failingSince: z.nullable(z.string()),
  retryAt: z.nullable(z.string()),
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

/** What a test, and a webhook's or push device's last result, says: whether it arrived, never why not (decision 0067). */
export const DELIVERED = 'Delivered';
export const NOT_DELIVERED = 'Not delivered';

/**
 * POST /api/notifications/channels/{id}/test: whether the test message arrived, and nothing about
 * why not, which goes to the server's log: refused, timed out and unreachable would otherwise tell
 * a caller which ports of which hosts are open (issue 34).
 */
export const testDeliverySchema = z.union([
  z.object({ delivered: z.literal(true), message: z.literal(DELIVERED) }),
  z.object({ delivered: z.literal(false), message: z.literal(NOT_DELIVERED) }),
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
