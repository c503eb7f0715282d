import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { ledgerInfoSchema } from '../../contract/ledger.js';
import { answerSerializerCompiler, checkedInSlices } from './answer-serializer.js';

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

describe('a long answer checked and written in slices', () => {
  const rows = Array.from({ length: 4_321 }, (_, index) => ({ ...row, id: `row-${index}`, balance: -1100 - index }));
  const long = { ledger: { ...info.ledger, transactions: rows } };
  const written = (payload: unknown) => checkedInSlices(ledgerInfoSchema, payload, 'GET', '/api/ledger/retrieve-ledger');

  it('writes exactly the text the serializer writes, which the serializer then sends as it is', async () => {
    const sliced = await written(long);
    expect(sliced).not.toBe(long);
    expect(serialize(sliced)).toBe(serialize(long));
    expect(JSON.parse(serialize(sliced))).toEqual(long);
  });

  it('gives way to other work between its slices', async () => {
    let ranBetween = false;
    setImmediate(() => {
      ranBetween = true;
    });
    const writing = written(long);
    expect(ranBetween).toBe(false);
    await writing;
    expect(ranBetween).toBe(true);
  });

  it('drops what the contract does not name in every slice and around them', async () => {
    const leaky = {
      ledger: { ...long.ledger, ownerSub: 'alice', transactions: rows.map((one) => ({ ...one, owner_iss: 'https://issuer' })) },
    };
    expect(serialize(await written(leaky))).toBe(serialize(long));
  });

  it('refuses a long answer with one bad row anywhere, as the serializer does', async () => {
    const bad = {
      ledger: { ...long.ledger, transactions: rows.map((one, index) => (index === 3_999 ? { ...one, amount: 12.345 } : one)) },
    };
    const refusal: unknown = await written(bad).catch((error: unknown) => error);
    expect(isResponseSerializationError(refusal)).toBe(true);
  });

  it('leaves a short answer, and one with no ledger, for the serializer', async () => {
    expect(await written(info)).toBe(info);
    expect(await written({ ledger: null })).toEqual({ ledger: null });
  });
});
