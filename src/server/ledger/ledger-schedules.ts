/** The deposits and expenses a ledger is projected from, read as their own repositories read them. */
import type { LedgerSchedules } from '../../domain/ledger-projection.js';
import { depositRepository } from '../deposits/deposit-repository.js';
import { expenseRepository } from '../expenses/expense-repository.js';
import type { LedgerScope } from './ledger-record.js';

/** In the order they were added: generation numbers rows that tie on date, type and name by it. */
export async function ledgerSchedules({ db, owner }: LedgerScope): Promise<LedgerSchedules> {
  return {
    deposits: await depositRepository(db).inCreationOrder(owner),
    expenses: await expenseRepository(db).inCreationOrder(owner),
  };
}
