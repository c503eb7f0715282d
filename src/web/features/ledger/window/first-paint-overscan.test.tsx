/**
 * The page's first frame shows the rows in the viewport and no more; the rows around them (the
 * overscan) come with the render after the first paint. This file's page has not painted when it
 * starts (each test file has its own modules), so the first render is the page's first.
 */
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerTransaction } from '../../../../contract/ledger.js';
import { hasFirstPainted, markFirstPaint } from '../../../first-paint.js';
import { ledgerInfo, renderLedger, setWindowWidth, transaction } from '../ledger-test-support.js';
import { ESTIMATED_TABLE_ROW_HEIGHT } from '../rows/ledger-table.js';
import { ROW_OVERSCAN } from './use-row-window.js';

/** jsdom lays nothing out: the viewport holds the rows that fit in its height. */
const VIEWPORT_ROWS = Math.ceil(window.innerHeight / ESTIMATED_TABLE_ROW_HEIGHT);

function rows(count: number): LedgerTransaction[] {
  return Array.from({ length: count }, (_, index) => transaction({ id: `row-${index}`, name: `Bill ${index}`, amount: 10 + index }));
}

/** The table's rendered rows (a pay period's line among them), the header row left out. */
function renderedRowCount(): number {
  return within(screen.getByRole('table')).getAllByRole('row').length - 1;
}

// The table, not the phone's list: the width of a desktop.
const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

describe('the ledger rows around the viewport', () => {
  it('are left out of the first frame and rendered once the page has painted', async () => {
    expect(hasFirstPainted()).toBe(false);
    renderLedger(ledgerInfo(rows(500)));
    expect(renderedRowCount()).toBe(VIEWPORT_ROWS);

    markFirstPaint();
    await vi.waitFor(() => expect(renderedRowCount()).toBe(VIEWPORT_ROWS + ROW_OVERSCAN));
    // The header, the pay period's line and every row: the whole ledger is still announced.
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', String(1 + 1 + 500));
  });

  it('come with the first render of a ledger shown after the page painted', () => {
    expect(hasFirstPainted()).toBe(true);
    renderLedger(ledgerInfo(rows(500)));
    expect(renderedRowCount()).toBe(VIEWPORT_ROWS + ROW_OVERSCAN);
  });
});
