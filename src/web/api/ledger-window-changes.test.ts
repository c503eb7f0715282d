/**
 * A window of the ledger (decision 0053) and a write's changes: the page takes in a Pay or a Clear of
 * a row it holds, and reads the same window again for anything else (an edit, an add, a delete,
 * changes based on another version), never applying what it cannot check.
 */
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { LedgerChangesView } from '../../contract/ledger-changes-codec.js';
import type { LedgerWindowView } from '../../contract/ledger-window-codec.js';
import { addDays, isoDate } from '../../domain/calendar-date.js';
import type { LedgerRow } from '../../domain/ledger.js';
import { cents } from '../../domain/money.js';
import { changesAfter, type LedgerFieldsOf, ledgerWindowOf, wholeLedger } from '../test-support/ledger-windows.js';
import type { HeldLedgerInfo, LedgerRead } from './api-client.js';
import { applyWindowChanges, writeWithChanges } from './ledger-changes.js';
import { ledgerVersion, setLedgerVersion } from './ledger-version.js';
import { firstWindow } from './status-moves.js';

const START = isoDate('2027-01-01');
const FIELDS: LedgerFieldsOf = { startDate: START, endDate: addDays(START, 99), openingBalance: cents(100_00) };

/** 300 rows, three a day, all PENDING. */
const ROWS: LedgerRow[] = Array.from({ length: 300 }, (_, index) => ({
  id: `r${index}`,
  sequence: index + 1,
  date: addDays(START, Math.floor(index / 3)),
  name: `Bill ${index % 7}`,
  type: 'D',
  amount: cents(10_00 + index),
  status: 'PENDING',
  source: null,
}));

function windowOf(rows: readonly LedgerRow[], version: string): LedgerWindowView {
  return ledgerWindowOf(wholeLedger(FIELDS, rows, version), { from: 0, limit: 20 }, START, version);
}

/** The changes answer of a write that left `after` and changed the row `id`, based on version v5. */
function changesOf(after: readonly LedgerRow[], id: string | null, removed: string[] = []): LedgerChangesView {
  return changesAfter(FIELDS, after, id, { basedOn: 'v5', version: 'v6', removed });
}

function held(version: string): LedgerWindowView {
  return windowOf(ROWS, version);
}

describe('a window takes in a write’s changes', () => {
  it('takes in a Pay of a row it holds: that row moves, the balances are the server’s, the version the answer’s', () => {
    const paid = ROWS.map((row) => (row.id === 'r4' ? { ...row, status: 'PAID' as const } : row));
    const changes = changesOf(paid, 'r4');
    const window = held(changes.basedOn);
    const applied = applyWindowChanges(window, changes);
    expect(applied?.transactions).toEqual(windowOf(paid, 'v6').transactions);
    expect(applied?.pendingBalance).toBe(changes.pendingBalance);
    expect(applied && ledgerVersion(applied)).toBe(changes.version);
  });

  it('refuses an edit, an add, a delete, a Pay of a row it does not hold, and changes based on another version', () => {
    const edited = ROWS.map((row) => (row.id === 'r4' ? { ...row, amount: cents(1) } : row));
    const added: LedgerRow[] = [...ROWS, { ...(ROWS[0] as LedgerRow), id: 'new', sequence: 301 }];
    const deleted = ROWS.filter((row) => row.id !== 'r4');
    const paidFar = ROWS.map((row) => (row.id === 'r250' ? { ...row, status: 'PAID' as const } : row));
    const pay = changesOf(
      ROWS.map((row) => (row.id === 'r4' ? { ...row, status: 'PAID' as const } : row)),
      'r4',
    );
    for (const [changes, label] of [
      [changesOf(edited, 'r4'), 'edit'],
      [changesOf(added, 'new'), 'add'],
      [changesOf(deleted, null, ['r4']), 'delete'],
      [changesOf(paidFar, 'r250'), 'a row past the window'],
    ] as const) {
      expect(applyWindowChanges(held(changes.basedOn), changes), label).toBeNull();
    }
    expect(applyWindowChanges(held('another version'), pay)).toBeNull();
  });

  it('reads the same window again after changes it cannot take in, with no reload of the whole ledger', async () => {
    const edited = ROWS.map((row) => (row.id === 'r4' ? { ...row, amount: cents(1) } : row));
    const changes = changesOf(edited, 'r4');
    const again = windowOf(edited, 'v6');
    // The page's api client, as the window's read goes through it.
    const answers = [windowOf(ROWS, 'v5'), again];
    const request = vi.fn(async () => ({ window: answers.shift() }));
    const getLedger = vi.fn(async (read?: LedgerRead): Promise<HeldLedgerInfo> => {
      if (!read) throw new Error('the whole ledger was asked for');
      return read({ operation: 'getLedgerPrimary', method: 'GET', path: '/api/ledger/retrieve-ledger', answer: z.any() });
    });
    const api = { request, getLedger } as unknown as Parameters<typeof firstWindow>[0];
    const first = await getLedger(firstWindow(api, START));
    if (!('window' in first)) throw new Error('expected a window');
    setLedgerVersion(first.window, changes.basedOn);
    const reload = vi.fn(async (): Promise<HeldLedgerInfo> => {
      throw new Error('the whole ledger was reloaded');
    });
    const answer = await writeWithChanges(
      async () => ({ changes }),
      () => first.window,
      reload,
    );
    expect(answer).toEqual({ window: again });
    expect(reload).not.toHaveBeenCalled();
    expect(request).toHaveBeenCalledTimes(2);
    // The same request both times: the same window, from the first row, on the same day.
    const sent = request.mock.calls.map((call: unknown[]) => {
      const { operation, method, path } = call[0] as { operation: string; method: string; path: string };
      return { operation, method, path };
    });
    expect(sent).toEqual([
      { operation: 'getLedgerPrimary', method: 'GET', path: '/api/ledger/retrieve-ledger?limit=100&today=2027-01-01' },
      { operation: 'getLedgerPrimary', method: 'GET', path: '/api/ledger/retrieve-ledger?limit=100&today=2027-01-01' },
    ]);
  });
});
