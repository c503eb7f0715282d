/**
 * Every table a user has rows in, read, deleted and written as a whole, each through the module
 * that owns it (the deposit and expense repositories, the ledger's face) and inside the caller's
 * transaction. No SQL here: every query is its table's module's, and names the owner.
 */
import type { YourDataCounts } from '../../contract/your-data.js';
import { checkLedgerRows, checkScheduleCount } from '../../domain/limits.js';
import { cents } from '../../domain/money.js';
import { deleteActivity } from '../activity/activity-store.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { depositRepository } from '../deposits/deposit-repository.js';
import { expenseRepository } from '../expenses/expense-repository.js';
import {
  deleteAllAccounts,
  deleteUndoEntries,
  insertAccount,
  ledgerScope,
  type LedgerWrite,
  listAccounts,
  readLedgerData,
  type RestorableLedger,
} from '../ledger/index.js';
import { BankConnectionStore, deleteAllBankConnections } from '../bank/bank-connection-store.js';
import { deleteAllChannels } from '../notifications/channel-store.js';
import { deleteAllMessages } from '../notifications/outbox-store.js';
import { deleteUserSettings, readUserSettings, storeSpendingSettings } from '../profile/user-settings-store.js';
import { type YourData, type AccountLedgerData, rowCount } from './your-data.js';

/** Everything the owner has; the caller runs it in one snapshot (one transaction, `db`). */
export async function readYourData(database: OpenDatabase, owner: Caller, db: Database): Promise<YourData> {
  const scope = ledgerScope(database, owner, db);
  const accounts: AccountLedgerData[] = [];
  const bank = new BankConnectionStore(db);
  for (const account of await listAccounts(db, owner)) {
    const bankLinks = await bank.linkedTo(owner, account.id);
    accounts.push({ ...account, ledger: await readLedgerData(scope, account.id), ...(bankLinks.length > 0 && { bankLinks }) });
  }
  // Only an owner with no account at all has a schedule in none; the export made their primary one first.
  const inAccount = <T extends { readonly accountId: string | null }>(schedule: T) => {
    if (schedule.accountId === null) throw new Error('a schedule in no account, though the owner has one');
    return { ...schedule, accountId: schedule.accountId };
  };
  const { buffer, everyday } = await readUserSettings(db, owner);
  // Everyday spending out of an account since deleted counts nowhere (decision 0075): it is not carried.
  const carried = everyday && accounts.some((account) => account.id === everyday.accountId) ? everyday : null;
  return {
    accounts,
    ...((buffer !== 0 || carried) && { settings: { buffer, everyday: carried } }),
    // The repositories' own mapping, and when each was stored (the list's order breaks ties by it).
    deposits: (await depositRepository(db).withCreationTimes(owner)).map(inAccount),
    expenses: (await expenseRepository(db).withCreationTimes(owner)).map(inAccount),
  };
}

/**
 * Removes every row the owner has, in every table, and answers how many schedules and ledger rows
 * went. Under the owner's lock, which commits or rolls back all of it. What could be undone goes
 * too: none of it is there to put back (decision 0040).
 */
export async function deleteYourData(locked: LedgerWrite, owner: Caller): Promise<YourDataCounts> {
  await deleteUndoEntries(locked.db, owner);
  let transactions = 0;
  for (const account of await listAccounts(locked.db, owner)) transactions += await (await locked.store({ id: account.id })).deleteAll();
  await deleteAllAccounts(locked.db, owner);
  const deposits = await depositRepository(locked.db).removeAll(owner);
  const expenses = await expenseRepository(locked.db).removeAll(owner);
  return { deposits, expenses, transactions };
}

/**
 * Removes the owner's settings (time zone, notifications), channels and messages: deleting all
 * their data leaves nothing of them, while a restore, which replaces their budget, keeps these.
 */
export async function deleteSettings(locked: LedgerWrite, owner: Caller): Promise<void> {
  await deleteAllMessages(locked.db, owner);
  await deleteAllChannels(locked.db, owner);
  await deleteUserSettings(locked.db, owner);
  await deleteAllBankConnections(locked.db, owner);
  // Who did what goes with everything else, and this write, which leaves nothing, records no entry of itself.
  await deleteActivity(locked.db, owner);
  locked.noteActivity(null);
}

/**
 * Stores the data for the owner, who has nothing now (deleteYourData ran under the same lock).
 * `ledgers`: what to store for each account that has a ledger, in order (the unit's runRestoring).
 */
export async function writeYourData(
  locked: LedgerWrite,
  owner: Caller,
  data: YourData,
  now: Date,
  ledgers: readonly RestorableLedger[],
): Promise<void> {
  const tooMany =
    checkScheduleCount('deposit', data.deposits.length) ??
    checkScheduleCount('expense', data.expenses.length) ??
    checkLedgerRows('restore', rowCount(data));
  if (tooMany) throw tooMany;
  for (const account of data.accounts) await insertAccount(locked.db, owner, account);
  // The owner's bridge accounts linked as the document says, to the restored accounts; the others
  // unlinked (their accounts are gone). Links to connections the owner no longer has are dropped.
  await new BankConnectionStore(locked.db).restoreLinks(
    owner,
    data.accounts.flatMap((account) => (account.bankLinks ?? []).map((link) => ({ ...link, accountId: account.id }))),
  );
  // The document's "Keep at least" and everyday spending, or $0.00 and off when it has none (issue 36);
  // a user who never set them gets no settings row from a restore.
  const current = await readUserSettings(locked.db, owner);
  if (data.settings || current.buffer !== 0 || current.everyday) {
    const settings = data.settings ?? { buffer: cents(0), everyday: null };
    await storeSpendingSettings(locked.db, owner, settings, now);
  }
  await depositRepository(locked.db).restore(owner, data.deposits);
  await expenseRepository(locked.db).restore(owner, data.expenses);
  let next = 0;
  for (const account of data.accounts) {
    if (!account.ledger) continue;
    const ledger = ledgers[next];
    next += 1;
    if (!ledger) throw new Error('a restored account has no ledger to store');
    await (await locked.store({ id: account.id })).restore(ledger, now);
  }
}
