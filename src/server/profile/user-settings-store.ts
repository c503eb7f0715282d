/**
 * The user_settings table (decisions 0047 and 0051): a user's time zone and notification settings,
 * one row per user who chose any, and the local date their day's messages were last planned. A
 * user without a row has the defaults: the server's zone, 08:00, "below $0" on, "bills due" off.
 */
import { DEFAULT_NOTIFICATION_HOUR } from '../../contract/notifications.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { type Cents, cents } from '../../domain/money.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { ownerColumns } from '../db/owner.js';

export interface UserSettings {
  /** Null: none stored, the server's default applies. */
  readonly timeZone: string | null;
  readonly hour: number;
  readonly belowZero: boolean;
  readonly billsDue: boolean;
  /** "Keep at least" (issue 36). */
  readonly buffer: Cents;
  /** Everyday spending a week and the account it comes out of; null while it is off. */
  readonly everyday: EverydaySetting | null;
}

export interface EverydaySetting {
  readonly weekly: Cents;
  readonly accountId: string;
}

export interface NotificationRules {
  readonly hour: number;
  readonly belowZero: boolean;
  readonly billsDue: boolean;
}

export const DEFAULT_SETTINGS: UserSettings = {
  timeZone: null,
  hour: DEFAULT_NOTIFICATION_HOUR,
  belowZero: true,
  billsDue: false,
  buffer: cents(0),
  everyday: null,
};

/** The columns of issue 36 as settings: numbers come back from PostgreSQL's integers as numbers, from a bigint as text. */
function spendingOf(row: {
  buffer_cents: number | string;
  everyday_weekly_cents: number | string | null;
  everyday_account_id: string | null;
}): Pick<UserSettings, 'buffer' | 'everyday'> {
  const weekly = row.everyday_weekly_cents;
  return {
    buffer: cents(Number(row.buffer_cents)),
    everyday:
      weekly === null || row.everyday_account_id === null ? null : { weekly: cents(Number(weekly)), accountId: row.everyday_account_id },
  };
}

function ownerIs(owner: Caller) {
  const columns = ownerColumns(owner);
  return { iss: columns.owner_iss, sub: columns.owner_sub };
}

export async function readUserSettings(db: Database, owner: Caller): Promise<UserSettings> {
  const { iss, sub } = ownerIs(owner);
  const row = await db
    .selectFrom('user_settings')
    .select(['time_zone', 'notify_hour', 'below_zero', 'bills_due', 'buffer_cents', 'everyday_weekly_cents', 'everyday_account_id'])
    .where('owner_iss', '=', iss)
    .where('owner_sub', '=', sub)
    .executeTakeFirst();
  if (!row) return DEFAULT_SETTINGS;
  return {
    timeZone: row.time_zone,
    hour: Number(row.notify_hour),
    belowZero: Number(row.below_zero) === 1,
    billsDue: Number(row.bills_due) === 1,
    ...spendingOf(row),
  };
}

/** The row with the defaults, unless the user has one; every write below then changes it. */
async function ensureRow(db: Database, owner: Caller, now: Date): Promise<void> {
  await db
    .insertInto('user_settings')
    .values({ ...ownerColumns(owner), time_zone: null, planned_on: null, updated_at: now.toISOString() })
    .onConflict((conflict) => conflict.columns(['owner_iss', 'owner_sub']).doNothing())
    .execute();
}

/** Stores the zone; with onlyIfUnset, only when the user has none yet (one statement: two sign-ins at once cannot both win). */
export async function storeTimeZone(db: Database, owner: Caller, zone: string, onlyIfUnset: boolean, now: Date): Promise<void> {
  await ensureRow(db, owner, now);
  const { iss, sub } = ownerIs(owner);
  let update = db
    .updateTable('user_settings')
    .set({ time_zone: zone, updated_at: now.toISOString() })
    .where('owner_iss', '=', iss)
    .where('owner_sub', '=', sub);
  if (onlyIfUnset) update = update.where('time_zone', 'is', null);
  await update.execute();
}

export async function storeNotificationRules(db: Database, owner: Caller, rules: NotificationRules, now: Date): Promise<void> {
  await ensureRow(db, owner, now);
  const { iss, sub } = ownerIs(owner);
  await db
    .updateTable('user_settings')
    .set({ notify_hour: rules.hour, below_zero: rules.belowZero ? 1 : 0, bills_due: rules.billsDue ? 1 : 0, updated_at: now.toISOString() })
    .where('owner_iss', '=', iss)
    .where('owner_sub', '=', sub)
    .execute();
}

