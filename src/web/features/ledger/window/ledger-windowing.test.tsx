/**
 * The windowed ledger table and compact list as the page scrolls. jsdom lays nothing out, so these
 * tests give the rows' container and its rows the places a browser would (rows of the estimated
 * height, top to bottom) and scroll by moving the container up.
 */
import { act, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerTransaction } from '../../../../contract/ledger.js';
import { ESTIMATED_COMPACT_ROW_HEIGHT } from '../rows/ledger-compact-list.js';
import { ESTIMATED_TABLE_ROW_HEIGHT } from '../rows/ledger-table.js';
import { ledgerInfo, renderLedger, setWindowWidth, transaction } from '../ledger-test-support.js';

const ROW_COUNT = 500;
/** The rows, and above them the line of the one pay period they fall in (none of them is a paycheck). */
const ITEM_COUNT = ROW_COUNT + 1;
const JSDOM_WIDTH = window.innerWidth;
/** Where the first row's top is in the viewport; scrolling down makes it smaller. */
let firstRowTop = 0;

function rect(top: number, height: number): DOMRect {
  return DOMRect.fromRect({ x: 0, y: top, width: 1000, height });
}

/** Where a browser would put the element: the containers at firstRowTop, each row below the last. */
function placed(element: Element): DOMRect {
  if (element.tagName === 'TBODY') return rect(firstRowTop, ITEM_COUNT * ESTIMATED_TABLE_ROW_HEIGHT);
  if (element.tagName === 'UL') return rect(firstRowTop, ITEM_COUNT * ESTIMATED_COMPACT_ROW_HEIGHT);
  const rowIndex = element.getAttribute('aria-rowindex');
  if (rowIndex !== null && Number(rowIndex) > 1)
    return rect(firstRowTop + (Number(rowIndex) - 2) * ESTIMATED_TABLE_ROW_HEIGHT, ESTIMATED_TABLE_ROW_HEIGHT);
  const position = element.getAttribute('aria-posinset');
  if (position !== null) return rect(firstRowTop + (Number(position) - 1) * ESTIMATED_COMPACT_ROW_HEIGHT, ESTIMATED_COMPACT_ROW_HEIGHT);
  return rect(0, 0);
}

