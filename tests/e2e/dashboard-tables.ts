/** The dashboard's tables, told apart by a column header only each has, and what the ledger's rows say. */
import { expect, type Locator, type Page } from '@playwright/test';

/** Both the deposits and the expenses tables have a Frequency column; only deposits show a Start Date. */
export function depositsTable(page: Page): Locator {
  return page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Start Date' }) });
}

export function expensesTable(page: Page): Locator {
  return page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'End Date' }) });
}

export function ledgerTable(page: Page): Locator {
  return page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Credit' }) });
}

/** How a person in the US reads a table date ('Fri, Jan 8, 2027'), written by the browser's own Intl, not by our code. */
export function usTableDate(isoDate: string): string {
  const format = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return format.format(new Date(`${isoDate}T00:00:00Z`));
}

/** The ledger's transaction rows (not its pay periods' lines). */
export function ledgerRows(page: Page): Locator {
  return ledgerTable(page).locator('tbody tr.ledger-row');
}

/** The ledger shows exactly these rows, in order: date (YYYY-MM-DD, shown US style), name and balance of each. */
export async function expectLedgerRows(page: Page, rows: readonly (readonly [string, string, string])[]): Promise<void> {
  // The table renders the rows near the viewport (decision 0010): look at it, as a person would.
  await ledgerTable(page).scrollIntoViewIfNeeded();
  const bodyRows = ledgerRows(page);
  await expect(bodyRows).toHaveCount(rows.length);
  for (const [index, [date, name, balance]] of rows.entries()) {
    const row = bodyRows.nth(index);
    await expect(row.locator(`time[datetime="${date}"]`)).toHaveText(usTableDate(date));
    await expect(row).toContainText(name);
    await expect(row).toContainText(balance);
  }
}
