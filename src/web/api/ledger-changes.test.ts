/**
 * A changes answer applied to the ledger the page holds: it lands exactly where the whole ledger
 * would, and anything that does not fit (another version, a wrong position, balances that do not
 * add up) is refused so the page reloads. The same sequences against a real server are in
 * tests/api/ledger-changes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type Ledger, ledgerEtag, type LedgerTransaction } from '../../contract/ledger.js';
import type { LedgerChanges } from '../../contract/ledger-changes.js';
import { applyLedgerChanges } from './ledger-changes.js';
import { noteLedgerVersion } from './ledger-version.js';

const row = (
  id: string,
  date: string,
  name: string,
  type: 'C' | 'D',
  amount: number,
  balance: number,
  status = 'PENDING',
): LedgerTransaction => ({
  id,
  date,
  name,
  type,
  amount,
  balance,
  status: status as LedgerTransaction['status'],
  source: null,
});

/** Opening $100; a $1,000 paycheck, $700 rent and $50 phone, all PENDING. */
function held(version = 'L.3'): Ledger {
  const ledger: Ledger = {
    startDate: '2031-01-01',
    endDate: '2031-01-31',
    openingBalance: 100,
    currentBalance: 100,
    pendingBalance: 100,
    transactions: [
      row('pay', '2031-01-02', 'Acme Paycheck', 'C', 1000, 1100),
      row('rent', '2031-01-03', 'Rent', 'D', 700, 400),
      row('phone', '2031-01-09', 'Phone', 'D', 50, 350),
    ],
  };
  noteLedgerVersion(ledger, ledgerEtag(version));
  return ledger;
}

function changes(fields: Partial<LedgerChanges>): LedgerChanges {
  return {
    basedOn: 'L.3',
    version: 'L.4',
    startDate: '2031-01-01',
    endDate: '2031-01-31',
    openingBalance: 100,
    currentBalance: 100,
    pendingBalance: 100,
    count: 3,
    rows: [],
    removed: [],
    ...fields,
  };
}

describe('applyLedgerChanges', () => {
  it('pays a row: its status and the pending balance change, every other row keeps its object', () => {
    const before = held();
    const after = applyLedgerChanges(
      before,
      changes({ pendingBalance: -600, rows: [{ ...row('rent', '2031-01-03', 'Rent', 'D', 700, 400, 'PAID'), position: 1 }] }),
    );
    expect(after?.pendingBalance).toBe(-600);
    expect(after?.transactions.map((transaction) => transaction.status)).toEqual(['PENDING', 'PAID', 'PENDING']);
    expect(after?.transactions[0]).toBe(before.transactions[0]);
    expect(after?.transactions[2]).toBe(before.transactions[2]);
  });

  it('moves an edited row to its new place and recomputes every running balance after it', () => {
    const after = applyLedgerChanges(held(), changes({ rows: [{ ...row('rent', '2031-01-10', 'Rent', 'D', 750, 300), position: 2 }] }));
    expect(after?.transactions.map((transaction) => [transaction.id, transaction.balance])).toEqual([
      ['pay', 1100],
      ['phone', 1050],
      ['rent', 300],
    ]);
  });

  it('adds and removes rows', () => {
    const added = applyLedgerChanges(
      held(),
      changes({ count: 4, rows: [{ ...row('cash', '2031-01-01', 'Cash', 'C', 20, 120), position: 0 }] }),
    );
    expect(added?.transactions.map((transaction) => transaction.balance)).toEqual([120, 1120, 420, 370]);
    const removed = applyLedgerChanges(held(), changes({ count: 2, removed: ['pay'] }));
    expect(removed?.transactions.map((transaction) => [transaction.id, transaction.balance])).toEqual([
      ['rent', -600],
      ['phone', -650],
    ]);
  });

  it('the result holds the new version: the next changes apply to it, the same ones again do not', () => {
    const paid = changes({ pendingBalance: -600, rows: [{ ...row('rent', '2031-01-03', 'Rent', 'D', 700, 400, 'PAID'), position: 1 }] });
    const after = applyLedgerChanges(held(), paid);
    expect(after).not.toBeNull();
    if (after === null) return;
    expect(applyLedgerChanges(after, paid)).toBeNull();
    const cleared = changes({
      basedOn: 'L.4',
      version: 'L.5',
      currentBalance: -600,
      pendingBalance: -600,
      rows: [{ ...row('rent', '2031-01-03', 'Rent', 'D', 700, 400, 'CLEARED'), position: 1 }],
    });
    expect(applyLedgerChanges(after, cleared)?.currentBalance).toBe(-600);
  });

  it('refuses changes based on another version, or on a ledger whose version it never learned', () => {
    expect(applyLedgerChanges(held('L.2'), changes({}))).toBeNull();
    const unknown: Ledger = { ...held(), transactions: [...held().transactions] };
    expect(applyLedgerChanges(unknown, changes({}))).toBeNull();
  });

  it('refuses changes that do not add up: a wrong count, a position past the end, balances or an order the rows do not give', () => {
    expect(applyLedgerChanges(held(), changes({ count: 4 }))).toBeNull();
    expect(
      applyLedgerChanges(held(), changes({ rows: [{ ...row('rent', '2031-01-03', 'Rent', 'D', 700, 400), position: 7 }] })),
    ).toBeNull();
    expect(applyLedgerChanges(held(), changes({ pendingBalance: -600 }))).toBeNull();
    expect(
      applyLedgerChanges(held(), changes({ rows: [{ ...row('rent', '2031-01-03', 'Rent', 'D', 700, 999), position: 1 }] })),
    ).toBeNull();
    // Rent dated after Phone but placed before it: not the row order the domain gives.
    expect(
      applyLedgerChanges(held(), changes({ rows: [{ ...row('rent', '2031-01-20', 'Rent', 'D', 700, 400), position: 1 }] })),
    ).toBeNull();
  });
});
