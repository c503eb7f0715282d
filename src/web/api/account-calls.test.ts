/**
 * The accounts' calls and one account's ledger client (decision 0044), over the real api client with
 * only fetch stubbed: each call's method, path and body, and answers decoded as any other.
 */
import { describe, expect, it, vi } from 'vitest';
import { isoDate } from '../../domain/calendar-date.js';
import { accountEndpoints, accountLedgerApi, accountsApi } from './account-calls.js';
import { createApiClient } from './api-client.js';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const NO_LEDGER = { ledger: null };
const SAVINGS = { id: 's1', name: 'Savings', kind: 'SAVINGS', currentBalance: 12.5, pendingBalance: 12.5, primary: false, card: null };

function clientAnswering(body: unknown) {
  const fetchImpl = vi.fn<(path: RequestInfo | URL, init?: RequestInit) => Promise<Response>>(async () => jsonResponse(200, body));
  return { fetchImpl, api: createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl }) };
}

describe("one account's ledger client", () => {
  it("sends every ledger call to the account's own path and leaves the other calls where they were", async () => {
    const { fetchImpl, api } = clientAnswering(NO_LEDGER);
    const savings = accountLedgerApi(api, 's1');
    await savings.getLedger();
    await savings.createLedger({ ledger: { startDate: isoDate('2027-01-01'), endDate: isoDate('2027-03-31'), currentBalance: 10 } });
    await savings.extendLedger({ endDate: isoDate('2027-06-30') });
    await savings.addTransaction({ date: isoDate('2027-01-02'), name: 'Cash', type: 'C', amount: 5 });
    await savings.deleteTransaction('row-9');
    expect(fetchImpl.mock.calls.map(([path, init]) => `${init?.method} ${String(path)}`)).toEqual([
      'GET /api/accounts/s1/ledger/retrieve-ledger',
      'POST /api/accounts/s1/ledger/create-ledger',
      'POST /api/accounts/s1/ledger/extend-ledger',
      'POST /api/accounts/s1/ledger/add-transaction',
      'DELETE /api/accounts/s1/ledger/transactions/row-9',
    ]);
    fetchImpl.mockClear();
    fetchImpl.mockResolvedValueOnce(jsonResponse(200, { deposits: [], totalDeposits: 0 }));
    await savings.getDeposits();
    expect(fetchImpl).toHaveBeenCalledWith('/api/deposits/retrieve-deposits', expect.anything());
  });

  it("names the account's own failure message, and the CSV and statement paths are its own", async () => {
    const at = accountEndpoints('s 1');
    expect(at('exportLedgerCsv')).toEqual({
      operation: 'exportLedgerCsv',
      method: 'GET',
      path: '/api/accounts/s%201/ledger/export.csv',
    });
    expect(at('previewStatement').path).toBe('/api/accounts/s%201/ledger/statements/preview');
    expect(at('importStatement').path).toBe('/api/accounts/s%201/ledger/statements/import');
    expect(at('updateTransaction').path).toBe('/api/accounts/s%201/ledger/update-transaction');
    expect(at('getForecast').path).toBe('/api/accounts/s%201/ledger/forecast');
    const fetchImpl = vi.fn(async () => jsonResponse(404, { error: { code: 'not_found', message: 'No such account.' } }));
    const api = createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl });
    await expect(accountLedgerApi(api, 'gone').getLedger()).rejects.toMatchObject({
      message: "Failed to get the account's ledger!",
      detail: 'No such account.',
    });
  });
});

describe("the accounts' calls", () => {
  it('lists, adds, renames, makes primary and deletes, decoding balances to cents', async () => {
    const { fetchImpl, api } = clientAnswering({ accounts: [SAVINGS] });
    const calls = accountsApi(api);
    await expect(calls.listAccounts()).resolves.toEqual({ accounts: [{ ...SAVINGS, currentBalance: 1250, pendingBalance: 1250 }] });
    fetchImpl.mockImplementation(async () => jsonResponse(200, SAVINGS));
    await calls.addAccount({ name: 'Savings', kind: 'SAVINGS' });
    await calls.renameAccount('s1', 'Rainy day');
    await calls.makePrimary('s1');
    fetchImpl.mockImplementation(async () => jsonResponse(200, { accounts: [] }));
    await calls.removeAccount('s1', 'Rainy day');
    expect(fetchImpl.mock.calls.map(([path, init]) => [init?.method, String(path), init?.body])).toEqual([
      ['GET', '/api/accounts', undefined],
      ['POST', '/api/accounts', JSON.stringify({ name: 'Savings', kind: 'SAVINGS' })],
      ['PATCH', '/api/accounts/s1', JSON.stringify({ name: 'Rainy day' })],
      ['PATCH', '/api/accounts/s1', JSON.stringify({ primary: true })],
      ['DELETE', '/api/accounts/s1', JSON.stringify({ confirm: 'Rainy day' })],
    ]);
  });
});

describe('a transfer (decision 0050)', () => {
  it("posts it to /api/transfers, answers From's ledger in cents, and offers to undo it in words", async () => {
    const ledger = {
      startDate: '2026-11-01',
      endDate: '2026-12-31',
      openingBalance: 500,
      currentBalance: 500,
      pendingBalance: 500,
      transactions: [
        {
          id: 'd1',
          date: '2026-11-25',
          name: 'Transfer to Savings',
          type: 'D',
          amount: 100,
          balance: 400,
          status: 'PENDING',
          source: null,
          transfer: { id: 'c1', accountId: 's1' },
        },
      ],
    };
    const onUndoable = vi.fn();
    const fetchImpl = vi.fn<(path: RequestInfo | URL, init?: RequestInit) => Promise<Response>>(
      async () =>
        new Response(JSON.stringify({ ledger }), {
          status: 200,
          headers: { 'content-type': 'application/json', 'leftover-undo': 'tok-9' },
        }),
    );
    const calls = accountsApi(createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), onUndoable, fetchImpl }));
    const transfer = { fromAccountId: 'k1', toAccountId: 's1', date: isoDate('2026-11-25'), amount: 100, name: 'Transfer to Savings' };
    const answer = await calls.addTransfer(transfer);
    expect(fetchImpl.mock.calls.map(([path, init]) => [init?.method, String(path), init?.body])).toEqual([
      ['POST', '/api/transfers', JSON.stringify(transfer)],
    ]);
    expect(answer.ledger?.transactions[0]).toMatchObject({ amount: 10_000, balance: 40_000, transfer: { id: 'c1', accountId: 's1' } });
    expect(onUndoable).toHaveBeenCalledExactlyOnceWith('tok-9', 'Added Transfer to Savings.');
  });
});
