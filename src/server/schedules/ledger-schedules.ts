/**
 * The deposits and expenses a ledger is projected from, read as their own repositories read them.
 * The ledger's service is given this (a ScheduleReader) by whoever builds it: the ledger does not
 * import the schedules' modules, only they import its face.
 */
import type { AccountSchedules } from '../ledger/index.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { depositRepository } from '../deposits/deposit-repository.js';
import { expenseRepository } from '../expenses/expense-repository.js';

/** In the order they were added: generation numbers rows that tie on date, type and name by it. */
export async function readLedgerSchedules(db: Database, owner: Caller): Promise<AccountSchedules> {
  return {
    deposits: await depositRepository(db).inCreationOrder(owner),
    expenses: await expenseRepository(db).inCreationOrder(owner),
  };
}
