/**
 * The pay periods in the ledger (issue 13): a summary line opens each period, in the table and in
 * the compact list; it is a heading, carries no actions and is not counted as a transaction.
 */
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerTransaction } from '../../../../contract/ledger.js';
import { isoDate } from '../../../../domain/calendar-date.js';
import { ledgerInfo, renderLedger, setWindowWidth, transaction } from '../ledger-test-support.js';

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

const deposit = (occurrence: string) => ({ kind: 'deposit' as const, id: 'd1', occurrence, edited: false });
const expense = (occurrence: string) => ({ kind: 'expense' as const, id: 'e1', occurrence, edited: false });

/**
 * Opening $100.00 on 2027-01-01 to 2027-01-31: a bill before the first paycheck (the opening
 * period), paychecks on the 8th and the 22nd, rent that takes the balance below zero and back.
 */
function rows(): LedgerTransaction[] {
  return [
    transaction({ id: 'gym', date: '2027-01-03', name: 'Gym', type: 'D', amount: 30, balance: 70, source: expense('2027-01-03') }),
    transaction({
      id: 'pay1',
      date: '2027-01-08',
      name: 'Acme Paycheck',
      type: 'C',
      amount: 1000,
      balance: 1070,
      source: deposit('2027-01-08'),
    }),
    transaction({ id: 'rent', date: '2027-01-10', name: 'Rent', type: 'D', amount: 1200, balance: -130, source: expense('2027-01-10') }),
    transaction({ id: 'coffee', date: '2027-01-12', name: 'Starbucks', type: 'D', amount: 4.75, balance: -134.75 }),
    transaction({
      id: 'pay2',
      date: '2027-01-22',
      name: 'Acme Paycheck',
      type: 'C',
      amount: 1000,
      balance: 865.25,
      source: deposit('2027-01-22'),
    }),
  ];
}

const LEDGER = { startDate: '2027-01-01', endDate: '2027-01-31', openingBalance: 100, currentBalance: 100, pendingBalance: 100 };

const OPENING_LINE = 'Pay period Fri, Jan 1, 2027 – Thu, Jan 7, 2027 · In $0.00 · Out $30.00 · Left over -$30.00 · Lowest $70.00';
const FIRST_LINE = 'Pay period Fri, Jan 8, 2027 – Thu, Jan 21, 2027 · In $1,000.00 · Out $1,204.75 · Left over -$204.75 · Lowest -$134.75';
const SECOND_LINE = 'Pay period Fri, Jan 22, 2027 – Sun, Jan 31, 2027 · In $1,000.00 · Out $0.00 · Left over $1,000.00 · Lowest $865.25';

describe('pay period lines', () => {
  it('open each period in the table as headings, above its paycheck, with the period figures', () => {
    renderLedger(ledgerInfo(rows(), LEDGER), undefined, undefined, isoDate('2027-01-01'));
    const headings = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(headings).toEqual([OPENING_LINE, FIRST_LINE, SECOND_LINE]);

    const table = screen.getByRole('table');
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(bodyRows.map((row) => row.querySelector('.ledger-row__name')?.textContent ?? row.textContent)).toEqual([
      OPENING_LINE,
      'Gym',
      FIRST_LINE,
      'Acme Paycheck',
      'Rent',
      'Starbucks',
      SECOND_LINE,
      'Acme Paycheck',
    ]);
    // A line is not a transaction: no buttons, and the count is of transactions only.
    const line = bodyRows[2] as HTMLElement;
    expect(within(line).queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByText('5 transactions.')).toBeInTheDocument();
    expect(table).toHaveAttribute('aria-rowcount', '9');
  });

  it('open each period in the compact list too, and a period without rows still has its line', () => {
    setWindowWidth(800);
    // Without the gym bill the opening period has no rows: its lowest is the balance it started with.
    renderLedger(ledgerInfo(rows().slice(1), LEDGER));
    const list = screen.getByRole('list', { name: 'Transactions' });
    const headings = within(list)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual([
      'Pay period Fri, Jan 1, 2027 – Thu, Jan 7, 2027 · In $0.00 · Out $0.00 · Left over $0.00 · Lowest $100.00',
      FIRST_LINE,
      SECOND_LINE,
    ]);
    expect(screen.getByText('4 transactions.')).toBeInTheDocument();
  });

  it('keep the lines of the periods that have a found row while searching, with the whole period figures', async () => {
    const user = userEvent.setup();
    renderLedger(ledgerInfo(rows(), LEDGER));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'rent');

    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([FIRST_LINE]);
    expect(screen.getByText('Showing 1 of 5 transactions.')).toBeInTheDocument();
  });
});
