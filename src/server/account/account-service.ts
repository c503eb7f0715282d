/**
 * Your data as a whole: export it, restore it, delete it. Each call is one database transaction;
 * restore and delete run under the owner's lock (withLedgerLock), as every ledger and schedule
 * write does, so no write of the same user interleaves with them.
 */
import type { AccountCounts } from '../../contract/account.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { withLedgerLock } from '../ledger/index.js';
import { type AccountData, withCountableSequences, withNewIds } from './account-data.js';
import { deleteAccount, readAccount, writeAccount } from './account-store.js';

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
    return transaction.execute((trx) => readAccount(this.database, owner, trx));
  }

  /**
   * Replaces all the owner's data with `data`, stored under new ids (none of the file's: whether
   * another user holds one must not show) and with creation-order numbers the ledger can go on
   * counting from. Nothing else differs: every answer reads as the file says, ids aside.
   */
  async restore(owner: Caller, data: AccountData): Promise<AccountCounts> {
    const stored = withNewIds(withCountableSequences(data));
    await withLedgerLock(this.database, owner, async (store) => {
      await deleteAccount(store, owner);
      await writeAccount(store, owner, stored, this.now());
    });
    return counts(stored);
  }

  /** Removes every row the owner has; afterwards every call answers as for a new user. */
  async delete(owner: Caller): Promise<AccountCounts> {
    return withLedgerLock(this.database, owner, (store) => deleteAccount(store, owner));
  }
}