/**
 * Stores "Keep at least" and everyday spending (issue 36): each only when given; everyday spending
 * null turns it off.
 */
export async function storeSpendingSettings(
  db: Database,
  owner: Caller,
  change: { readonly buffer?: Cents; readonly everyday?: EverydaySetting | null },
  now: Date,
): Promise<void> {
  if (change.buffer === undefined && change.everyday === undefined) return;
  await ensureRow(db, owner, now);
  const { iss, sub } = ownerIs(owner);
  await db
    .updateTable('user_settings')
    .set({
      updated_at: now.toISOString(),
      ...(change.buffer !== undefined && { buffer_cents: change.buffer }),
      ...(change.everyday !== undefined && {
        everyday_weekly_cents: change.everyday?.weekly ?? null,
        everyday_account_id: change.everyday?.accountId ?? null,
      }),
    })
    .where('owner_iss', '=', iss)
    .where('owner_sub', '=', sub)
    .execute();
}

/** Makes sure the user has a row, so the planner finds them (a user's first channel). */
export async function keepUserSettings(db: Database, owner: Caller, now: Date): Promise<void> {
  await ensureRow(db, owner, now);
}

/** A user whose day's messages may be planned: their settings and the local date last planned. */
export interface PlanningCandidate extends UserSettings {
  readonly owner: Caller;
  readonly plannedOn: string | null;
}

/** Settings of these owners who have a row, keyed as owners are. */
export async function readPlanningCandidates(db: Database, owners: readonly Caller[]): Promise<PlanningCandidate[]> {
  const found: PlanningCandidate[] = [];
  // A few hundred at a time: well within either database's parameter limit.
  for (let start = 0; start < owners.length; start += 200) {
    const batch = owners.slice(start, start + 200);
    const rows = await db
      .selectFrom('user_settings')
      .selectAll()
      .where((eb) => eb.or(batch.map((owner) => eb.and([eb('owner_iss', '=', owner.issuer), eb('owner_sub', '=', owner.subject)]))))
      .execute();
    for (const row of rows) {
      found.push({
        owner: { issuer: row.owner_iss, subject: row.owner_sub },
        timeZone: row.time_zone,
        hour: Number(row.notify_hour),
        belowZero: Number(row.below_zero) === 1,
        billsDue: Number(row.bills_due) === 1,
        ...spendingOf(row),
        plannedOn: row.planned_on,
      });
    }
  }
  return found;
}

/**
 * Marks the user's day `today` as planned, unless it already is (another date, after a change of
 * zone, counts as another day; the outbox's keys keep it from repeating a message): true for the one caller that
 * marked it. On PostgreSQL a second process's update waits for the first's transaction and then
 * finds the row changed; so exactly one transaction plans a user's day, and a planner that dies
 * before its commit leaves the day unplanned for the next run.
 */
export async function claimPlanningDay(db: Database, owner: Caller, today: IsoDate, now: Date): Promise<boolean> {
  const { iss, sub } = ownerIs(owner);
  const result = await db
    .updateTable('user_settings')
    .set({ planned_on: today, updated_at: now.toISOString() })
    .where('owner_iss', '=', iss)
    .where('owner_sub', '=', sub)
    .where((eb) => eb.or([eb('planned_on', 'is', null), eb('planned_on', '<>', today)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Asks the notifications to plan the owner's day once more (issue 37 item 6): a bank sync changed a
 * ledger. The next outbox round of any process claims the day again (claimPlanningDay), once their
 * hour has come; what it records is keyed as before, so nothing already recorded goes twice.
 */
export async function replanDay(db: Database, owner: Caller, now: Date): Promise<void> {
  const { iss, sub } = ownerIs(owner);
  await db
    .updateTable('user_settings')
    .set({ planned_on: null, updated_at: now.toISOString() })
    .where('owner_iss', '=', iss)
    .where('owner_sub', '=', sub)
    .execute();
}

export async function deleteUserSettings(db: Database, owner: Caller): Promise<void> {
  const { iss, sub } = ownerIs(owner);
  await db.deleteFrom('user_settings').where('owner_iss', '=', iss).where('owner_sub', '=', sub).execute();
}
