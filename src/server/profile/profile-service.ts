/**
 * Who is calling, and their settings (issue 26, decision 0047; issue 36, decision 0074): GET /api/me
 * answers the zone today is read in for them, their "Keep at least" buffer and everyday spending;
 * PATCH /api/me stores any of them, the zone with onlyIfUnset only when they have none.
 */
import type { Profile } from '../../contract/app-config.js';
import type { ProfileUpdate } from '../../contract/notification-requests.js';
import { InvalidInputError, NotFoundError } from '../../domain/errors.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { readAccount } from '../ledger/index.js';
import { type EverydaySetting, readUserSettings, storeSpendingSettings, storeTimeZone } from './user-settings-store.js';

const NOT_YOUR_ACCOUNT = 'Account must be the id of one of your accounts.';

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

  async update(owner: Caller, person: Caller, update: ProfileUpdate): Promise<Profile> {
    const everyday = update.everydaySpending === undefined ? undefined : await this.everydayOf(owner, update.everydaySpending);
    const { timeZone, buffer } = update;
    await this.database.db.transaction().execute(async (trx) => {
      if (timeZone !== undefined) await storeTimeZone(trx, owner, timeZone, update.onlyIfUnset === true, this.now());
      await storeSpendingSettings(
        trx,
        owner,
        { ...(buffer !== undefined && { buffer: dollarsToCents(buffer) }), ...(everyday !== undefined && { everyday }) },
        this.now(),
      );
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
