/**
 * Whole ledgers, windows of them (decision 0053) and changes answers as the page holds them, made
 * with the domain's own functions the server answers with (computeBalances, ledgerWindow), for the
 * tests of issue 27's page side: what a window shows against what the whole ledger shows.
 */
import type { LedgerTransactionView, LedgerView } from '../../contract/codecs.js';
import type { LedgerChangesView } from '../../contract/ledger-changes-codec.js';
import type { LedgerWindowView } from '../../contract/ledger-window-codec.js';
import { computeBalances } from '../../domain/balances.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import type { LedgerRow, LedgerRowWithBalance } from '../../domain/ledger.js';
import { ledgerWindow } from '../../domain/ledger-window.js';
import type { Cents } from '../../domain/money.js';
import { setLedgerVersion } from '../api/ledger-version.js';

export interface LedgerFieldsOf {
  readonly startDate: IsoDate;
  readonly endDate: IsoDate;
  readonly openingBalance: Cents;
}

/** A row as the page holds it, as the whole ledger answers it. */
function rowView(row: LedgerRowWithBalance): LedgerTransactionView {
  const { id, date, name, type, amount, balance, status, source } = row;
  return { id, date, name, type, amount, balance, status, source };
}

/** The whole ledger of these rows (in any order) as a full load holds it, at `version`. */
export function wholeLedger(fields: LedgerFieldsOf, rows: readonly LedgerRow[], version: string): LedgerView {
  const balances = computeBalances(fields.openingBalance, rows);
  const ledger: LedgerView = {
    ...fields,
    currentBalance: balances.currentBalance,
    pendingBalance: balances.pendingBalance,
    transactions: balances.rows.map(rowView),
  };
  setLedgerVersion(ledger, version);
  return ledger;
}

/** The window of that ledger the server answers (its ledgerWindow over the same rows), at `version`. */
export function ledgerWindowOf(
  whole: LedgerView,
  range: { readonly from: number; readonly limit: number },
  today: IsoDate,
  version: string,
): LedgerWindowView {
  const window = ledgerWindow(whole, whole.transactions, range, today);
  const view: LedgerWindowView = {
    startDate: whole.startDate,
    endDate: whole.endDate,
    openingBalance: whole.openingBalance,
    currentBalance: whole.currentBalance,
    pendingBalance: whole.pendingBalance,
    count: window.count,
    from: window.from,
    transactions: window.rows,
    payPeriods: window.periods,
    payPeriodCount: window.periodCount,
    today,
    firstBelowZero: window.firstBelowZero,
  };
  setLedgerVersion(view, version);
  return view;
}

/**
 * The changes answer of a write that left the ledger with `after`, changing the row `changed` (or
 * none) and removing `removed`, from version `basedOn` to `version`: as the server places rows.
 */
export function changesAfter(
  fields: LedgerFieldsOf,
  after: readonly LedgerRow[],
  changed: string | null,
  { basedOn, version, removed = [] }: { readonly basedOn: string; readonly version: string; readonly removed?: readonly string[] },
): LedgerChangesView {
  const balances = computeBalances(fields.openingBalance, after);
  const position = balances.rows.findIndex((row) => row.id === changed);
  const placed = balances.rows[position];
  return {
    basedOn,
    version,
    ...fields,
    currentBalance: balances.currentBalance,
    pendingBalance: balances.pendingBalance,
    count: after.length,
    rows: placed ? [{ ...rowView(placed), position }] : [],
    removed: [...removed],
  };
}
