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

/** The ledger shows exactly these rows, in order: date, name and balance of each. */
export async function expectLedgerRows(page: Page, rows: readonly (readonly [string, string, string])[]): Promise<void> {
  const bodyRows = ledgerTable(page).locator('tbody tr');
  await expect(bodyRows).toHaveCount(rows.length);
  for (const [index, [date, name, balance]] of rows.entries()) {
    const row = bodyRows.nth(index);
    await expect(row).toContainText(date);
    await expect(row).toContainText(name);
    await expect(row).toContainText(balance);
  }
}
