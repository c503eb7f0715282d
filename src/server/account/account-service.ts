/**
 * Your data as a whole: export it, restore it, delete it. Each call is one database transaction;
 * restore and delete first take the owner's lock (lockLedger), as every ledger and schedule write
 * does, so no write of the same user interleaves with them.
 */
import type { AccountCounts } from '../../contract/account.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { type LedgerScope, lockLedger } from '../ledger/ledger-record.js';
import { type AccountData, withNewIds } from './account-data.js';
import { deleteAccount, readAccount, writeAccount } from './account-store.js';

/** A primary key taken already: SQLite's and PostgreSQL's (23505) unique-violation codes. */
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const { code } = error;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function counts(data: AccountData): AccountCounts {
  return { deposits: data.deposits.length, expenses: data.expenses.length, transactions: data.ledger?.rows.length ?? 0 };
}

export class AccountService {
  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock: the restored ledger's created_at. */
    private readonly now: () => Date,
  ) {}

  /**
   * Everything the owner has, read in one snapshot: on PostgreSQL each statement of a READ
   * COMMITTED transaction sees its own, so the export asks for REPEATABLE READ; a SQLite
   * transaction reads one snapshot anyway.
   */
  async export(owner: Caller): Promise<AccountData> {
    const transaction =
      this.database.kind === 'postgres'
        ? this.database.db.transaction().setIsolationLevel('repeatable read')
        : this.database.db.transaction();
    return transaction.execute((trx) => readAccount(this.scope(trx, owner)));
  }

  /**
   * Replaces all the owner's data with `data`, keeping its ids. Ids are primary keys across all
   * users: when another owner holds one (the original account, still there), the whole
   * transaction rolls back and runs again with new ids for everything, references following.
   */
  async restore(owner: Caller, data: AccountData): Promise<AccountCounts> {
    try {
      await this.replace(owner, data);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await this.replace(owner, withNewIds(data));
    }
    return counts(data);
  }

  /** Removes every row the owner has; afterwards every call answers as for a new user. */
  async delete(owner: Caller): Promise<AccountCounts> {
    return this.database.db.transaction().execute(async (trx) => {
      const scope = this.scope(trx, owner);
      await lockLedger(scope);
      return deleteAccount(scope);
    });
  }

  private async replace(owner: Caller, data: AccountData): Promise<void> {
    await this.database.db.transaction().execute(async (trx) => {
      const scope = this.scope(trx, owner);
      await lockLedger(scope);
      await deleteAccount(scope);
      await writeAccount(scope, data, this.now());
    });
  }

  private scope(db: LedgerScope['db'], owner: Caller): LedgerScope {
    return { db, owner, kind: this.database.kind };
  }
}
