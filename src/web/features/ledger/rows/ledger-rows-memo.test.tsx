/**
 * A five-year ledger holds about 1,800 rows. Only the rows near the viewport are rendered, and
 * each server answer brings fresh row objects, so this checks that rows compare by value: paying
 * or filtering renders only the rendered rows that changed.
 */
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerInfoView } from '../../../../contract/codecs.js';
import type { LedgerTransaction } from '../../../../contract/ledger.js';
import { ApiClientProvider } from '../../../api/api-context.js';
import { ledgerForecast } from '../../../forecast/ledger-forecast.js';
import { fakeApiClient } from '../../../test-support/fake-api-client.js';
import { LedgerSection } from '../ledger-section.js';
import { formatLedgerMoney } from '../ledger-format.js';
import { afterNextFrame, ledgerInfo, NoImportStatementDialog, renderLedger, setWindowWidth, transaction } from '../ledger-test-support.js';
import { ESTIMATED_TABLE_ROW_HEIGHT } from './ledger-table.js';
import { ROW_OVERSCAN } from '../window/use-row-window.js';

// Every rendered row formats its amount and balance, so the number of calls counts row renders.
vi.mock(import('../ledger-format.js'), async (importOriginal) => {
  const original = await importOriginal();
  return { ...original, formatLedgerMoney: vi.fn(original.formatLedgerMoney) };
});
const formatCalls = vi.mocked(formatLedgerMoney);

const FIVE_YEARS_OF_ROWS = 1800;
const HEADER_BALANCES = 2;
const FORMATS_PER_ROW = 2;
// jsdom lays nothing out: the rows start at the viewport's top. The first frame holds the rows that
// fit in it; from the next frame on the window has the overscan below too (decision 0121).
const FIRST_FRAME_ROWS = Math.ceil(window.innerHeight / ESTIMATED_TABLE_ROW_HEIGHT);
const WINDOW_ROWS = FIRST_FRAME_ROWS + ROW_OVERSCAN;
/** The rows are in one pay period (none is a paycheck): its line comes first and takes a place in the window. */
const PERIOD_LINES = 1;

function ledgerRows(count: number, paid: (index: number) => boolean = (index) => index % 3 === 0): LedgerTransaction[] {
  return Array.from({ length: count }, (_, index) =>
    transaction({
      id: `row-${index}`,
      name: `Bill ${index}`,
      amount: 10 + index,
      balance: 5000 - index,
      status: paid(index) ? 'PAID' : 'PENDING',
    }),
  );
}

/** The rendered rows by name, each with its aria-rowindex. */
function renderedRows(): Map<string, string | null> {
  const rows = document.querySelectorAll('tbody tr.ledger-row[aria-rowindex]');
  return new Map([...rows].map((row) => [row.querySelector('.ledger-row__name')?.textContent ?? '', row.getAttribute('aria-rowindex')]));
}

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

