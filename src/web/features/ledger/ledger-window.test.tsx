/**
 * Issue 27, decision 0053: the Ledger section handed a window of a long ledger (its first rows, the
 * balances, the count, the pay period lines among those rows) shows it as the whole ledger would
 * be shown there, and asks the shell for the rest (onWholeNeeded) exactly when the user needs more
 * than the window: a search, a filter, a scroll past its rows, a dialog that reads every row. A Pay
 * on a window row paints at once and its changes apply to the window, with no reload.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useMemo, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerView } from '../../../contract/codecs.js';
import type { LedgerWindowView } from '../../../contract/ledger-window-codec.js';
import { addDays, isoDate } from '../../../domain/calendar-date.js';
import type { LedgerRow } from '../../../domain/ledger.js';
import { cents } from '../../../domain/money.js';
import type { HeldLedgerInfo } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { writeWithChanges } from '../../api/ledger-changes.js';
import { ledgerVersion } from '../../api/ledger-version.js';
import { ledgerForecast, type LedgerForecast } from '../../forecast/ledger-forecast.js';
import { fakeApiClient } from '../../test-support/fake-api-client.js';
import { changesAfter, type LedgerFieldsOf, ledgerWindowOf, wholeLedger } from '../../test-support/ledger-windows.js';
import { LedgerSection } from './ledger-section.js';
import { afterNextFrame, NO_SCHEDULES, NoImportStatementDialog, setWindowWidth } from './ledger-test-support.js';

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

const START = isoDate('2027-01-01');
const TODAY = isoDate('2027-01-01');

const FIELDS: LedgerFieldsOf = { startDate: START, endDate: addDays(START, 364), openingBalance: cents(500_00) };

/** A year of rows, every one PENDING: a paycheck every 14 days, a bill each day named by its day. */
function ledgerRows(rowCount: number): LedgerRow[] {
  return Array.from({ length: rowCount }, (_, index): LedgerRow => {
    const day = index % 365;
    const paycheck = day % 14 === 0 && index < 365;
    return {
      id: `r${index}`,
      sequence: index + 1,
      date: addDays(START, day),
      name: paycheck ? 'Acme Paycheck' : index % 3 === 0 ? 'Rent' : `Bill ${day}`,
      type: paycheck ? 'C' : 'D',
      amount: cents(paycheck ? 2_000_00 : 1_00 + (index % 50)),
      status: 'PENDING',
      source: paycheck ? { kind: 'deposit', id: 'acme', occurrence: addDays(START, day), edited: false } : null,
    };
  });
}

function wholeOf(rows: readonly LedgerRow[]): LedgerView {
  return wholeLedger(FIELDS, rows, 'v3');
}

function windowOf(rows: readonly LedgerRow[], limit = 100): LedgerWindowView {
  return ledgerWindowOf(wholeOf(rows), { from: 0, limit }, TODAY, 'v3');
}

/** The forecast as the Ledger view gives it: worked out from a whole ledger, or the window's own. */
function forecastOf(info: HeldLedgerInfo): LedgerForecast | null {
  if ('window' in info) {
    const { window } = info;
    return { rows: window.transactions, periods: window.payPeriods, lowest: null, firstBelowZero: window.firstBelowZero };
  }
  return info.ledger === null ? null : ledgerForecast(info.ledger, TODAY);
}

/** The section in a shell that, like the Ledger view, draws what it is handed and hands over the whole ledger when asked. */
function renderWindowed(initial: HeldLedgerInfo, api = fakeApiClient()) {
  const onWholeNeeded = vi.fn();
  const onError = vi.fn();
  let show: (info: HeldLedgerInfo) => void = () => undefined;
  function Shell() {
    const [info, setInfo] = useState<HeldLedgerInfo>(initial);
    show = setInfo;
    const forecast = useMemo(() => forecastOf(info), [info]);
    return (
      <ApiClientProvider client={api}>
        <LedgerSection
          info={info}
          onChange={setInfo}
          onError={onError}
          onRefresh={() => Promise.resolve()}
          scheduleNames={NO_SCHEDULES}
          forecast={forecast}
          importStatementDialog={NoImportStatementDialog}
          onWholeNeeded={'window' in info ? onWholeNeeded : undefined}
        />
      </ApiClientProvider>
    );
  }
  const { unmount } = render(<Shell />);
  return { api, onWholeNeeded, onError, unmount, handOver: (info: HeldLedgerInfo) => act(() => show(info)) };
}

const rowNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent);

