/**
 * The bank connections' calls over the real api client with only fetch stubbed: each goes to the
 * issue's path with the issue's body, a bridge account id stays one path segment, balances arrive
 * as Cents, and a refused Sync now says the server's own words after the call's.
 */
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client.js';
import { bankApi } from './bank-calls.js';

const CONNECTION = {
  id: 'conn-1',
  yours: true,
  madeBy: 'Sam',
  status: { state: 'Connected', reason: null, scheduled: true },
  lastSync: null,
  accounts: [
    { id: 'ACT/9 1234', institution: 'Simple Bank', name: 'Checking', last4: '1234', balance: 100.5, currency: 'USD', accountId: null },
  ],
};

function answering(status: number, body: unknown) {
  const fetchImpl = vi.fn<(path: RequestInfo | URL, init?: RequestInit) => Promise<Response>>(
    async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  return { fetchImpl, api: bankApi(createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl })) };
}

const sent = (fetchImpl: ReturnType<typeof answering>['fetchImpl']) =>
  fetchImpl.mock.calls.map(([path, init]) => `${init?.method} ${String(path)} ${String(init?.body)}`);

describe('the bank connections calls', () => {
  it('sends each call to its path and decodes the balances into cents', async () => {
    const { fetchImpl, api } = answering(200, CONNECTION);
    const connected = await api.connect('aHR0cHM6Ly9icmlkZ2U=');
    expect(connected.accounts[0]?.balance).toBe(10050);
    await api.linkAccount('conn-1', 'ACT/9 1234', { accountId: 'acc-1' });
    await api.linkAccount('conn-1', 'ACT/9 1234', { newAccount: { name: 'Checking', kind: 'CHECKING' } });
    await api.linkAccount('conn-1', 'ACT/9 1234', { accountId: null });
    expect(sent(fetchImpl)).toEqual([
      'POST /api/bank-connections {"setupToken":"aHR0cHM6Ly9icmlkZ2U="}',
      'PUT /api/bank-connections/conn-1/accounts/ACT%2F9%201234 {"accountId":"acc-1"}',
      'PUT /api/bank-connections/conn-1/accounts/ACT%2F9%201234 {"newAccount":{"name":"Checking","kind":"CHECKING"}}',
      'PUT /api/bank-connections/conn-1/accounts/ACT%2F9%201234 {"accountId":null}',
    ]);
  });

  it('lists, syncs and disconnects at the issue’s paths', async () => {
    const list = answering(200, { connections: [CONNECTION] });
    expect((await list.api.listConnections()).connections).toHaveLength(1);
    expect((await list.api.disconnect('conn-1')).connections).toHaveLength(1);
    const sync = answering(200, { added: 2, matched: 1, replaced: 0, flagged: 0, warnings: [] });
    expect(await sync.api.syncNow('conn-1')).toEqual({ added: 2, matched: 1, replaced: 0, flagged: 0, warnings: [] });
    expect([...sent(list.fetchImpl), ...sent(sync.fetchImpl)]).toEqual([
      'GET /api/bank-connections undefined',
      'DELETE /api/bank-connections/conn-1 undefined',
      'POST /api/bank-connections/conn-1/sync undefined',
    ]);
  });

  it("fails a refused Sync now with the call's words and the server's", async () => {
    const message = 'Sync now works once a minute for each connection. Try again in a minute.';
    const { api } = answering(429, { error: { code: 'too_many_requests', message } });
    await expect(api.syncNow('conn-1')).rejects.toMatchObject({ message: 'Failed to sync with the bank!', detail: message, status: 429 });
  });
});
