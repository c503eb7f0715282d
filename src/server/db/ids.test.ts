import { describe, expect, it } from 'vitest';
import { idSchema } from '../../contract/common.js';
import { ROW_ID } from '../../../tests/support/api-expectations.js';
import { newId } from './ids.js';

describe('row ids', () => {
  it('are version 7 UUIDs the API accepts as ids', () => {
    const id = newId();
    expect(id).toMatch(ROW_ID);
    expect(idSchema.safeParse(id).success).toBe(true);
  });

  it('carry the creation time in their first 48 bits, so later ids sort after earlier ones', () => {
    const at = Date.UTC(2026, 10, 21, 12, 0, 0, 123);
    const id = newId(at);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    expect(newId(at - 1) < id).toBe(true);
    expect(id < newId(at + 1)).toBe(true);
  });

  it('differ within one millisecond', () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 10_000 }, () => newId(at)));
    expect(ids.size).toBe(10_000);
  });
});
