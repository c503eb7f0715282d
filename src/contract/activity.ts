/**
 * Who did what in a budget (issue 38 point 5, decision 0094): GET /api/budgets/{id}/activity,
 * newest first, a page at a time. `before` is the cursor: the `next` of the page before, which
 * answers the entries recorded before that page's last one. Entries are numbered per budget and
 * never renumbered, so a page never repeats or skips an entry while new ones are added on top.
 */
import * as z from 'zod/mini';
import { ACTIVITY_PAGE_MOST } from '../domain/activity.js';

/** The highest entry number `before` may name: far past what a budget could record. */
const MOST_BEFORE = 999_999_999;

/** A whole number in a query string, in a range, with one message for every way to miss it. */
function queryNumber(label: string, min: number, max: number) {
  const message = `${label} must be a whole number from ${min} to ${max}.`;
  return z.optional(
    z.pipe(
      z
        .string({ error: message })
        .check(z.refine((text: string) => /^\d{1,9}$/.test(text) && Number(text) >= min && Number(text) <= max, message)),
      z.transform(Number),
    ),
  );
}

/** GET /api/budgets/{id}/activity's query: the page's cursor and size. */
export const activityQuerySchema = z.object({
  before: queryNumber('before', 1, MOST_BEFORE),
  limit: queryNumber('limit', 1, ACTIVITY_PAGE_MOST),
});

export const activityEntrySchema = z.object({
  /** Its number in the budget: later entries have higher ones. */
  id: z.number(),
  /** When, as an ISO 8601 time. */
  at: z.string(),
  /** Who: the maker's display name from their sign-in, "A member" without one, "Bank sync" for a scheduled sync. Never a subject. */
  who: z.string(),
  /** What, after the name: "paid Rent". */
  what: z.string(),
  /** The sentence: "Alex paid Rent". */
  text: z.string(),
});

export const activitySchema = z.object({
  entries: z.array(activityEntrySchema),
  /** The `before` that asks for the next page, or null when this page holds the oldest entry kept. */
  next: z.nullable(z.number()),
});
export type Activity = z.infer<typeof activitySchema>;
