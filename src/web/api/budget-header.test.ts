/**
 * The budget in view travels in the `Leftover-Budget` header of every call (issue 38, decision
 * 0092): absent for the personal budget, so every call is sent as before; absent too on the
 * browser's time zone at sign-in, which is the person's. A 404 "No such budget." for a call that
 * named the budget tells the page the user is no longer its member. Only fetch is stubbed.
 */
import { describe, expect, it, vi } from 'vitest';
import { BUDGET_HEADER as CONTRACT_BUDGET_HEADER } from '../../contract/budgets.js';
import { createApiClient } from './api-client.js';
import { BUDGET_HEADER } from './budget-header.js';
import { budgetsApi } from './budget-calls.js';
import { sendEarlyCalls } from './early-calls.js';
import { settingsApi } from './settings-calls.js';

type Fetch = (path: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

function answering(status: number, body: unknown) {
  return vi.fn<Fetch>(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

const DEPOSITS = { deposits: [], totalDeposits: 0 };

/** The budget header each call was sent with, or null. */
function budgetHeaders(fetchImpl: ReturnType<typeof answering>): (string | null)[] {
  return fetchImpl.mock.calls.map(([, init]) => new Headers(init?.headers).get('Leftover-Budget'));
}

describe('the budget header', () => {
  it('is absent for the personal budget, so every call goes as it did', async () => {
    const fetchImpl = answering(200, DEPOSITS);
    const client = createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl });
    await client.getDeposits();
    expect(budgetHeaders(fetchImpl)).toEqual([null]);
    expect(Object.keys(fetchImpl.mock.calls[0]?.[1]?.headers ?? {})).toEqual(['accept', 'authorization']);
  });

  it("names the budget in view on every call, reads and writes, the table's and the lazy ones", async () => {
    const fetchImpl = answering(200, DEPOSITS);
    const client = createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl, budget: 'b-household' });
    await client.getDeposits();
    await client.deleteDeposit('d1', 'Pay');
    await settingsApi(client)
      .updateBuffer(50)
      .catch(() => undefined);
    expect(budgetHeaders(fetchImpl)).toEqual(['b-household', 'b-household', 'b-household']);
  });

  it("leaves it out of the browser's time zone at sign-in, and keeps it on a zone chosen in Settings", async () => {
    const fetchImpl = answering(200, { subject: 's', timeZone: 'Pacific/Niue', buffer: 0, everydaySpending: null });
    const settings = settingsApi(createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl, budget: 'b-household' }));
    await settings.updateTimeZone('Pacific/Niue', true).catch(() => undefined);
    await settings.updateTimeZone('Pacific/Niue').catch(() => undefined);
    expect(budgetHeaders(fetchImpl)).toEqual([null, 'b-household']);
  });

  it('says the budget is gone on a 404 "No such budget." for a call that named it, and on no other 404', async () => {
    const onBudgetGone = vi.fn();
    const gone = answering(404, { error: { code: 'not_found', message: 'No such budget.' } });
    const client = createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl: gone, budget: 'b1', onBudgetGone });
    await expect(client.getDeposits()).rejects.toMatchObject({ status: 404, detail: 'No such budget.' });
    expect(onBudgetGone).toHaveBeenCalledOnce();

    const otherMissing = answering(404, { error: { code: 'not_found', message: 'No such deposit.' } });
    const other = createApiClient({
      getAccessToken: () => 't',
      onUnauthorized: vi.fn(),
      fetchImpl: otherMissing,
      budget: 'b1',
      onBudgetGone,
    });
    await expect(other.deleteDeposit('d9')).rejects.toMatchObject({ status: 404 });
    const personal = createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl: gone, onBudgetGone });
    await expect(personal.getDeposits()).rejects.toMatchObject({ status: 404 });
    expect(onBudgetGone).toHaveBeenCalledOnce();
  });

  it("sends the budget's calls to the paths that name it, and the token only in a body", async () => {
    const fetchImpl = answering(200, { members: [] });
    const api = budgetsApi(createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl }));
    await api.listMembers('b 1');
    await api.removeMember('b1', 'm1').catch(() => undefined);
    await api.revokeInvitation('b1', 'i1').catch(() => undefined);
    await api.createInvitation('b1', 'EDITOR').catch(() => undefined);
    await api.viewInvitation('T'.repeat(32)).catch(() => undefined);
    expect(fetchImpl.mock.calls.map(([path, init]) => `${init?.method} ${String(path)} ${String(init?.body)}`)).toEqual([
      'GET /api/budgets/b%201/members undefined',
      'DELETE /api/budgets/b1/members/m1 undefined',
      'DELETE /api/budgets/b1/invitations/i1 undefined',
      'POST /api/budgets/b1/invitations {"role":"EDITOR"}',
      `POST /api/invitations/view {"token":"${'T'.repeat(32)}"}`,
    ]);
  });

  it("sends an early call with the budget, and the personal budget's call never takes its answer for the budget it was sent for", async () => {
    const early = answering(200, DEPOSITS);
    sendEarlyCalls('tok', ['/api/deposits/retrieve-deposits'], early, 'b-household');
    expect(budgetHeaders(early)).toEqual(['b-household']);
    const later = answering(200, DEPOSITS);
    const personal = createApiClient({ getAccessToken: () => 'tok', onUnauthorized: vi.fn(), fetchImpl: later });
    await personal.getDeposits();
    // The personal budget's call went to the server: the early answer was Household's.
    expect(later).toHaveBeenCalledOnce();
  });
});

describe("the header's name", () => {
  it("is the contract's", () => {
    expect(BUDGET_HEADER).toBe(CONTRACT_BUDGET_HEADER);
  });
});