beforeEach(() => {
  setWindowWidth(1280);
  firstRowTop = 0;
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function boundingRect(this: Element) {
    return placed(this);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  setWindowWidth(JSDOM_WIDTH);
});

function ledgerRows(count: number): LedgerTransaction[] {
  return Array.from({ length: count }, (_, index) =>
    transaction({
      id: `row-${index}`,
      date: '2026-03-01',
      name: `Bill ${index}`,
      amount: 10,
      balance: 5000 - 10 * index,
      status: 'PENDING',
    }),
  );
}

/** Scrolls so the viewport's top is `offset` px below the first row's top, and lets the next frame run. */
async function scrollTo(offset: number): Promise<void> {
  firstRowTop = -offset;
  await act(async () => {
    window.dispatchEvent(new Event('scroll'));
    await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  });
}

function renderedNames(): string[] {
  return [...document.querySelectorAll('tbody tr[aria-rowindex] .ledger-row__name, ul li[aria-posinset] .ledger-row__name')].map(
    (name) => name.textContent ?? '',
  );
}

describe('LedgerTable windowing', () => {
  it('renders the rows where the page is scrolled to, up to the last row, with their row numbers', async () => {
    renderLedger(ledgerInfo(ledgerRows(ROW_COUNT)));
    expect(renderedNames()[0]).toBe('Bill 0');
    // Row 2 is the pay period's line, a heading of the rows under it.
    expect(screen.getAllByRole('row')[1]).toHaveAttribute('aria-rowindex', '2');
    expect(within(screen.getAllByRole('row')[1] as HTMLElement).getByRole('heading', { level: 3 })).toHaveTextContent(/^Pay period /);

    await scrollTo(200 * ESTIMATED_TABLE_ROW_HEIGHT);
    const names = renderedNames();
    expect(names).toContain('Bill 200');
    expect(names).not.toContain('Bill 0');
    expect(names.length).toBeLessThan(60);
    const bill200 = screen.getByText('Bill 200', { exact: true }).closest('tr');
    expect(bill200).toHaveAttribute('aria-rowindex', '203');

    await scrollTo(ITEM_COUNT * ESTIMATED_TABLE_ROW_HEIGHT - window.innerHeight);
    expect(renderedNames().at(-1)).toBe('Bill 499');
    expect(screen.getByText('Bill 499', { exact: true }).closest('tr')).toHaveAttribute('aria-rowindex', '502');
    // Only the spacer above is left; it stands for every row before the window.
    const spacers = document.querySelectorAll('tbody tr.ledger-spacer');
    expect(spacers).toHaveLength(1);
    const firstRendered = Number(screen.getAllByRole('row').at(1)?.getAttribute('aria-rowindex')) - 2;
    expect(spacers[0]?.querySelector('td')).toHaveStyle({ height: `${firstRendered * ESTIMATED_TABLE_ROW_HEIGHT}px` });
  });

  it('keeps the row holding the focus, and its neighbours, when it is scrolled away', async () => {
    const user = userEvent.setup();
    renderLedger(ledgerInfo(ledgerRows(ROW_COUNT)));
    const pay = screen.getByRole('button', { name: 'Pay Bill 3' });
    pay.focus();

    await scrollTo(300 * ESTIMATED_TABLE_ROW_HEIGHT);
    expect(renderedNames()).toEqual(expect.arrayContaining(['Bill 2', 'Bill 3', 'Bill 4', 'Bill 300']));
    expect(renderedNames()).not.toContain('Bill 5');
    expect(pay).toHaveFocus();
    expect(pay.isConnected).toBe(true);

    // Tab goes on to the next buttons in row order, as it would in the whole table.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Clear Bill 3' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Delete Bill 3' })).toHaveFocus();
    await user.tab();
    expect(
      within(screen.getByText('Bill 4', { exact: true }).closest('tr') ?? document.body).getByRole('button', { name: 'Edit Bill 4' }),
    ).toHaveFocus();
  });

  it('lets the kept row go once the focus leaves the table', async () => {
    renderLedger(ledgerInfo(ledgerRows(ROW_COUNT)));
    screen.getByRole('button', { name: 'Pay Bill 3' }).focus();
    await scrollTo(300 * ESTIMATED_TABLE_ROW_HEIGHT);
    expect(renderedNames()).toContain('Bill 3');

    act(() => screen.getByRole('button', { name: 'Refresh' }).focus());
    expect(renderedNames()).not.toContain('Bill 3');
  });
});

describe('LedgerCompactList windowing (under 1100 px)', () => {
  beforeEach(() => setWindowWidth(800));

  it('renders a window of items that say their place among all the rows, down to the last', async () => {
    renderLedger(ledgerInfo(ledgerRows(ROW_COUNT)));
    const list = screen.getByRole('list', { name: 'Transactions' });
    const items = within(list).getAllByRole('listitem');
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThan(40);
    expect(items.map((item) => item.getAttribute('aria-posinset'))).toEqual(items.map((_, index) => String(index + 1)));
    expect(items.every((item) => item.getAttribute('aria-setsize') === String(ITEM_COUNT))).toBe(true);
    expect(within(items[0] as HTMLElement).getByRole('heading', { level: 3 })).toHaveTextContent(/^Pay period /);
    const spacer = list.querySelector('li.ledger-compact__spacer');
    expect(spacer).toHaveAttribute('aria-hidden', 'true');
    expect(spacer).toHaveStyle({ height: `${(ITEM_COUNT - items.length) * ESTIMATED_COMPACT_ROW_HEIGHT}px` });

    await scrollTo(ITEM_COUNT * ESTIMATED_COMPACT_ROW_HEIGHT - window.innerHeight);
    const last = within(list).getAllByRole('listitem').at(-1);
    expect(last).toHaveTextContent('Bill 499');
    expect(last).toHaveAttribute('aria-posinset', String(ITEM_COUNT));
    expect(renderedNames()).not.toContain('Bill 0');
  });

  it('keeps the item holding the focus when it is scrolled away', async () => {
    renderLedger(ledgerInfo(ledgerRows(ROW_COUNT)));
    const clear = screen.getByRole('button', { name: 'Clear Bill 2' });
    clear.focus();

    await scrollTo(300 * ESTIMATED_COMPACT_ROW_HEIGHT);
    expect(renderedNames()).toEqual(expect.arrayContaining(['Bill 1', 'Bill 2', 'Bill 3', 'Bill 300']));
    expect(clear).toHaveFocus();
  });
});
