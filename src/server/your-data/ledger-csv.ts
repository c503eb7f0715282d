/**
 * The ledger as a CSV file (issue 15): the register's rows in row order with the balances its
 * answer shows and a bank row's badge (issue 37), written by papaparse (RFC 4180: quotes where
 * needed, CRLF line ends).
 */
import { LEDGER_CSV_COLUMNS } from '../../contract/ledger-csv.js';
import { computeBalances } from '../../domain/balances.js';
import { badgeOfState } from '../../domain/bank-sync/bank-rows.js';
import type { Cents } from '../../domain/money.js';
import type { LedgerWithRows } from '../ledger/index.js';

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (OWASP CSV injection): a
 * single quote in front makes it text. Written here rather than with papaparse's escapeFormulae:
 * that option applies to every text column, and would also mark our negative balances ("-12.34")
 * as text; and its default pattern (/^[=+\-@\t\r].*$/, no dotAll) lets through a value that goes on
 * after a line break, such as "=1+1\nx".
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function spreadsheetText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** "1234.50", "-12.34": two decimals, no currency sign, no thousands separator, in integer arithmetic. */
export function csvAmount(amount: Cents): string {
  const magnitude = Math.abs(amount);
  const whole = Math.floor(magnitude / 100);
  const fraction = String(magnitude % 100).padStart(2, '0');
  return `${amount < 0 ? '-' : ''}${whole}.${fraction}`;
}

/**
 * Every row of the ledger, balances from computeBalances as in the ledger answer. A 5-year ledger
 * (about 2,000 rows) is about 120 KB of text, so it is built as one string, not streamed.
 */
export async function ledgerCsv({ ledger, rows }: LedgerWithRows): Promise<string> {
  // Loaded with the first export, not at start (decision 0041).
  const { default: Papa } = await import('papaparse');
  const data = computeBalances(ledger.openingBalance, rows).rows.map((row) => [
    row.date,
    spreadsheetText(row.name),
    row.type,
    row.type === 'D' ? csvAmount(row.amount) : '',
    row.type === 'C' ? csvAmount(row.amount) : '',
    csvAmount(row.balance),
    row.status,
    // A row no longer at the bank keeps its amount and counts in no balance: its badge says why.
    badgeOfState(row.bank?.state) ?? '',
  ]);
  return Papa.unparse({ fields: [...LEDGER_CSV_COLUMNS], data }, { newline: '\r\n' });
}
