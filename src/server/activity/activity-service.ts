/**
 * A page of a budget's activity (issue 38 point 5, decision 0094): newest first, each entry with
 * who (their name then, never their subject), when and what, and the cursor of the next page.
 */
import type { Activity } from '../../contract/activity.js';
import { activityText, actorName } from '../../domain/activity.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { listActivity } from './activity-store.js';

/** One entry more is read than answered, to know whether another page follows. */
export async function activityPage(db: Database, owner: Caller, before: number | undefined, limit: number): Promise<Activity> {
  const stored = await listActivity(db, owner, before, limit + 1);
  const page = stored.slice(0, limit);
  const entries = page.map((entry) => {
    const who = actorName(entry.name, entry.person);
    return { id: entry.seq, at: entry.at, who, what: entry.what, text: activityText(who, entry.what) };
  });
  const last = page.at(-1);
  return { entries, next: stored.length > limit && last ? last.seq : null };
}
