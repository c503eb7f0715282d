/**
 * The Ledger view's first view (issue 27, decision 0053): it asks for the first rows of the ledger
 * with their running balances and what the page shows around them (the balances, the count, the pay
 * period lines among them, the warning before $0), not for every row. A window that holds every row
 * is the whole ledger, and is held as one. Not in the page's first view: the Ledger view and its
 * section load it (benchmark 4a).
 */
import type { LedgerInfoView, LedgerView } from '../../contract/codecs.js';
import { ledgerWindowAnswerCodec, type LedgerWindowView } from '../../contract/ledger-window-codec.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import type { HeldLedgerInfo, LedgerWindowAsk } from './api-client.js';
import { ledgerVersion, setLedgerVersion } from './ledger-version.js';

/**
 * Rows the first view asks for: more than a tall monitor's screenful and its overscan, so a user
 * who only pays the next bills, or scrolls a little, never needs more.
 */
export const FIRST_WINDOW_ROWS = 100;

/** True for a window of the ledger, false for the whole of it. */
export function isLedgerWindow(held: LedgerView | LedgerWindowView): held is LedgerWindowView {
  return 'payPeriodCount' in held;
}

/** The ledger an answer the section holds carries: whole, a window, or null while there is none. */
export function heldOf(info: HeldLedgerInfo): LedgerView | LedgerWindowView | null {
  return 'window' in info ? info.window : info.ledger;
}

/** The window of the ledger from its first row that the Ledger view asks for, with "today" on the page's clock (decision 0034). */
export function firstWindow(today: IsoDate, limit = FIRST_WINDOW_ROWS): LedgerWindowAsk {
  const query = new URLSearchParams({ limit: String(limit), today }).toString();
  return (read) => ({
    ...read,
    path: `${read.path}?${query}`,
    answer: ledgerWindowAnswerCodec,
    ledgerOf: (answer) => ('window' in answer ? answer.window : answer.ledger),
  });
}

/** The same window again (after a write whose changes it cannot take in): from its first row, as many rows, the same today. */
export function sameWindow(held: LedgerWindowView): LedgerWindowAsk {
  return firstWindow(held.today, Math.max(FIRST_WINDOW_ROWS, held.transactions.length));
}

/**
 * The answer as the section holds it: a window from the first row that holds every row is the whole
 * ledger (its own fields and rows, at the same version), so a short ledger is held as it always was.
 */
export function wholeWhenComplete(info: HeldLedgerInfo): HeldLedgerInfo {
  if (!('window' in info)) return info;
  const { window } = info;
  if (window.from !== 0 || window.transactions.length !== window.count) return info;
  const ledger: LedgerView = {
    startDate: window.startDate,
    endDate: window.endDate,
    openingBalance: window.openingBalance,
    currentBalance: window.currentBalance,
    pendingBalance: window.pendingBalance,
    transactions: window.transactions,
  };
  const version = ledgerVersion(window);
  if (version !== undefined) setLedgerVersion(ledger, version);
  const whole: LedgerInfoView = { ledger };
  return whole;
}
