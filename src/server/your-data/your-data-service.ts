/**
 * Your data as a whole: export it, restore it, delete it. Each call is one database transaction;
 * restore and delete run under the owner's lock (withLedgerLock), as every ledger and schedule
 * write does, so no write of the same user interleaves with them.
 */
import type { YourDataCounts } from '../../contract/your-data.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { depositRepository } from '../deposits/deposit-repository.js';
import { expenseRepository } from '../expenses/expense-repository.js';
import { type LedgerWrites, listAccounts, readAccount as readChosenAccount, type WritePlan } from '../ledger/index.js';
import { type StorableData, type YourData, rowCount } from './your-data.js';
import { deleteYourData, deleteSettings, readYourData, writeYourData } from './your-data-store.js';

/**
 * Your data as a whole is written as the file says (or as nothing): not undoable (decision 0040),
 * and no follower re-derives what the file holds.
 */
const WHOLE_DATA: WritePlan = { growth: 'restore', undo: null, follow: false };

function counts(data: YourData): YourDataCounts {
  return { deposits: data.deposits.length, expenses: data.expenses.length, transactions: rowCount(data) };
}

export class YourDataService {
  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock: the restored ledger's created_at. */
    private readonly now: () => Date,
    /** Restoring and deleting write every ledger: each is one unit of work. */
    private readonly writes: LedgerWrites,
  ) {}

  /**
   * Everything the owner has, read in one snapshot: on PostgreSQL each statement of a READ
   * COMMITTED transaction sees its own, so the export asks for REPEATABLE READ; a SQLite
   * transaction reads one snapshot anyway.
   */
  async export(owner: Caller): Promise<YourData> {
    // Schedules are in an account: a user who has some but never needed an account (rows stored by
    // hand) gets their primary one now, as on any first need. A user with nothing exports no account.
    if (!(await readChosenAccount(this.database, owner, 'primary'))) {
      await this.writes.run(owner, WHOLE_DATA, {
        apply: async (locked) => {
          const schedules = (await depositRepository(locked.db).count(owner)) + (await expenseRepository(locked.db).count(owner));
          if (schedules > 0) await locked.account('primary');
        },
        answer: async () => undefined,
      });
    }
    const transaction =
      this.database.kind === 'postgres'
        ? this.database.db.transaction().setIsolationLevel('repeatable read')
        : this.database.db.transaction();
    return transaction.execute((trx) => readYourData(this.database, owner, trx));
  }

  /**
   * Replaces all the owner's data with `data`, stored under new ids (none of the file's: whether
   * another user holds one must not show) and with creation-order numbers the ledger can go on
   * counting from. Nothing else differs: every answer reads as the file says, ids aside.
   */
  async restore(owner: Caller, stored: StorableData): Promise<YourDataCounts> {
    // Each account's ledger in order: on SQLite stored before the unit of work, which then only attaches them (decision 0072).
    const ledgers = stored.accounts.flatMap((account) => (account.ledger ? [account.ledger] : []));
    await this.writes.runRestoring(owner, WHOLE_DATA, ledgers, {
      apply: async (locked, restorable) => {
        const primary = (await listAccounts(locked.db, owner)).find((account) => account.primary);
        await deleteYourData(locked, owner);
        locked.noteActivity({ kind: 'restore' });
        // A version 1 document restores into the primary account (decision 0042): it keeps its name, kind and age.
        const restored =
          stored.version1 && primary
            ? {
                ...stored,
                accounts: stored.accounts.map((account) => ({
                  ...account,
                  name: primary.name,
                  kind: primary.kind,
                  createdAt: primary.createdAt,
                })),
              }
            : stored;
        await writeYourData(locked, owner, restored, this.now(), restorable);
      },
      answer: async () => undefined,
    });
    return counts(stored);
  }

  /**
   * Removes every row the owner has, their accounts, settings and channels too; afterwards every call
   * answers as for a new user. `last` runs in the same unit of work, under the same lock: a shared
   * budget's row goes with its data (decision 0088), so no write can come between them.
   */
  async delete(owner: Caller, last?: (db: Database) => Promise<void>): Promise<YourDataCounts> {
    return this.writes.run(owner, WHOLE_DATA, {
      apply: async (locked) => {
        await deleteSettings(locked, owner);
        const deleted = await deleteYourData(locked, owner);
        await last?.(locked.db);
        return deleted;
      },
      answer: async (_locked, deleted) => deleted,
    });
  }
}
