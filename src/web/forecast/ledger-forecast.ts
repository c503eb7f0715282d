/**
 * "Will I make it to payday?" on the page: the same pure functions as the server's forecast
 * answer, over the ledger answer the page already holds, so a Pay or an edit updates the pay
 * periods and the warning without a second request. The Summary and the Ledger both read it; the
 * result is kept per ledger answer, so it is computed once for both.
 */
import type { LedgerView } from '../../contract/codecs.js';
import { bankOfBadge } from '../../domain/bank-sync/bank-rows.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { type Cents, cents } from '../../domain/money.js';
import { type BalancePoint, firstBelowZero, type ForecastRow, lowestAhead, type PayPeriod, payPeriods } from '../../domain/forecast.js';
import { type CardEverydayShares, weighedInOrder } from '../../domain/card-everyday.js';
import { everydayPayPeriods, forecastOutlook, pointsAhead } from '../../domain/safe-to-spend.js';

export interface LedgerForecast {
  /** The ledger's rows, in row order, with their running balances. */
  readonly rows: readonly ForecastRow[];
  readonly periods: readonly PayPeriod[];
  /** Null without a today, or when no row is dated today or later. */
  readonly lowest: BalancePoint | null;
  readonly firstBelowZero: BalancePoint | null;
  /** Whose ledger it is, when the user has several accounts: the warning names it (decision 0045). */
  readonly account?: string | undefined;
  /** A card's limit and the first row ahead over it (null when none); a card is never warned of $0. */
  readonly overLimit?: { readonly creditLimit: Cents; readonly point: BalancePoint | null } | undefined;
}

interface RowsAndPeriods {
  readonly rows: readonly ForecastRow[];
  readonly periods: readonly PayPeriod[];
}

const periodsByLedger = new WeakMap<LedgerView, RowsAndPeriods>();
/** The last ledger's, with what it was computed from. */
let last: (RowsAndPeriods & { readonly dates: string }) | null = null;

/** Everything the forecast reads of a row is the same (not its status: a Pay or a Clear moves no running balance). */
function sameForecastRow(a: ForecastRow, b: ForecastRow | undefined): boolean {
  return (
    a === b ||
    (b !== undefined &&
      a.date === b.date &&
      a.name === b.name &&
      a.type === b.type &&
      a.amount === b.amount &&
      a.balance === b.balance &&
      a.source?.kind === b.source?.kind &&
      a.bank?.state === b.bank?.state)
  );
}

function rowsAndPeriods(ledger: LedgerView): RowsAndPeriods {
  let found = periodsByLedger.get(ledger);
  if (found === undefined) {
    // The rows as the api client decoded them: in Cents already, so they are the forecast's rows,
    // once a row no longer at the bank says so as the domain reads it (it is no bill: isCounted).
    const rows: readonly ForecastRow[] = ledger.transactions.some((row) => row.bankBadge !== undefined)
      ? ledger.transactions.map((row) => (row.bankBadge === undefined ? row : { ...row, bank: bankOfBadge(row.bankBadge) }))
      : ledger.transactions;
    const dates = `${ledger.startDate} ${ledger.endDate} ${ledger.openingBalance}`;
    // A Pay or a Clear changes no running balance: the forecast stays the very same objects, so the
    // chart, its text and the pay period lines need not be computed or drawn again.
    const unchanged =
      last !== null &&
      last.dates === dates &&
      last.rows.length === rows.length &&
      rows.every((row, index) => sameForecastRow(row, last?.rows[index]));
    if (unchanged && last !== null) found = last;
    else {
      found = { rows, periods: payPeriods(ledger, rows) };
      last = { ...found, dates };
    }
    periodsByLedger.set(ledger, found);
  }
  return found;
}

/**
 * `today` is the page's (decision 0034); null while it is not known, and then nothing is "ahead".
 * `everydayWeekly`: everyday spending out of this account (issue 36), as the server last said; the
 * warning and the pay periods then count it through the one outlook the server reads (decision 0074).
 */
export function ledgerForecast(
  ledger: LedgerView,
  today: IsoDate | null,
  everydayWeekly: Cents = cents(0),
  /** Everyday spending's share of a card's payments in this account (decision 0101), as the server last said: counted, never shown as rows. */
  cardEveryday?: CardEverydayShares,
): LedgerForecast {
  const { rows, periods } = rowsAndPeriods(ledger);
  const shared = cardEveryday !== undefined && cardEveryday.shares.length > 0;
  if ((everydayWeekly > 0 || shared) && today !== null) {
    // The rows as decoded, with what the bank says of each as the forecast's rows read it (isCounted).
    const shareable = () =>
      rows === ledger.transactions ? ledger.transactions : ledger.transactions.map((row, index) => ({ ...row, bank: rows[index]?.bank }));
    const weighed = shared ? weighedInOrder(ledger.openingBalance, shareable(), cardEveryday) : rows;
    const input = { ledger, rows: weighed, today, buffer: cents(0), everydayWeekly };
    // The moments ahead, walked once for the outlook and the pay periods.
    const points = pointsAhead(input);
    const outlook = forecastOutlook(input, points);
    return {
      rows,
      periods: everydayWeekly > 0 ? everydayPayPeriods(input, { points }) : payPeriods(ledger, weighed),
      lowest: outlook.lowest,
      firstBelowZero: outlook.firstBelowZero,
    };
  }
  return {
    rows,
    periods,
    lowest: today === null ? null : lowestAhead(rows, today),
    firstBelowZero: today === null ? null : firstBelowZero(rows, today),
  };
}
