/**
 * The ledger's CSV (issue 15): its columns and its file name, apart from the rest of your data's
 * contract (your-data.ts), whose answer schemas the Ledger view's first paint would otherwise build
 * (58 of its 305 zod schemas) only to name a download.
 */

/**
 * The CSV's columns, in order. `Bank` is a bank row's badge ("Pending at the bank", "No longer at
 * the bank"), empty on every other row; last, so the columns before it are where they always were
 * (decision 0086).
 */
export const LEDGER_CSV_COLUMNS = ['Date', 'Name', 'Type', 'Debit', 'Credit', 'Balance', 'Status', 'Bank'] as const;

/** The CSV's file name, as the answer's Content-Disposition gives it and the page saves it. */
export function ledgerCsvFileName(startDate: string, endDate: string): string {
  return `leftover-ledger-${startDate}-to-${endDate}.csv`;
}