describe('the Ledger section with a window of a long ledger', () => {
  it('shows the whole ledger’s balances, count and first rows and lines, and stands for every row', () => {
    const rows = ledgerRows(2000);
    const whole = wholeOf(rows);
    const view = renderWindowed({ window: windowOf(rows) });
    expect(screen.getByRole('definition', { name: 'Pending Balance' })).toHaveTextContent(/^\$/);
    expect(screen.getByText('2,000 transactions.')).toBeVisible();
    const windowed = rowNames();
    // The table counts every row and every pay period's line of the whole ledger, and its header row.
    const periods = ledgerForecast(whole, TODAY).periods.length;
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', String(2000 + periods + 1));
    expect(view.onWholeNeeded).not.toHaveBeenCalled();
    // The same rows and lines, in the same places, as the whole ledger shows at the top.
    view.unmount();
    renderWindowed({ ledger: whole });
    expect(rowNames()).toEqual(windowed);
  });

  it('asks for the whole ledger to search it, shows no partial hits meanwhile, and then what a full load finds', async () => {
    const user = userEvent.setup();
    const rows = ledgerRows(2000);
    const whole = wholeOf(rows);
    const view = renderWindowed({ window: windowOf(rows) });
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'bill 36');
    expect(view.onWholeNeeded).toHaveBeenCalled();
    expect(screen.getByText('Loading all 2,000 transactions to search them...')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
    view.handOver({ ledger: whole });
    await waitFor(() => expect(screen.getByText(/^Showing \d+ of 2,000 transactions\.$/)).toBeVisible());
    await afterNextFrame();
    const found = rowNames();
    expect(found.some((text) => text?.includes('Bill 36'))).toBe(true);
    // What a full load finds for the same search.
    view.unmount();
    renderWindowed({ ledger: whole });
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'bill 36');
    await waitFor(() => expect(rowNames()).toEqual(found));
  });

  it('asks for the whole ledger when a status is filtered out', async () => {
    const user = userEvent.setup();
    const view = renderWindowed({ window: windowOf(ledgerRows(500)) });
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Paid' }));
    expect(view.onWholeNeeded).toHaveBeenCalled();
  });

  it('asks for the rest when the screen reaches past the window’s rows', () => {
    // Seven rows held: the first screen (and its overscan) reaches past them at once.
    const view = renderWindowed({ window: windowOf(ledgerRows(500), 7) });
    expect(view.onWholeNeeded).toHaveBeenCalled();
  });

  it('opens New Ledger once the whole ledger is here, with its warning counting every row', async () => {
    const user = userEvent.setup();
    const rows = ledgerRows(500);
    const view = renderWindowed({ window: windowOf(rows) });
    await user.click(screen.getByRole('button', { name: 'New Ledger' }));
    expect(view.onWholeNeeded).toHaveBeenCalled();
    expect(screen.queryByRole('dialog', { name: 'New Ledger' })).toBeNull();
    view.handOver({ ledger: wholeOf(rows) });
    const dialog = await screen.findByRole('dialog', { name: 'New Ledger' });
    expect(within(dialog).getByText(/and its 500 transactions\./)).toBeVisible();
  });

  it('paints a Pay of a window row at once, and applies its changes to the window without a reload', async () => {
    const user = userEvent.setup();
    const rows = ledgerRows(2000);
    const window = windowOf(rows);
    const api = fakeApiClient();
    const view = renderWindowed({ window }, api);
    const paid = window.transactions.find((row) => row.name === 'Rent');
    if (!paid) throw new Error('no Rent row in the window');
    // The server's answer: the paid row where it was, the new balances.
    const moved = rows.map((row) => (row.id === paid.id ? { ...row, status: 'PAID' as const } : row));
    const answer = { changes: changesAfter(FIELDS, moved, paid.id, { basedOn: 'v3', version: 'v4' }) };
    const reload = vi.fn(() => Promise.reject(new Error('no reload expected')));
    api.updateTransaction.mockImplementation((_update, held) => writeWithChanges(async () => answer, held ?? (() => null), reload));
    const before = screen.getByRole('definition', { name: 'Pending Balance' }).textContent;
    await user.click(screen.getAllByRole('button', { name: `Pay ${paid.name}` })[0] as HTMLElement);
    await waitFor(() => expect(api.updateTransaction).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByRole('definition', { name: 'Pending Balance' }).textContent).not.toBe(before));
    expect(reload).not.toHaveBeenCalled();
    expect(view.onWholeNeeded).not.toHaveBeenCalled();
    // The window the section now holds took the changes in: it is at the answer's version.
    const held = api.updateTransaction.mock.calls[0]?.[1]?.();
    expect(held && ledgerVersion(held)).toBe(answer.changes.version);
    expect(screen.getByText('2,000 transactions.')).toBeVisible();
  });
});
