/**
 * Issue 27: the Ledger view first holds a window of the ledger (decision 0053), not every row. For
 * any ledger and any scroll position, what the page shows from the window (the balances, the count,
 * the warning before $0, the rows and pay period lines on the screen) is what a full load shows
 * there, or, once the screen reaches past the window, the page asks for the whole ledger; and a Pay
 * or a Clear painted on the window, or its changes applied to it, are the whole ledger's, row for
 * row. The ledgers and windows are made by the domain's functions the server answers with
 * (computeBalances, ledgerWindow; tests/api/ledger-scale.test.ts checks the server's answers against
 * a full read). Runs: modest in CI, more under `npm run fuzz` (FUZZ_RUNS); one ledger of 20,000
 * rows, the product's limit, in every run of the file.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LedgerView } from '../../../../contract/codecs.js';
import type { LedgerWindowView } from '../../../../contract/ledger-window-codec.js';
import { addDays, fromDayNumber, type IsoDate, isoDate, toDayNumber } from '../../../../domain/calendar-date.js';
import { isAllowedStatusMove, type LedgerRow, TRANSACTION_STATUSES, type TransactionStatus } from '../../../../domain/ledger.js';
import { cents } from '../../../../domain/money.js';
import { applyDecodedChanges, applyWindowChanges } from '../../../api/ledger-changes.js';
import { paintStatusMoves, wholeWhenComplete } from '../../../api/status-moves.js';
import { ledgerForecast } from '../../../forecast/ledger-forecast.js';
import { changesAfter, type LedgerFieldsOf, ledgerWindowOf, wholeLedger } from '../../../test-support/ledger-windows.js';
import { ledgerItems } from '../rows/ledger-items.js';
import { loadedSegments, rowSegments, rowWindow } from './row-window.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const START = isoDate('2026-01-01');
/** A ledger of two years: many pay periods, rows on every kind of day. */
const LEDGER_DAYS = 730;
/** The window the page asks for first (FIRST_WINDOW_ROWS), and smaller ones, so windows are often partial. */
const LIMITS = [100, 40, 7];

interface RowSpec {
  readonly day: number;
  readonly name: string;
  readonly type: 'C' | 'D';
  readonly amount: number;
  readonly status: TransactionStatus;
  readonly paycheck: boolean;
}

const rowSpec: fc.Arbitrary<RowSpec> = fc.record({
  day: fc.nat({ max: LEDGER_DAYS - 1 }),
  name: fc.constantFrom('Rent', 'rent', 'Acme Paycheck', 'Coffee', 'Zoo', 'Épicerie'),
  type: fc.constantFrom('C' as const, 'D' as const),
  amount: fc.integer({ min: 1, max: 400_000 }),
  status: fc.constantFrom(...TRANSACTION_STATUSES),
  paycheck: fc.boolean(),
});

interface Made {
  readonly fields: LedgerFieldsOf;
  readonly rows: LedgerRow[];
  readonly today: IsoDate;
}

function makeLedger(specs: readonly RowSpec[], opening: number, todayOffset: number): Made {
  const fields: LedgerFieldsOf = { startDate: START, endDate: addDays(START, LEDGER_DAYS - 1), openingBalance: cents(opening) };
  const rows: LedgerRow[] = specs.map((spec, index) => ({
    id: `row-${index}`,
    sequence: index + 1,
    date: addDays(START, spec.day),
    name: spec.name,
    type: spec.type,
    amount: cents(spec.amount),
    status: spec.status,
    // A credit from a deposit opens a pay period.
    source: spec.paycheck
      ? { kind: spec.type === 'C' ? 'deposit' : 'expense', id: 's1', occurrence: addDays(START, spec.day), edited: false }
      : null,
  }));
  return { fields, rows, today: fromDayNumber(toDayNumber(START) + todayOffset) };
}

/** The page's whole ledger, as a full load holds it. */
function wholeOf({ fields, rows }: Made): LedgerView {
  return wholeLedger(fields, rows, 'v7');
}

/** The page's window, as the first view holds it. */
function windowOf(made: Made, limit: number): LedgerWindowView {
  return ledgerWindowOf(wholeOf(made), { from: 0, limit }, made.today, 'v7');
}

const ledgerArbitrary = fc
  .tuple(
    fc.array(rowSpec, { maxLength: 260 }),
    fc.integer({ min: -200_000, max: 200_000 }),
    fc.integer({ min: -40, max: LEDGER_DAYS + 40 }),
  )
  .map(([specs, opening, todayOffset]) => makeLedger(specs, opening, todayOffset));

/** Where the screen is, as the page reads it: how far down, how tall, how tall a row. */
const screenArbitrary = fc.record({
  scrollOffset: fc.integer({ min: -2000, max: 40_000 }),
  viewportHeight: fc.integer({ min: 300, max: 2200 }),
  rowHeight: fc.constantFrom(48, 121),
});

