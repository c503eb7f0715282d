import { describe, expect, it } from 'vitest';
import type { LedgerTransaction, TransactionUpdate } from '../../../contract/ledger.js';
import { transactionUpdateSchema } from '../../../contract/ledger.js';
import { changesTransaction } from './transaction-update.js';

const original: LedgerTransaction = {
  id: 't1',
  date: '2026-03-01',
  name: 'Rent',
  type: 'D',
  amount: 1200,
  balance: 800,
  status: 'PENDING',
};
const asUpdate = (fields: Partial<LedgerTransaction>): TransactionUpdate => transactionUpdateSchema.parse({ ...original, ...fields });

describe('changesTransaction', () => {
  it('is false for the row exactly as the server sent it', () => {
    expect(changesTransaction(original, asUpdate({}))).toBe(false);
  });

  it('ignores the balance, which only the server computes', () => {
    expect(changesTransaction(original, asUpdate({ balance: 5 }))).toBe(false);
  });

  it.each<[string, Partial<LedgerTransaction>]>([
    ['status', { status: 'PAID' }],
    ['date', { date: '2026-03-02' }],
    ['name', { name: 'Mortgage' }],
    ['amount', { amount: 1200.01 }],
  ])('is true when the %s changes', (_field, fields) => {
    expect(changesTransaction(original, asUpdate(fields))).toBe(true);
  });

  it('sees a name that differs only by surrounding spaces as unchanged, as the contract trims it', () => {
    expect(changesTransaction(original, asUpdate({ name: '  Rent ' }))).toBe(false);
  });
});
