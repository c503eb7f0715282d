/**
 * The requests of Settings' two forms (issue 26): the time zone (PATCH /api/me) and when and which
 * messages go out (PUT /api/notifications). Apart from the channels' requests (notification-requests.ts,
 * channel-requests.ts): the page checks these forms with them, and the channels' zod (the email
 * format, the union of kinds) would otherwise reach the page's first view (benchmark 4a, decision 0062).
 */
import * as z from 'zod/mini';
import { ianaTimeZone } from '../domain/time-zones.js';
import { accountIdField, limitedDollarsField, OBJECT_BODY, wholeNumberField } from './request-fields.js';

const TIME_ZONE_MESSAGE = 'Time zone must be an IANA time zone, like America/Los_Angeles.';

/** An IANA zone name, kept as given (Europe/Kyiv stays Europe/Kyiv; "europe/paris" is spelt Europe/Paris). */
export const timeZoneField = z.pipe(
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Time zone is required.' : TIME_ZONE_MESSAGE) })
    .check(z.refine((value: string) => ianaTimeZone(value) !== null, TIME_ZONE_MESSAGE)),
  z.transform((value: string) => ianaTimeZone(value) as string),
);

/** Everyday spending (issue 36): an amount a week and the account it comes out of (left out: the primary account). */
export const everydaySpendingField = z.object(
  { weekly: limitedDollarsField('Everyday spending', false), accountId: accountIdField },
  { error: 'Everyday spending must be { weekly, accountId? }, or null to turn it off.' },
);

/**
 * PATCH /api/me: the user's time zone, "Keep at least" (`buffer`) and everyday spending (null turns
 * it off), each optional, at least one given. With `onlyIfUnset: true` the zone is stored only when
 * the user has none yet, which is what the page sends at sign-in (the browser's zone never
 * overwrites a choice made in Settings); either way the answer is the profile as it now is
 * (decisions 0047 and 0074).
 */
export const profileUpdateSchema = z
  .object(
    {
      timeZone: z.optional(timeZoneField),
      onlyIfUnset: z.optional(z.boolean({ error: 'Only if unset must be true or false.' })),
      buffer: z.optional(limitedDollarsField('Keep at least', true)),
      everydaySpending: z.optional(z.nullable(everydaySpendingField)),
    },
    OBJECT_BODY,
  )
  .check(
    z.superRefine((update, context) => {
      // A body that sets nothing is a body without the field it has always needed.
      if (update.timeZone === undefined && update.buffer === undefined && update.everydaySpending === undefined) {
        context.issues.push({ code: 'custom', message: 'Time zone is required.', path: ['timeZone'], input: update });
      }
    }),
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

/** Settings' "Keep at least" form (issue 36): PATCH /api/me with the buffer alone. */
export const bufferUpdateSchema = z.object({ buffer: limitedDollarsField('Keep at least', true) }, OBJECT_BODY);

/** Settings' "Everyday spending" form: PATCH /api/me with everyday spending alone; null turns it off. */
export const everydayUpdateSchema = z.object({ everydaySpending: z.nullable(everydaySpendingField) }, OBJECT_BODY);
