/**
 * What the bank says of a synced row (issue 37, decision 0084): "Pending at the bank" or "No longer
 * at the bank" beside its status, in the table and in the compact list; a row the bank wrote or
 * matched can be deleted whatever its status; one no longer at the bank is no bill of its pay period.
 */
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerTransaction } from '../../../../contract/ledger.js';
import { ledgerInfo, renderLedger, setWindowWidth, transaction } from '../ledger-test-support.js';

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

/** Opening $2,000.00: a hand-entered bill, a posted grocery run, a pending coffee, and a hotel hold the bank dropped. */
function rows(): LedgerTransaction[] {
  return [
    transaction({ id: 'gym', date: '2026-03-02', name: 'Gym', type: 'D', amount: 30, balance: 1970, status: 'CLEARED' }),
    transaction({
      id: 'market',
      date: '2026-03-03',
      name: 'FRESH MARKET',
      type: 'D',
      amount: 82.17,
      balance: 1887.83,
      status: 'CLEARED',
      fromBank: true,
    }),
    transaction({
      id: 'coffee',
      date: '2026-03-04',
      name: 'CORNER COFFEE',
      type: 'D',
      amount: 4.5,
      balance: 1883.33,
      status: 'PAID',
      bankBadge: 'Pending at the bank',
      fromBank: true,
    }),
    // Counted in no balance: its running balance is the row's before it.
    transaction({
      id: 'hotel',
      date: '2026-03-05',
      name: 'HOTEL HOLD',
      type: 'D',
      amount: 150,
      balance: 1883.33,
      status: 'PAID',
      bankBadge: 'No longer at the bank',
      fromBank: true,
    }),
  ];
}

const LEDGER = { currentBalance: 1887.83, pendingBalance: 1883.33 };

function rowOf(name: string): HTMLElement {
  const row = screen.getByRole('cell', { name: new RegExp(`^${name}`) }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

describe('bank badges in the ledger rows', () => {
  it('say "Pending at the bank" and "No longer at the bank" beside the status in the table, and nothing on other rows', () => {
    renderLedger(ledgerInfo(rows(), LEDGER));
    expect(within(rowOf('CORNER COFFEE')).getByText('Pending at the bank')).toBeVisible();
    expect(within(rowOf('HOTEL HOLD')).getByText('No longer at the bank')).toBeVisible();
    expect(within(rowOf('HOTEL HOLD')).queryByText('Pending at the bank')).toBeNull();
    for (const name of ['Gym', 'FRESH MARKET']) {
      expect(within(rowOf(name)).queryByText(/at the bank/)).toBeNull();
    }
    expect(within(rowOf('CORNER COFFEE')).getAllByRole('cell')[1]).toHaveTextContent('CORNER COFFEE ✓Paid Pending at the bank');
  });

  it('say the same in the compact rows', () => {
    setWindowWidth(800);
    renderLedger(ledgerInfo(rows(), LEDGER));
    const items = within(screen.getByRole('list', { name: 'Transactions' })).getAllByRole('listitem');
    const itemOf = (name: string) => {
      const found = items.find((item) => item.textContent?.startsWith(name));
      if (!found) throw new Error(`no item for ${name}`);
      return found;
    };
    expect(within(itemOf('CORNER COFFEE')).getByText('Pending at the bank')).toBeVisible();
    expect(within(itemOf('HOTEL HOLD')).getByText('No longer at the bank')).toBeVisible();
    expect(within(itemOf('Gym')).queryByText(/at the bank/)).toBeNull();
  });

  it('enable Delete on every row the bank wrote or matched, whatever its status, and only on unpaid rows otherwise', () => {
    renderLedger(ledgerInfo(rows(), LEDGER));
    const deletable = (name: string) => screen.getByRole('button', { name: `Delete ${name}` }).matches(':enabled');
    expect(['Gym', 'FRESH MARKET', 'CORNER COFFEE', 'HOTEL HOLD'].map(deletable)).toEqual([false, true, true, true]);
  });

  it("leave a row no longer at the bank out of its pay period's bills", () => {
    renderLedger(ledgerInfo(rows(), LEDGER));
    const [line] = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    // $30.00 + $82.17 + $4.50: the $150.00 hold is no bill.
    expect(line).toContain('Out $116.67');
    expect(line).toContain('Lowest $1,883.33');
  });
});
