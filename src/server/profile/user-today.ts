/**
 * Each user's own today (issue 26, decision 0047): the date of the app's clock in the user's stored
 * time zone, or in the server's (TZ) while they have none. Every rule that depends on today for a
 * user reads it here, in the transaction it runs in.
 */
import type { IsoDate } from '../../domain/calendar-date.js';
import { todayInZone } from '../../domain/time-zones.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import type { OutlookReader } from '../ledger/index.js';
import { readUserSettings } from './user-settings-store.js';

/** The user's zone: theirs, or the default. */
export async function userTimeZone(db: Database, owner: Caller, defaultZone: string): Promise<string> {
  return (await readUserSettings(db, owner)).timeZone ?? defaultZone;
}

/** A reader of the owner's today on the app's clock (one small query by the owner's key). */
export function userToday(defaultZone: string, now: () => Date): (db: Database, owner: Caller) => Promise<IsoDate> {
  return async (db, owner) => todayInZone(now(), await userTimeZone(db, owner, defaultZone));
}

/** A reader of what an account's outlook needs of its owner (issue 36): their today, buffer and everyday spending, in one query. */
export function userOutlook(defaultZone: string, now: () => Date): OutlookReader {
  return async (db, owner) => {
    const settings = await readUserSettings(db, owner);
    return { today: todayInZone(now(), settings.timeZone ?? defaultZone), buffer: settings.buffer, everyday: settings.everyday };
  };
}
