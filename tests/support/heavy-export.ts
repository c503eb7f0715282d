/**
 * The export document of a heavy user, restored by the reliability tests that time another user
 * beside them: 100 bi-weekly paychecks (the deposit limit) and 115 monthly bills, about 20,000
 * ledger rows over five years once extended.
 */
import { MAX_DEPOSITS } from '../../src/domain/limits.js';

const BILLS = 115;

function id(index: number): string {
  return `0190a1b2-c3d4-7e5f-8a6b-${index.toString(16).padStart(12, '0')}`;
}

export function heavySchedulesDocument() {
  const createdAt = '2026-11-01T09:00:00.000Z';
  return {
    format: 'leftover-export',
    version: 1,
    exportedAt: '2026-11-21T12:00:00.000Z',
    deposits: Array.from({ length: MAX_DEPOSITS }, (_, index) => ({
      name: `Pay ${index}`,
      type: 'Direct Deposit',
      day: 'Friday',
      amount: 1000,
      startDate: '2026-11-20',
      frequency: 'BW',
      id: id(index + 1),
      createdAt,
    })),
    expenses: Array.from({ length: BILLS }, (_, index) => ({
      name: `Bill ${index}`,
      type: 'Housing',
      day: 1 + (index % 28),
      amount: 10,
      frequency: 'M',
      startDate: null,
      endDate: null,
      id: id(1000 + index),
      createdAt,
    })),
    ledger: null,
  };
}