describe('ledger rows of a five-year ledger', () => {
  it('renders the rows on screen first and the overscan in the next frame, each row once', async () => {
    renderLedger(ledgerInfo(ledgerRows(FIVE_YEARS_OF_ROWS)));
    expect(formatCalls).toHaveBeenCalledTimes(HEADER_BALANCES + FORMATS_PER_ROW * (FIRST_FRAME_ROWS - PERIOD_LINES));
    expect(renderedRows().size).toBe(FIRST_FRAME_ROWS - PERIOD_LINES);

    await afterNextFrame();
    expect(renderedRows().size).toBe(WINDOW_ROWS - PERIOD_LINES);
    // The rows of the first frame are not rendered again: only the overscan's are added.
    expect(formatCalls).toHaveBeenCalledTimes(HEADER_BALANCES + FORMATS_PER_ROW * (WINDOW_ROWS - PERIOD_LINES));
  });

  it('renders only a window of the rows, and tells assistive technology the whole size', async () => {
    renderLedger(ledgerInfo(ledgerRows(FIVE_YEARS_OF_ROWS)));
    await afterNextFrame();
    expect(screen.getByText('1,800 transactions.')).toBeInTheDocument();

    const table = screen.getByRole('table');
    expect(table).toHaveAttribute('aria-rowcount', String(1 + PERIOD_LINES + FIVE_YEARS_OF_ROWS));
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(1 + WINDOW_ROWS);
    // The header row is row 1; the period's line is row 2 and the rows follow without a gap.
    expect(rows.map((row) => row.getAttribute('aria-rowindex'))).toEqual(
      Array.from({ length: 1 + WINDOW_ROWS }, (_, index) => String(index + 1)),
    );
    expect(rows[1]).toHaveTextContent(/^Pay period /);
    expect(rows.at(-1)).toHaveTextContent(`Bill ${WINDOW_ROWS - PERIOD_LINES - 1}`);
    expect(screen.queryByText('Bill 1799')).toBeNull();

    // The rest of the rows is one spacer, hidden from assistive technology and holding nothing to focus.
    const spacers = table.querySelectorAll('tbody tr:not([aria-rowindex])');
    expect(spacers).toHaveLength(1);
    expect(spacers[0]).toHaveAttribute('aria-hidden', 'true');
    expect(spacers[0]?.querySelectorAll('button, a, input, [tabindex]')).toHaveLength(0);
    expect(spacers[0]?.querySelector('td')).toHaveStyle({
      height: `${(PERIOD_LINES + FIVE_YEARS_OF_ROWS - WINDOW_ROWS) * ESTIMATED_TABLE_ROW_HEIGHT}px`,
    });
  });

  it('renders only the paid row again when the answer replaces every row object', async () => {
    const rows = ledgerRows(FIVE_YEARS_OF_ROWS);
    const view = renderLedger(ledgerInfo(rows));

    formatCalls.mockClear();
    const answer = rows.map((row) => ({ ...row, status: row.id === 'row-1' ? ('PAID' as const) : row.status }));
    view.rerender(ledgerInfo(answer));

    expect(formatCalls).toHaveBeenCalledTimes(HEADER_BALANCES + FORMATS_PER_ROW);
    // Role queries over every rendered button are slow in jsdom: find the row by its text first.
    const paidRow = screen.getByText('Bill 1', { exact: true }).closest('tr');
    expect(within(paidRow ?? document.body).getByRole('button', { name: 'Pay Bill 1' })).toBeDisabled();
  });

  it('renders no row again when the paid row is outside the window, only the balances', () => {
    const rows = ledgerRows(FIVE_YEARS_OF_ROWS);
    const view = renderLedger(ledgerInfo(rows));

    formatCalls.mockClear();
    const answer = rows.map((row) => ({ ...row, status: row.id === 'row-1000' ? ('PAID' as const) : row.status }));
    view.rerender(ledgerInfo(answer, { pendingBalance: 1500 }));

    expect(formatCalls).toHaveBeenCalledTimes(HEADER_BALANCES);
    expect(screen.getByRole('definition', { name: 'Pending Balance' })).toHaveTextContent('$1,500.00');
  });

  // Fewer rows here: finding the Filter button by name walks every row button, slow in jsdom.
  it('renders no row, nor the balances, again when the filter hides only rows below the window', async () => {
    const user = userEvent.setup();
    renderLedger(ledgerInfo(ledgerRows(300, (index) => index >= 100 && index % 3 === 0)));
    await afterNextFrame();
    const before = renderedRows();
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filter By' });

    formatCalls.mockClear();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Paid' }));

    expect(screen.getByText('Showing 234 of 300 transactions.')).toBeInTheDocument();
    expect(renderedRows()).toEqual(before);
    expect(formatCalls).not.toHaveBeenCalled();
  });

  it('renders again, when the filter hides rows in the window, only the rows that moved or came into it', async () => {
    const user = userEvent.setup();
    renderLedger(ledgerInfo(ledgerRows(300)));
    await afterNextFrame();
    const before = renderedRows();
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filter By' });

    formatCalls.mockClear();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Paid' }));

    expect(screen.getByText('Showing 200 of 300 transactions.')).toBeInTheDocument();
    const after = renderedRows();
    // A row's place is its aria-rowindex: a row that kept it is not rendered again.
    const movedOrNew = [...after].filter(([name, rowIndex]) => before.get(name) !== rowIndex);
    expect(after.size).toBe(WINDOW_ROWS - PERIOD_LINES);
    expect(formatCalls).toHaveBeenCalledTimes(FORMATS_PER_ROW * movedOrNew.length);
    expect([...after.keys()].every((name) => Number(name.slice('Bill '.length)) % 3 !== 0)).toBe(true);
  });

  it('renders nothing again when the shell passes fresh callbacks and schedule names on every render', () => {
    const api = fakeApiClient();
    const info = ledgerInfo(ledgerRows(300));
    // Arrow functions and objects written inline, as a parent component might.
    const section = (current: LedgerInfoView) => (
      <ApiClientProvider client={api}>
        <LedgerSection
          info={current}
          onChange={() => undefined}
          onError={() => undefined}
          onRefresh={() => Promise.resolve()}
          scheduleNames={{ deposit: new Map(), expense: null }}
          forecast={current.ledger ? ledgerForecast(current.ledger, null) : null}
          importStatementDialog={NoImportStatementDialog}
        />
      </ApiClientProvider>
    );
    const view = render(section(info));

    formatCalls.mockClear();
    view.rerender(section(info));

    expect(formatCalls).not.toHaveBeenCalled();
  });
});
