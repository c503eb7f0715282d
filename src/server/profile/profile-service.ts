/**
 * Who is calling, and their settings (issue 26, decision 0047; issue 36, decision 0074): GET /api/me
 * answers the zone today is read in for them, their "Keep at least" buffer and everyday spending;
 * PATCH /api/me stores any of them, the zone with onlyIfUnset only when they have none.
 */
import type { Profile } from '../../contract/app-config.js';
import type { ProfileUpdate } from '../../contract/notification-requests.js';
import { describeChange, type ForecastSettingsChange, settingsChanged } from '../../domain/activity.js';
import { InvalidInputError, NotFoundError } from '../../domain/errors.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { recordActivity } from '../activity/activity-store.js';
import type { Caller, SignedInUser } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { withOwnerLock } from '../db/owner-lock.js';
import { readAccount } from '../ledger/index.js';
import { type EverydaySetting, readUserSettings, storeSpendingSettings, storeTimeZone, type UserSettings } from './user-settings-store.js';

const NOT_YOUR_ACCOUNT = 'Account must be the id of one of your accounts.';

/** What of the forecast's settings differs between two reads: only the fields whose stored value changed. */
function settingsChange(before: UserSettings, after: UserSettings): ForecastSettingsChange {
  const everydayMoved = before.everyday?.weekly !== after.everyday?.weekly || before.everyday?.accountId !== after.everyday?.accountId;
  return {
    ...(after.timeZone !== null && after.timeZone !== before.timeZone && { timeZone: after.timeZone }),
    ...(after.buffer !== before.buffer && { keepAtLeast: after.buffer }),
    ...(everydayMoved && { everydayWeekly: after.everyday?.weekly ?? null }),
  };
}

export class ProfileService {
  constructor(
    private readonly database: OpenDatabase,
    private readonly now: () => Date,
    /** The server's zone (TZ): a user's until they have one. */
    private readonly defaultZone: string,
  ) {}

  /** The settings of the budget `owner` names (its forecast's zone, buffer and everyday spending), for the person signed in. */
  async profile(owner: Caller, person: Caller): Promise<Profile> {
    const settings = await readUserSettings(this.database.db, owner);
    return {
      subject: person.subject,
      name: null,
      timeZone: settings.timeZone ?? this.defaultZone,
      buffer: centsToDollars(settings.buffer),
      everydaySpending: settings.everyday && { weekly: centsToDollars(settings.everyday.weekly), accountId: settings.everyday.accountId },
    };
  }

  /**
   * Stores the budget's settings under the budget's lock, and notes in its activity what changed
   * (decision 0100): the lock numbers the entries, as the ledger's unit of work does. The page's
   * first store of the browser's zone (onlyIfUnset) is no member's choice, so that zone is not noted.
   */
  async update(owner: Caller, person: SignedInUser, update: ProfileUpdate): Promise<Profile> {
    const everyday = update.everydaySpending === undefined ? undefined : await this.everydayOf(owner, update.everydaySpending);
    const { timeZone, buffer } = update;
    await withOwnerLock(this.database, owner, async (trx) => {
      const before = await readUserSettings(trx, owner);
      if (timeZone !== undefined) await storeTimeZone(trx, owner, timeZone, update.onlyIfUnset === true, this.now());
      await storeSpendingSettings(
        trx,
        owner,
        { ...(buffer !== undefined && { buffer: dollarsToCents(buffer) }), ...(everyday !== undefined && { everyday }) },
        this.now(),
      );
      const { timeZone: zoneSet, ...rest } = settingsChange(before, await readUserSettings(trx, owner));
      const changed = update.onlyIfUnset === true ? rest : { ...rest, ...(zoneSet !== undefined && { timeZone: zoneSet }) };
      if (settingsChanged(changed)) await recordActivity(trx, owner, person, describeChange({ kind: 'settings', changed }), this.now());
    });
    return this.profile(owner, person);
  }

  /** Everyday spending as stored: out of one of the caller's accounts (the primary one when none is named). */
  private async everydayOf(owner: Caller, asked: Exclude<ProfileUpdate['everydaySpending'], undefined>): Promise<EverydaySetting | null> {
    if (asked === null) return null;
    const choice = asked.accountId === undefined ? 'primary' : { id: asked.accountId };
    const account = await readAccount(this.database, owner, choice).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (!account) {
      const message = asked.accountId === undefined ? 'Everyday spending needs an account: create a ledger first.' : NOT_YOUR_ACCOUNT;
      throw new InvalidInputError('Some fields need attention.', { 'everydaySpending.accountId': message });
    }
    return { weekly: dollarsToCents(asked.weekly), accountId: account.id };
  }
}
