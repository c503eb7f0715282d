/**
 * Gives a user a bit of everything through the API: deposits, expenses and a ledger whose rows are
 * PENDING, PAID and CLEARED, so that a call reaching this user's data would have something to find.
 */
import { accountsInfoSchema } from '../../src/contract/accounts.js';
import { expect } from 'vitest';
import { depositsInfoSchema } from '../../src/contract/deposits.js';
import { expensesInfoSchema } from '../../src/contract/expenses.js';
import { type LedgerTransaction, ledgerInfoSchema } from '../../src/contract/ledger.js';
import { VALID_DEPOSIT, VALID_EXPENSE, VALID_LEDGER, VALID_TRANSACTION } from './api-calls.js';
import type { UserClient } from './test-app.js';

export interface SeededUser {
  readonly depositIds: string[];
  readonly expenseIds: string[];
  readonly pending: LedgerTransaction;
  readonly paid: LedgerTransaction;
  readonly cleared: LedgerTransaction;
  /** The primary account, whose ledger the rows are in (decision 0042). */
  readonly accountId: string;
  /** Every id this user's rows carry. */
  readonly allIds: string[];
}

async function ok(response: Promise<{ statusCode: number; body: string; json(): unknown }>): Promise<unknown> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

export async function seedUser(user: UserClient, label: string): Promise<SeededUser> {
  await ok(user.post('/api/deposits/add-deposit', { ...VALID_DEPOSIT, name: `${label} paycheck` }));
  const deposits = depositsInfoSchema.parse(
    await ok(
      user.post('/api/deposits/add-deposit', { ...VALID_DEPOSIT, name: `${label} side job`, type: 'Check', day: 'N/A', frequency: 'EOM' }),
    ),
  );
  await ok(user.post('/api/expenses/add-expense', { ...VALID_EXPENSE, name: `${label} rent` }));
  const expenses = expensesInfoSchema.parse(
    await ok(user.post('/api/expenses/add-expense', { ...VALID_EXPENSE, name: `${label} phone`, day: 15, amount: 45 })),
  );

  await ok(user.post('/api/ledger/create-ledger', VALID_LEDGER));
  const ledger = ledgerInfoSchema.parse(
    await ok(user.post('/api/ledger/add-transaction', { ...VALID_TRANSACTION, name: `${label} coffee` })),
  ).ledger;
  const rows = ledger?.transactions ?? [];
  expect(rows.length).toBeGreaterThanOrEqual(3);
  const [pending, toPay, toClear] = rows as [LedgerTransaction, LedgerTransaction, LedgerTransaction];
  const pay = (row: LedgerTransaction, status: 'PAID' | 'CLEARED') => ok(user.patch('/api/ledger/update-transaction', { ...row, status }));
  await pay(toPay, 'PAID');
  await pay(toClear, 'CLEARED');

  const accounts = accountsInfoSchema.parse(await ok(user.get('/api/accounts'))).accounts;
  return {
    accountId: accounts.find((account) => account.primary)?.id ?? '',
    depositIds: deposits.deposits.map((deposit) => deposit.id),
    expenseIds: expenses.expenses.map((expense) => expense.id),
    pending,
    paid: { ...toPay, status: 'PAID' },
    cleared: { ...toClear, status: 'CLEARED' },
    allIds: [
      ...deposits.deposits.map((deposit) => deposit.id),
      ...expenses.expenses.map((expense) => expense.id),
      ...rows.map((row) => row.id),
    ],
  };
}