/** Checks one ledger, one window size and one screen against the full load. */
function checkScreen(made: Made, limit: number, screen: { scrollOffset: number; viewportHeight: number; rowHeight: number }): void {
  const whole = wholeOf(made);
  const window = windowOf(made, limit);
  const full = ledgerForecast(whole, made.today);
  // What a full load shows in the header, the window shows.
  expect(window.currentBalance).toBe(whole.currentBalance);
  expect(window.pendingBalance).toBe(whole.pendingBalance);
  expect(window.count).toBe(whole.transactions.length);
  expect(window.firstBelowZero).toEqual(full.firstBelowZero);
  // The items the page lists: the full load's, and the window's first ones with the whole list's count.
  const wholeItems = ledgerItems(whole.transactions, full.periods, true);
  const windowItems = ledgerItems(window.transactions, window.payPeriods, true);
  expect(window.count + window.payPeriodCount).toBe(wholeItems.length);
  const complete = wholeWhenComplete({ window });
  if ('ledger' in complete && complete.ledger) {
    // A window that holds every row is held as the whole ledger: exactly the full load's.
    expect(complete.ledger).toEqual(whole);
    return;
  }
  const total = wholeItems.length;
  const visible = rowWindow({ ...screen, rowCount: total, overscan: 10 });
  const segments = loadedSegments(
    rowSegments({ visible, rowCount: total, rowHeight: screen.rowHeight, keptIndex: null }),
    windowItems.length,
    screen.rowHeight,
  );
  // Every item the window renders is the full load's item at that place.
  for (const segment of segments) {
    if (segment.kind !== 'rows') continue;
    expect(segment.end).toBeLessThanOrEqual(windowItems.length);
    expect(windowItems.slice(segment.first, segment.end)).toEqual(wholeItems.slice(segment.first, segment.end));
  }
  // The spacers and rendered rows stand for every item, so the page is as tall as the full load's.
  const rowsStoodFor = segments.reduce((sum, segment) => sum + (segment.kind === 'rows' ? segment.end - segment.first : segment.rows), 0);
  expect(rowsStoodFor).toBe(total);
  // While the screen is within the window's items, it shows them all (no spacer on it); past them,
  // the page asks for the whole ledger (useWindowedRows' pastLoaded) and shows it when it comes.
  if (visible.end <= windowItems.length) {
    for (let index = visible.first; index < visible.end; index += 1)
      expect(segments.some((segment) => segment.kind === 'rows' && segment.first <= index && index < segment.end)).toBe(true);
  }
}

describe('a window of the ledger shows what a full load shows (decision 0053)', () => {
  it('at any scroll position, for any ledger and window size: balances, count, warning, rows and pay period lines', () => {
    fc.assert(
      fc.property(ledgerArbitrary, fc.constantFrom(...LIMITS), screenArbitrary, (made, limit, screen) => checkScreen(made, limit, screen)),
      { numRuns: RUNS },
    );
  });

  it('paints a Pay or a Clear of a window row with the whole ledger’s balances, and takes in its changes as the whole ledger does', () => {
    fc.assert(
      fc.property(
        ledgerArbitrary,
        fc.constantFrom(...LIMITS),
        fc.nat(),
        fc.constantFrom('PAID' as const, 'CLEARED' as const),
        (made, limit, pick, status) => {
          const whole = wholeOf(made);
          const window = windowOf(made, limit);
          const row = window.transactions[pick % Math.max(1, window.transactions.length)];
          fc.pre(row !== undefined && isAllowedStatusMove(row.status, status) && row.status !== status);
          if (row === undefined) return;
          const moves = new Map([[row.id, status]]);
          // Painted before the server answers.
          const paintedWhole = paintStatusMoves({ ledger: whole }, moves).ledger;
          const paintedWindow = paintStatusMoves({ window }, moves).window;
          expect(paintedWindow.currentBalance).toBe(paintedWhole?.currentBalance);
          expect(paintedWindow.pendingBalance).toBe(paintedWhole?.pendingBalance);
          expect(paintedWindow.transactions).toEqual(paintedWhole?.transactions.slice(0, window.transactions.length));
          // And the server's changes answer, taken in.
          const moved = made.rows.map((candidate) => (candidate.id === row.id ? { ...candidate, status } : candidate));
          const changes = changesAfter(made.fields, moved, row.id, { basedOn: 'v7', version: 'v8' });
          const appliedWhole = applyDecodedChanges(whole, changes);
          const appliedWindow = applyWindowChanges(window, changes);
          expect(appliedWhole).not.toBeNull();
          expect(appliedWindow?.transactions).toEqual(appliedWhole?.transactions.slice(0, window.transactions.length));
          expect(appliedWindow?.pendingBalance).toBe(appliedWhole?.pendingBalance);
          expect(appliedWindow?.currentBalance).toBe(appliedWhole?.currentBalance);
          expect(appliedWhole?.pendingBalance).toBe(paintedWhole?.pendingBalance);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('holds at 20,000 rows, the product’s limit, at the top, in the middle and at the bottom', () => {
    const specs = fc.sample(rowSpec, { numRuns: 20_000, seed: 27 });
    const made = makeLedger(specs, 1_000_00, 365);
    for (const scrollOffset of [0, 600, 4_000, 20_000 * 48, 40_000 * 48])
      checkScreen(made, 100, { scrollOffset, viewportHeight: 900, rowHeight: 48 });
  });
});
