import { describe, expect, it } from 'vitest';
import type { TransactionStatus } from '../../../../domain/ledger.js';
import { filterByStatus, filterKeyOf, SHOW_ALL_STATUSES, STATUS_FILTER_OPTIONS, withStatusShown } from './status-filter.js';

const rows: { id: string; status: TransactionStatus }[] = [
  { id: 'a', status: 'PENDING' },
  { id: 'b', status: 'PAID' },
  { id: 'c', status: 'CLEARED' },
  { id: 'd', status: 'PENDING' },
];

const idsOf = (shown: readonly { id: string }[]) => shown.map((row) => row.id);

describe('status filter', () => {
  it('shows every status by default, answering the same array', () => {
    expect(SHOW_ALL_STATUSES).toEqual({ pending: true, paid: true, cleared: true });
    expect(filterByStatus(rows, SHOW_ALL_STATUSES)).toBe(rows);
  });

  it('keys each status by its lowercase name', () => {
    expect(filterKeyOf('PENDING')).toBe('pending');
    expect(filterKeyOf('PAID')).toBe('paid');
    expect(filterKeyOf('CLEARED')).toBe('cleared');
  });

  it('lets "Not Cleared" drive the pending rows', () => {
    expect(STATUS_FILTER_OPTIONS).toEqual([
      { key: 'pending', label: 'Not Cleared' },
      { key: 'paid', label: 'Paid' },
      { key: 'cleared', label: 'Cleared' },
    ]);
    expect(idsOf(filterByStatus(rows, withStatusShown(SHOW_ALL_STATUSES, 'pending', false)))).toEqual(['b', 'c']);
  });

  it('hides paid and cleared rows independently, keeping row order', () => {
    expect(idsOf(filterByStatus(rows, withStatusShown(SHOW_ALL_STATUSES, 'paid', false)))).toEqual(['a', 'c', 'd']);
    expect(idsOf(filterByStatus(rows, withStatusShown(SHOW_ALL_STATUSES, 'cleared', false)))).toEqual(['a', 'b', 'd']);
    expect(filterByStatus(rows, { pending: false, paid: false, cleared: false })).toEqual([]);
  });

  it('changes one key without touching the filter it came from', () => {
    const changed = withStatusShown(SHOW_ALL_STATUSES, 'paid', false);
    expect(changed).toEqual({ pending: true, paid: false, cleared: true });
    expect(SHOW_ALL_STATUSES.paid).toBe(true);
  });
});
