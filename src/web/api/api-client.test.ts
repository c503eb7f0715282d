import { describe, expect, it, vi } from 'vitest';
import { isoDate } from '../../domain/calendar-date.js';
import { ApiCallError, createApiClient } from './api-client.js';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('api client', () => {
  it('sends the access token and checks the answer against the contract', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(200, { deposits: [], totalDeposits: 0 }));
    const client = createApiClient({ getAccessToken: () => 'token-123', onUnauthorized: vi.fn(), fetchImpl });
    await expect(client.getDeposits()).resolves.toEqual({ deposits: [], totalDeposits: 0 });
    expect(fetchImpl).toHaveBeenCalledWith(
      '/api/deposits/retrieve-deposits',
      expect.objectContaining({ method: 'GET', headers: expect.objectContaining({ authorization: 'Bearer token-123' }) }),
    );
  });

  it('turns a refusal into the catalogue message plus the server message and fields', async () => {
    const fetchImpl = vi.fn(async () =>
      jsonResponse(400, {
        error: { code: 'bad_request', message: 'Some fields need attention.', fields: { amount: 'Amount must be greater than 0.' } },
      }),
    );
    const client = createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl });
    const failure = await client
      .addDeposit({ name: 'Pay', type: 'Check', day: 'N/A', amount: 0, startDate: isoDate('2026-11-30'), frequency: 'EOM' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiCallError);
    expect(failure).toMatchObject({
      message: 'Failed to add deposit!',
      status: 400,
      detail: 'Some fields need attention.',
      fields: { amount: 'Amount must be greater than 0.' },
    });
  });

  it('sends the user to sign in again on 401', async () => {
    const onUnauthorized = vi.fn();
    const fetchImpl = vi.fn(async () => jsonResponse(401, { error: { code: 'unauthorized', message: 'The access token has expired.' } }));
    const client = createApiClient({ getAccessToken: () => 't', onUnauthorized, fetchImpl });
    await expect(client.getLedger()).rejects.toMatchObject({ message: 'Failed to get ledger!' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('says when the server cannot be reached or answers something unexpected', async () => {
    const offline = createApiClient({
      getAccessToken: () => 't',
      onUnauthorized: vi.fn(),
      fetchImpl: vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    });
    await expect(offline.getExpenses()).rejects.toMatchObject({ message: 'Failed to get expenses!', status: 0 });
    const odd = createApiClient({
      getAccessToken: () => 't',
      onUnauthorized: vi.fn(),
      fetchImpl: vi.fn(async () => jsonResponse(200, { nope: true })),
    });
    await expect(odd.getExpenses()).rejects.toMatchObject({ detail: 'The server answered something unexpected.' });
    // Amounts are whole cents: a third decimal is refused at the edge, never formatted by a view.
    const fractional = createApiClient({
      getAccessToken: () => 't',
      onUnauthorized: vi.fn(),
      fetchImpl: vi.fn(async () => jsonResponse(200, { expenses: [], totalExpenses: 12.345 })),
    });
    await expect(fractional.getExpenses()).rejects.toMatchObject({ detail: 'The server answered something unexpected.' });
  });

  it('counts every call for the spinner, failed ones too', async () => {
    const onCallStart = vi.fn();
    const onCallEnd = vi.fn();
    const client = createApiClient({
      getAccessToken: () => 't',
      onUnauthorized: vi.fn(),
      onCallStart,
      onCallEnd,
      fetchImpl: vi.fn(async () => jsonResponse(500, { error: { code: 'internal_error', message: 'x' } })),
    });
    await expect(client.getLedger()).rejects.toBeInstanceOf(ApiCallError);
    expect(onCallStart).toHaveBeenCalledOnce();
    expect(onCallEnd).toHaveBeenCalledOnce();
  });

  it('counts no call made in the background for the spinner, and sends it as any other (decision 0120)', async () => {
    const onCallStart = vi.fn();
    const onCallEnd = vi.fn();
    const fetchImpl = vi.fn(async () => jsonResponse(200, { deposits: [], totalDeposits: 0 }));
    const client = createApiClient({ getAccessToken: () => 'token-9', onUnauthorized: vi.fn(), onCallStart, onCallEnd, fetchImpl });
    const quietly = client.inBackground();
    await expect(quietly.getDeposits()).resolves.toEqual({ deposits: [], totalDeposits: 0 });
    expect(fetchImpl).toHaveBeenCalledWith(
      '/api/deposits/retrieve-deposits',
      expect.objectContaining({ headers: expect.objectContaining({ authorization: 'Bearer token-9' }) }),
    );
    expect(onCallStart).not.toHaveBeenCalled();
    expect(onCallEnd).not.toHaveBeenCalled();
    // The client it came from still counts its own calls.
    await client.getDeposits();
    expect(onCallStart).toHaveBeenCalledOnce();
    expect(onCallEnd).toHaveBeenCalledOnce();
  });

  it("hands a write's Leftover-Undo token to the page with what happened in words, and sends an undo with it", async () => {
    const onUndoable = vi.fn();
    const deposits = { deposits: [], totalDeposits: 0 };
    const fetchImpl = vi.fn(
      async () =>
        new Response(JSON.stringify(deposits), { status: 200, headers: { 'content-type': 'application/json', 'leftover-undo': 'tok-1' } }),
    );
    const client = createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), onUndoable, fetchImpl });

    await client.deleteDeposit('d1', 'Paycheck');
    expect(onUndoable).toHaveBeenCalledExactlyOnceWith('tok-1', 'Deleted Paycheck.');
    await client.addDeposit({ name: 'Acme', type: 'Check', day: 'N/A', amount: 10, startDate: isoDate('2026-11-30'), frequency: 'EOM' });
    expect(onUndoable).toHaveBeenLastCalledWith('tok-1', 'Added Acme.');

    await expect(client.undo('tok-1')).resolves.toEqual(deposits);
    expect(fetchImpl).toHaveBeenLastCalledWith(
      '/api/undo',
      expect.objectContaining({ method: 'POST', body: JSON.stringify({ token: 'tok-1' }) }),
    );
    // An undo is not itself offered again, and a read never is.
    await client.getDeposits();
    expect(onUndoable).toHaveBeenCalledTimes(2);
  });
});
