/**
 * What the Ledger view holds and shows of the ledger. Its first view holds a window of it (issue 27,
 * decision 0053): the first rows with their running balances and what the page shows around them,
 * not every row; a window that holds every row is the whole ledger, and is held as one. While status
 * moves are on their way (issue 24 item 3) it shows the held ledger with each Pay or Clear painted on
 * its row and the balances moved by the row's signed amount, before the server answers. The held
 * ledger itself never changes, so the answer's changes still apply to the version they are based on
 * (decision 0030), and a refusal shows the held ledger again exactly. Also the balances step that
 * applying a changes answer shares. Not in the first view: the Ledger view, the rows' chunk and the
 * changes' chunk import it (benchmark 4a); the changes' chunk only ever loads by a dynamic import, so
 * what the Ledger view itself needs of windows is here, not there.
 */
import type { LedgerInfoView, LedgerTransactionView, LedgerView } from '../../contract/codecs.js';
import type * as z from 'zod/mini';
import { ledgerWindowAnswerCodec, type LedgerWindowView } from '../../contract/ledger-window-codec.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { computeBalances } from '../../domain/balances.js';
import { bankOfBadge } from '../../domain/bank-sync/bank-rows.js';
import { countedAmount, isAllowedStatusMove, type LedgerRow, type TransactionStatus } from '../../domain/ledger.js';
import { type Cents, cents } from '../../domain/money.js';
import type { HeldLedgerInfo, LedgerRead, LedgerReader, Request } from './api-request.js';
import { FIRST_WINDOW_ROWS, firstWindowQuery } from './early-calls.js';
import { ledgerVersion, setLedgerVersion } from './ledger-version.js';

export interface BalancedRows {
  readonly currentBalance: Cents;
  readonly pendingBalance: Cents;
  readonly transactions: LedgerTransactionView[];
}

/**
 * Rows in the server's order with the running, current and pending balances computeBalances gives
 * them; null when the domain would order them otherwise. A row whose balance did not move keeps
 * its object, so its memoized line is not drawn again.
 */
export function withBalances(openingBalance: Cents, rows: readonly LedgerTransactionView[]): BalancedRows | null {
  // The server's order already is row order; its index stands in for the creation order that breaks ties.
  const domainRows = rows.map((row, index): LedgerRow => ({
    id: row.id,
    sequence: index,
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    status: row.status,
    bank: bankOfBadge(row.bankBadge),
  }));
  const balances = computeBalances(openingBalance, domainRows);
  const transactions: LedgerTransactionView[] = [];
  for (const [index, computed] of balances.rows.entries()) {
    const row = rows[index];
    if (row === undefined || row.id !== computed.id) return null;
    transactions.push(row.balance === computed.balance ? row : { ...row, balance: computed.balance });
  }
  return { currentBalance: balances.currentBalance, pendingBalance: balances.pendingBalance, transactions };
}

/**
 * The held ledger (or window of it, decision 0053) with the status moves on their way (by row id)
 * painted on it. Only a move the domain allows from the row's held status is painted (one the server
 * made meanwhile, or one it will refuse, is not); with none to paint, the very `info` held. A status
 * moves no running balance, so only the current and pending balances move, by the row's signed amount
 * (opening plus the signed CLEARED, or PAID and CLEARED, rows: computeBalances' sums): nothing is
 * sorted or summed again, and a Pay on 20,000 rows costs what it does on 20 (issue 27).
 */
export function paintStatusMoves<Info extends HeldLedgerInfo>(info: Info, moves: ReadonlyMap<string, TransactionStatus>): Info {
  const held = 'window' in info ? info.window : info.ledger;
  if (held === null || moves.size === 0) return info;
  let current: number = held.currentBalance;
  let pending: number = held.pendingBalance;
  let painted = false;
  const transactions = held.transactions.map((row) => {
    const status = moves.get(row.id);
    if (status === undefined || status === row.status || !isAllowedStatusMove(row.status, status)) return row;
    painted = true;
    // A row no longer at the bank moves no balance, whatever its status (isCounted).
    const signed = countedAmount({ type: row.type, amount: row.amount, bank: bankOfBadge(row.bankBadge) });
    current += (status === 'CLEARED' ? signed : 0) - (row.status === 'CLEARED' ? signed : 0);
    pending += (status === 'PENDING' ? 0 : signed) - (row.status === 'PENDING' ? 0 : signed);
    return { ...row, status };
  });
  if (!painted) return info;
  const balances = { currentBalance: cents(current), pendingBalance: cents(pending), transactions };
  // The same kind of answer as held, with the painted rows and balances.
  const shown: HeldLedgerInfo =
    'window' in info ? { window: { ...info.window, ...balances } } : { ...info, ledger: { ...held, ...balances } };
  return shown as Info;
}

