/**
 * Who is calling, and their time zone (issue 26, decision 0047): GET /api/me answers the zone
 * today is read in for them; PATCH /api/me stores one, or with onlyIfUnset only when they have none.
 */
import type { Profile } from '../../contract/app-config.js';
import type { ProfileUpdate } from '../../contract/notification-requests.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { storeTimeZone } from './user-settings-store.js';
import { userTimeZone } from './user-today.js';

export class ProfileService {
  constructor(
    private readonly database: OpenDatabase,
    private readonly now: () => Date,
    /** The server's zone (TZ): a user's until they have one. */
    private readonly defaultZone: string,
  ) {}

  async profile(owner: Caller): Promise<Profile> {
    return { subject: owner.subject, name: null, timeZone: await userTimeZone(this.database.db, owner, this.defaultZone) };
  }

  async update(owner: Caller, update: ProfileUpdate): Promise<Profile> {
    await this.database.db
      .transaction()
      .execute((trx) => storeTimeZone(trx, owner, update.timeZone, update.onlyIfUnset === true, this.now()));
    return this.profile(owner);
  }
}
