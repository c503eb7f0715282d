/**
 * Settings' calls over the real api client with only fetch stubbed: PATCH /api/me sets three
 * things, and a failed save names the setting it was saving, never another one's words.
 */
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client.js';
import { settingsApi } from './settings-calls.js';

function failingWith(status: number, body: unknown) {
  const fetchImpl = vi.fn<(path: RequestInfo | URL, init?: RequestInit) => Promise<Response>>(
    async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  return { fetchImpl, api: settingsApi(createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl })) };
}

const REFUSED = { error: { code: 'bad_request', message: 'Some fields need attention.', fields: { buffer: 'Too much.' } } };

describe('PATCH /api/me from Settings', () => {
  it('names the setting a failed save was saving: the time zone, Keep at least, everyday spending', async () => {
    const { fetchImpl, api } = failingWith(400, REFUSED);
    await expect(api.updateTimeZone('Pacific/Niue')).rejects.toMatchObject({ message: 'Failed to save your time zone!' });
    await expect(api.updateBuffer(2_000_000)).rejects.toMatchObject({
      message: 'Failed to save Keep at least!',
      detail: 'Some fields need attention.',
      fields: { buffer: 'Too much.' },
    });
    await expect(api.updateEveryday({ weekly: 90 })).rejects.toMatchObject({ message: 'Failed to save everyday spending!' });
    await expect(api.updateEveryday(null)).rejects.toMatchObject({ message: 'Failed to save everyday spending!' });
    expect(fetchImpl.mock.calls.map(([path, init]) => `${init?.method} ${String(path)} ${String(init?.body)}`)).toEqual([
      'PATCH /api/me {"timeZone":"Pacific/Niue"}',
      'PATCH /api/me {"buffer":2000000}',
      'PATCH /api/me {"everydaySpending":{"weekly":90}}',
      'PATCH /api/me {"everydaySpending":null}',
    ]);
  });

  it('names the setting when the server cannot be reached', async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const api = settingsApi(createApiClient({ getAccessToken: () => 't', onUnauthorized: vi.fn(), fetchImpl }));
    await expect(api.updateBuffer(50)).rejects.toMatchObject({
      message: 'Failed to save Keep at least!',
      detail: 'The server could not be reached. Check your connection and try again.',
    });
  });
});