// ---- windows of the ledger (decision 0053) ----------------------------------------------------

/** True for a window of the ledger, false for the whole of it. */
export function isLedgerWindow(held: LedgerView | LedgerWindowView): held is LedgerWindowView {
  return 'payPeriodCount' in held;
}

/** The ledger an answer the section holds carries: whole, a window, or null while there is none. */
export function heldOf(info: HeldLedgerInfo): LedgerView | LedgerWindowView | null {
  return 'window' in info ? info.window : info.ledger;
}

/** How to read a window again, by the window (or a window a write's changes made of it). */
const rereads = new WeakMap<LedgerWindowView, () => Promise<HeldLedgerInfo>>();

/** What GET retrieve-ledger answers asked for a window: the window, or the whole ledger when it has none. */
type LedgerWindowAnswerView = z.output<typeof ledgerWindowAnswerCodec>;

/** GET retrieve-ledger as the Ledger view sends it for a window (decision 0053), from the call for the whole ledger. */
function windowCall(whole: Omit<Request<LedgerInfoView>, 'ledgerOf'>, query: string) {
  return {
    operation: whole.operation,
    method: whole.method,
    path: `${whole.path}?${query}`,
    answer: ledgerWindowAnswerCodec,
    ledgerOf: (info: LedgerWindowAnswerView) => ('window' in info ? info.window : info.ledger),
  };
}

/**
 * The window of the ledger from its first row that the Ledger view asks for, with "today" on the
 * page's clock (decision 0034), sent through `api` as its GET retrieve-ledger; the window that
 * comes back knows how to be read again (rereadOf).
 */
export function firstWindow(api: LedgerReader, today: IsoDate, limit = FIRST_WINDOW_ROWS): LedgerRead {
  // The query main.tsx sends early too (decision 0073), so the view takes that answer.
  return windowRead(api, firstWindowQuery(today, limit));
}

/** The window `query` names, sent through `api`; the window that comes back is read again the same way. */
function windowRead(api: LedgerReader, query: string): LedgerRead {
  const read: LedgerRead = async (whole) => rereadable(api, read, await api.request(windowCall(whole, query)));
  return read;
}

/**
 * The first window when the first script's answer is in already (decision 0109), decoded and its
 * version noted as firstWindow's are, and read again the same way; undefined when it is not in.
 */
export function firstWindowInHand(api: LedgerReader, today: IsoDate): HeldLedgerInfo | undefined {
  const query = firstWindowQuery(today);
  const read = windowRead(api, query);
  return api.getLedgerInHand((whole) => {
    const answer = api.inHand(windowCall(whole, query));
    return answer && rereadable(api, read, answer);
  });
}

/** A window answer that knows how it is read again (rereadOf). */
function rereadable(api: LedgerReader, read: LedgerRead, answer: LedgerWindowAnswerView): HeldLedgerInfo {
  if ('window' in answer) rereads.set(answer.window, () => api.getLedger(read));
  return answer;
}

/** Reads the window again (after a write whose changes it cannot take in); undefined for a window not read through firstWindow. */
export function rereadOf(window: LedgerWindowView): (() => Promise<HeldLedgerInfo>) | undefined {
  return rereads.get(window);
}

/** A window made from another (a write's changes taken in) is read again as that one is. */
export function rereadAs(window: LedgerWindowView, from: LedgerWindowView): void {
  const reread = rereads.get(from);
  if (reread) rereads.set(window, reread);
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
