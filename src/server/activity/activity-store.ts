/**
 * The activity's table (issue 38 point 5, decision 0094): one entry per unit of work that changed a
 * budget, under the budget's owner columns, numbered per budget. Recorded in the writer's
 * transaction, under the budget's lock, so a budget's entries are numbered one after another, and
 * the same statement that adds one keeps the budget within MAX_ACTIVITY_ENTRIES.
 */
import { sql } from 'kysely';
import { activityText, actorName, MAX_ACTIVITY_ENTRIES } from '../../domain/activity.js';
import { noteChangeText } from '../live/change-text.js';
import type { Caller, SignedInUser } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { newId } from '../db/ids.js';
import { ownerColumns } from '../db/owner.js';

/** Who made a change: the signed-in person and the name their sign-in gave; undefined for no person (a scheduled sync). */
export type Actor = SignedInUser | undefined;

export interface StoredActivity {
  readonly seq: number;
  readonly at: string;
  /** Whether a person made it (else a scheduled bank sync). */
  readonly person: boolean;
  readonly name: string | null;
  readonly what: string;
}

/** Records one entry, first dropping all but the budget's newest MAX_ACTIVITY_ENTRIES - 1. Call under the budget's lock. */
export async function recordActivity(db: Database, owner: Caller, actor: Actor, what: string, now: Date): Promise<void> {
  const owned = ownerColumns(owner);
  const newestSeq = sql<number>`(select max(seq) from activity_entries where owner_iss = ${owner.issuer} and owner_sub = ${owner.subject})`;
  await db
    .deleteFrom('activity_entries')
    .where((eb) => eb.and(owned))
    .where('seq', '<=', sql<number>`${newestSeq} - ${MAX_ACTIVITY_ENTRIES - 1}`)
    .execute();
  await db
    .insertInto('activity_entries')
    .values({
      id: newId(now.getTime()),
      ...owned,
      seq: sql<number>`coalesce(${newestSeq}, 0) + 1`,
      at: now.toISOString(),
      actor_iss: actor?.issuer ?? null,
      actor_sub: actor?.subject ?? null,
      actor_name: actor?.name ?? null,
      what,
    })
    .execute();
  // The same sentence goes to the other members' open pages once the call is answered (decision 0096).
  noteChangeText(owner, `${activityText(actorName(actor?.name, actor !== undefined), what)}.`);
}

/** The budget's entries newest first, those numbered below `before` when given, at most `limit`. */
export async function listActivity(db: Database, owner: Caller, before: number | undefined, limit: number): Promise<StoredActivity[]> {
  let query = db
    .selectFrom('activity_entries')
    .select(['seq', 'at', 'actor_iss', 'actor_name', 'what'])
    .where((eb) => eb.and(ownerColumns(owner)));
  if (before !== undefined) query = query.where('seq', '<', before);
  const records = await query.orderBy('seq', 'desc').limit(limit).execute();
  return records.map((record) => ({
    seq: Number(record.seq),
    at: record.at,
    person: record.actor_iss !== null,
    name: record.actor_name,
    what: record.what,
  }));
}

/** Every entry of the budget: its data is deleted ("delete everything", deleting a budget). */
export async function deleteActivity(db: Database, owner: Caller): Promise<void> {
  await db
    .deleteFrom('activity_entries')
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
}
