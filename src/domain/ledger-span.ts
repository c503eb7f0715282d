/**
 * How far a ledger may reach: five years from its start, and never past the last date there is.
 * Apart from ledger.ts, which the page's first view loads (benchmark 4a): only the dialogs, the
 * contract's checks and the server need this.
 */
import { addYears, type IsoDate } from './calendar-date.js';
import { MAX_LEDGER_YEARS } from './ledger.js';

/** The last date there is: dates have four-digit years, so nothing may be computed past this one. */
export const LAST_DATE = '9999-12-31' as IsoDate;

/** The latest start date of a new ledger: its five years must end by LAST_DATE. */
export const LATEST_LEDGER_START = '9994-12-31' as IsoDate;

/**
 * A ledger spans at most five years: the end date may be the same calendar day five years on, and
 * never past LAST_DATE (a ledger stored before LATEST_LEDGER_START was enforced ends there).
 */
export function latestLedgerEnd(startDate: IsoDate): IsoDate {
  return startDate > LATEST_LEDGER_START ? LAST_DATE : addYears(startDate, MAX_LEDGER_YEARS);
}
