/**
 * What the outlook of an account (issue 36: safe to spend, everyday spending) reads of its owner:
 * their today, their "Keep at least" buffer and their everyday spending. Handed in by the app, as
 * today is (TodayReader): the user's settings are not the ledger's.
 */
import type { IsoDate } from '../../domain/calendar-date.js';
import { type Cents, cents } from '../../domain/money.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';

export interface OutlookSettings {
  /** The owner's today in their own zone (decision 0047). */
  readonly today: IsoDate;
  readonly buffer: Cents;
  /** Everyday spending a week and the account it comes out of; null while it is off. */
  readonly everyday: { readonly weekly: Cents; readonly accountId: string } | null;
}

/** One small query by the owner's key, like TodayReader. */
export type OutlookReader = (db: Database, owner: Caller) => Promise<OutlookSettings>;

/** Everyday spending a week out of this account: 0 unless it is the one everyday spending comes out of. */
export function everydayWeeklyOf(settings: OutlookSettings, accountId: string): Cents {
  return settings.everyday?.accountId === accountId ? settings.everyday.weekly : cents(0);
}
