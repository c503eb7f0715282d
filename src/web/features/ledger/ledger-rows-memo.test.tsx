/**
 * A five-year ledger holds about 1,800 rows. Each server answer brings fresh row objects, so this
 * checks that rows compare by value: paying or filtering renders only the rows that changed.
 */
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerInfo, LedgerTransaction } from '../../../contract/ledger.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { fakeApiClient } from '../../test-support/fake-api-client.js';
import { LedgerSection } from './ledger-section.js';
import { formatUsdDollars } from '../../../domain/money.js';
import { ledgerInfo, renderLedger, setWindowWidth, transaction } from './ledger-test-support.js';

// Every rendered row formats its amount and balance, so the number of calls counts row renders.
vi.mock(import('../../../domain/money.js'), async (importOriginal) => {
  const original = await importOriginal();
  return { ...original, formatUsdDollars: vi.fn(original.formatUsdDollars) };
});
const formatCalls = vi.mocked(formatUsdDollars);

const FIVE_YEARS_OF_ROWS = 1800;
const HEADER_BALANCES = 2;
const FORMATS_PER_ROW = 2;

function ledgerRows(count: number): LedgerTransaction[] {
  return Array.from({ length: count }, (_, index) =>
    transaction({ id: `row-${index}`, name: `Bill ${index}`, amount: 10 + index, balance: 5000 - index, status: index % 3 === 0 ? 'PAID' : 'PENDING' }),
  );
}

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

describe('ledger rows of a five-year ledger', () => {
  it('renders only the paid row again when the answer replaces every row object', async () => {
    const rows = ledgerRows(FIVE_YEARS_OF_ROWS);
    const view = renderLedger(ledgerInfo(rows));
    expect(screen.getByText('1,800 transactions.')).toBeInTheDocument();

    formatCalls.mockClear();
    const answer = rows.map((row) => ({ ...row, status: row.id === 'row-1' ? ('PAID' as const) : row.status }));
    view.rerender(ledgerInfo(answer));

    expect(formatCalls).toHaveBeenCalledTimes(HEADER_BALANCES + FORMATS_PER_ROW);
    // Role queries over 5,400 buttons take seconds in jsdom: find the row by its text first.
    const paidRow = screen.getByText('Bill 1', { exact: true }).closest('tr');
    expect(within(paidRow ?? document.body).getByRole('button', { name: 'Pay Bill 1' })).toBeDisabled();
  });

  // Fewer rows here: finding the Filter button by name walks every row button, slow in jsdom.
  it('renders no row, nor the balances, again when the filter only hides rows', async () => {
    const user = userEvent.setup();
    renderLedger(ledgerInfo(ledgerRows(300)));
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filter By' });

    formatCalls.mockClear();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Paid' }));

    expect(screen.getByText('Showing 200 of 300 transactions.')).toBeInTheDocument();
    expect(formatCalls).not.toHaveBeenCalled();
  });

  it('renders nothing again when the shell passes fresh callbacks on every render', () => {
    const api = fakeApiClient();
    const info = ledgerInfo(ledgerRows(300));
    // Arrow functions written inline, as a parent component might.
    const section = (current: LedgerInfo) => (
      <ApiClientProvider client={api}>
        <LedgerSection info={current} onChange={() => undefined} onError={() => undefined} onRefresh={() => Promise.resolve()} />
      </ApiClientProvider>
    );
    const view = render(section(info));

    formatCalls.mockClear();
    view.rerender(section(info));

    expect(formatCalls).not.toHaveBeenCalled();
  });
});
