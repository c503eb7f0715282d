/**
 * Every table a user has rows in, read, deleted and written as a whole, each through the module
 * that owns it (the deposit and expense repositories, the ledger's face) and inside the caller's
 * transaction. No SQL here: every query is its table's module's, and names the owner.
 */
import type { AccountCounts } from '../../contract/account.js';
import { checkScheduleCount } from '../../domain/limits.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { depositRepository } from '../deposits/deposit-repository.js';
import { expenseRepository } from '../expenses/expense-repository.js';
import { ledgerScope, type LedgerStore, readLedgerData } from '../ledger/index.js';
import { deleteUndoEntries } from '../undo/undo-store.js';
import type { AccountData } from './account-data.js';

/** Everything the owner has; the caller runs it in one snapshot (one transaction, `db`). */
export async function readAccount(database: OpenDatabase, owner: Caller, db: Database): Promise<AccountData> {
  return {
    // The repositories' own mapping, and when each was stored (the list's order breaks ties by it).
    deposits: await depositRepository(db).withCreationTimes(owner),
    expenses: await expenseRepository(db).withCreationTimes(owner),
    ledger: await readLedgerData(ledgerScope(database, owner, db)),
  };
}

/**
 * Removes every row the owner has, in every table, and answers how many schedules and ledger rows
 * went. Under the owner's lock (the store's), which commits or rolls back all of it. What could be
 * undone goes too: none of it is there to put back (decision 0040).
 */
export async function deleteAccount(store: LedgerStore, owner: Caller): Promise<AccountCounts> {
  await deleteUndoEntries(store.db, owner);
  const transactions = await store.deleteAll();
  const deposits = await depositRepository(store.db).removeAll(owner);
  const expenses = await expenseRepository(store.db).removeAll(owner);
  return { deposits, expenses, transactions };
}

/** Stores the data for the owner, who has nothing now (deleteAccount ran under the same lock). */
export async function writeAccount(store: LedgerStore, owner: Caller, data: AccountData, now: Date): Promise<void> {
  const tooMany = checkScheduleCount('deposit', data.deposits.length) ?? checkScheduleCount('expense', data.expenses.length);
  if (tooMany) throw tooMany;
  await store.checkRowLimit('restore', data.ledger?.rows.length ?? 0, { held: 0 });
  await depositRepository(store.db).restore(owner, data.deposits);
  await expenseRepository(store.db).restore(owner, data.expenses);
  if (data.ledger) await store.restore(data.ledger, now);
}
