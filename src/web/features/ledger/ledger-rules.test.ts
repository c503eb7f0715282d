import { describe, expect, it } from 'vitest';
import type { LedgerTransaction } from '../../../contract/ledger.js';
import type { TransactionUpdate } from '../../../contract/ledger-requests.js';
import { transactionUpdateSchema } from '../../../contract/ledger-requests.js';
import { changesRow } from './ledger-rules.js';

const ledger = { startDate: '2026-03-01', endDate: '2026-12-31' };
const original: LedgerTransaction = {
  id: 't1',
  date: '2026-03-01',
  name: 'Rent',
  type: 'D',
  amount: 1200,
  balance: 800,
  status: 'PENDING',
  source: null,
};
const asUpdate = (fields: Partial<LedgerTransaction>): TransactionUpdate => transactionUpdateSchema.parse({ ...original, ...fields });

describe('changesRow', () => {
  it('is false for the row exactly as the server sent it', () => {
    expect(changesRow(original, asUpdate({}), ledger)).toBe(false);
  });

  it('ignores the balance, which only the server computes', () => {
    expect(changesRow(original, asUpdate({ balance: 5 }), ledger)).toBe(false);
  });

  it.each<[string, Partial<LedgerTransaction>]>([
    ['status', { status: 'PAID' }],
    ['date', { date: '2026-03-02' }],
    ['name', { name: 'Mortgage' }],
    ['amount', { amount: 1200.01 }],
  ])('is true when the %s changes', (_field, fields) => {
    expect(changesRow(original, asUpdate(fields), ledger)).toBe(true);
  });

  it('sees a name that differs only by surrounding spaces as unchanged, as the contract trims it', () => {
    expect(changesRow(original, asUpdate({ name: '  Rent ' }), ledger)).toBe(false);
  });
});
