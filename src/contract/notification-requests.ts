import * as z from 'zod/mini';
import { canonicalTimeZone } from '../domain/time-zones.js';
import { OBJECT_BODY, wholeNumberField } from './request-fields.js';
import { MAX_EMAIL_LENGTH, MAX_WEBHOOK_URL_LENGTH } from './notifications.js';
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
