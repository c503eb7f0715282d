import { describe, expect, it } from 'vitest';
import { API_PREFIX, ENDPOINTS } from './common.js';
import { ENDPOINT_SCHEMAS, endpointRows } from './endpoints.js';

describe('the endpoint table', () => {
  const rows = endpointRows();

  it('has schemas for every row it names, and for no other', () => {
    expect(Object.keys(ENDPOINT_SCHEMAS).sort()).toEqual(Object.keys(ENDPOINTS).sort());
    expect(rows.map((row) => row.operation)).toEqual(Object.keys(ENDPOINTS));
  });

  it('names each call once, under the API prefix', () => {
    const calls = rows.map((row) => `${row.method} ${row.path}`);
    expect(new Set(calls).size).toBe(calls.length);
    for (const row of rows) expect(row.path, row.operation).toMatch(new RegExp(`^${API_PREFIX}/[a-z0-9./:-]+$`));
  });

  it('checks the id of every path that names a row, and takes no body on a read', () => {
    for (const row of rows) {
      expect(row.params !== undefined, row.operation).toBe(row.path.includes(':id'));
      if (row.method === 'GET') expect(row.body, row.operation).toBeUndefined();
    }
  });

  it('gives every call its own failure message, as SPEC.md section 8 words them', () => {
    const messages = rows.map((row) => row.failure);
    expect(new Set(messages).size).toBe(messages.length);
    for (const message of messages) expect(message).toMatch(/^Failed to .+!$/);
  });
});
