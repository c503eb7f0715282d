/**
 * The requests of Settings' two forms (issue 26): the time zone (PATCH /api/me) and when and which
 * messages go out (PUT /api/notifications). Apart from the channels' requests (notification-requests.ts,
 * channel-requests.ts): the page checks these forms with them, and the channels' zod (the email
 * format, the union of kinds) would otherwise reach the page's first view (benchmark 4a, decision 0062).
 */
import * as z from 'zod/mini';
import { ianaTimeZone } from '../domain/time-zones.js';
import { OBJECT_BODY, wholeNumberField } from './request-fields.js';

const TIME_ZONE_MESSAGE = 'Time zone must be an IANA time zone, like America/Los_Angeles.';

/** An IANA zone name, kept as given (Europe/Kyiv stays Europe/Kyiv; "europe/paris" is spelt Europe/Paris). */
export const timeZoneField = z.pipe(
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Time zone is required.' : TIME_ZONE_MESSAGE) })
    .check(z.refine((value: string) => ianaTimeZone(value) !== null, TIME_ZONE_MESSAGE)),
  z.transform((value: string) => ianaTimeZone(value) as string),
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
