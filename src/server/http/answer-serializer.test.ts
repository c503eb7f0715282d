import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { ledgerInfoSchema } from '../../contract/ledger.js';
import { answerSerializerCompiler } from './answer-serializer.js';

const serialize = answerSerializerCompiler({
  schema: ledgerInfoSchema,
  method: 'GET',
  url: '/api/ledger/retrieve-ledger',
  httpStatus: '200',
});

const row = { id: 'row-1', date: '2026-12-01', name: 'Rent', type: 'D', amount: 1200, balance: -1100, status: 'PENDING', source: null };
const info = {
  ledger: {
    startDate: '2026-12-01',
    endDate: '2026-12-31',
    openingBalance: 100,
    currentBalance: 100,
    pendingBalance: 100,
    transactions: [row],
  },
};

describe('the answer serializer', () => {
  it('writes an answer the contract allows as its JSON text', () => {
    expect(JSON.parse(serialize(info))).toEqual(info);
  });

  it('never sends a field the contract does not name', () => {
    const leaky = { ...info, ledger: { ...info.ledger, ownerSub: 'alice', transactions: [{ ...row, owner_iss: 'https://issuer' }] } };
    expect(JSON.parse(serialize(leaky))).toEqual(info);
  });

  it('refuses an answer the contract does not allow, so the route fails instead of sending it', () => {
    let thrown: unknown;
    try {
      serialize({ ledger: { ...info.ledger, transactions: [{ ...row, amount: 12.345 }] } });
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
  });
});
