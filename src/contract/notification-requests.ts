/**
 * The requests of Leftover's notifications (issue 26, decisions 0047 and 0051), as the server checks
 * them: the time zone and the notification settings (settings-requests.ts), and a new channel, an
 * email address or a webhook URL (channel-requests.ts) or this device's push subscription. The page
 * imports only types from here: it checks its forms with those two modules (decision 0062).
 */
import * as z from 'zod/mini';
import { emailChannelSchema, isWebAddress, webhookChannelSchema } from './channel-requests.js';
import { MAX_WEBHOOK_URL_LENGTH } from './notifications.js';
import { OBJECT_BODY } from './request-fields.js';

export {
  type NotificationPreferences,
  notificationPreferencesSchema,
  type ProfileUpdate,
  profileUpdateSchema,
} from './settings-requests.js';

const PUSH_MESSAGE = 'Target must be a push subscription: { endpoint, keys: { p256dh, auth } }.';

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
  [emailChannelSchema, webhookChannelSchema, z.object({ kind: z.literal('PUSH'), target: pushSubscriptionSchema }, OBJECT_BODY)],
  { error: KIND_MESSAGE },
);
export type NewChannel = z.output<typeof newChannelSchema>;
