/**
 * The deposits and expenses a ledger is projected from, read as their own repositories read them,
 * in the order they were added: generation numbers rows that tie on date, type and name by it. The
 * ledger is handed this reader (it never imports deposits or expenses, decision 0033) by whoever
 * builds its unit of work: the app, and the bank sync's thread (bank-sync-worker.ts).
 */
import type { Caller } from './auth/access-token.js';
import type { Database } from './db/database.js';
import { depositRepository } from './deposits/deposit-repository.js';
import { expenseRepository } from './expenses/expense-repository.js';
import type { AccountSchedules } from './ledger/index.js';

export async function readLedgerSchedules(db: Database, owner: Caller): Promise<AccountSchedules> {
  return {
    deposits: await depositRepository(db).inCreationOrder(owner),
    expenses: await expenseRepository(db).inCreationOrder(owner),
  };
}
