/**
 * "Will I make it to payday?" on the page: the same pure functions as the server's forecast
 * answer, over the ledger answer the page already holds, so a Pay or an edit updates the pay
 * periods and the warning without a second request. The Summary and the Ledger both read it; the
 * result is kept per ledger answer, so it is computed once for both.
 */
import type { Ledger } from '../../contract/ledger.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { type BalancePoint, firstBelowZero, type ForecastRow, lowestAhead, type PayPeriod, payPeriods } from '../../domain/forecast.js';
import { dollarsToCents } from '../../domain/money.js';

export interface LedgerForecast {
  /** The ledger's rows in cents, in row order, with their running balances. */
  readonly rows: readonly ForecastRow[];
  readonly periods: readonly PayPeriod[];
  /** Null until the server's today is known, or when no row is dated today or later. */
  readonly lowest: BalancePoint | null;
  readonly firstBelowZero: BalancePoint | null;
}

const periodsByLedger = new WeakMap<Ledger, { rows: readonly ForecastRow[]; periods: readonly PayPeriod[] }>();

function rowsAndPeriods(ledger: Ledger) {
  let found = periodsByLedger.get(ledger);
  if (found === undefined) {
    const rows: ForecastRow[] = ledger.transactions.map((transaction) => ({
      date: transaction.date as IsoDate,
      name: transaction.name,
      type: transaction.type,
      amount: dollarsToCents(transaction.amount),
      balance: dollarsToCents(transaction.balance),
      source: transaction.source,
    }));
    const ledgerDates = {
      startDate: ledger.startDate as IsoDate,
      endDate: ledger.endDate as IsoDate,
      openingBalance: dollarsToCents(ledger.openingBalance),
    };
    found = { rows, periods: payPeriods(ledgerDates, rows) };
    periodsByLedger.set(ledger, found);
  }
  return found;
}

/** `today` is the server's (decision 0015): null while it is not known, and then nothing is "ahead". */
export function ledgerForecast(ledger: Ledger, today: IsoDate | null): LedgerForecast {
  const { rows, periods } = rowsAndPeriods(ledger);
  return {
    rows,
    periods,
    lowest: today === null ? null : lowestAhead(rows, today),
    firstBelowZero: today === null ? null : firstBelowZero(rows, today),
  };
}
