/** What a person does on the dashboard, step by step, found by role and name as they see it. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { ExpenseFrequency, Frequency } from '../../src/domain/schedules.js';

/** The three views (issue 24) and the sections each shows, by their headings' names. */
export const VIEW_SECTIONS = {
  Home: ['Summary', 'Next 14 days'],
  Ledger: ['Ledger'],
  Plan: ['Accounts', 'Deposits', 'Expenses'],
} as const;

export type ViewName = keyof typeof VIEW_SECTIONS;

/** Each view's own address. */
export const VIEW_PATHS: Readonly<Record<ViewName, string>> = { Home: '/', Ledger: '/ledger', Plan: '/plan' };

/** A link of the navigation bar, named exactly as the view. */
export function viewLink(page: Page, view: ViewName): Locator {
  return page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view, exact: true });
}

/** The view's sections are shown (open) and its link is the current one; its loads have answered. */
export async function expectView(page: Page, view: ViewName): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === VIEW_PATHS[view]);
  await expect(viewLink(page, view)).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle(`${view} · Leftover`);
  for (const section of VIEW_SECTIONS[view]) {
    await expect(page.getByRole('button', { name: section, exact: true })).toHaveAttribute('aria-expanded', 'true');
  }
  await settled(page);
}

/** Opens a view as a person does: through its link in the navigation bar. */
export async function openView(page: Page, view: ViewName): Promise<void> {
  await viewLink(page, view).click();
  await expectView(page, view);
}

export interface DepositEntry {
  readonly name: string;
  readonly type: 'Direct Deposit' | 'Check';
  readonly amount: string;
  readonly startDate: string;
  readonly frequency: Frequency;
}

export async function addDeposit(page: Page, deposit: DepositEntry): Promise<void> {
  await page.getByRole('button', { name: 'Add Deposit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Deposit' });
  await dialog.getByLabel('Name').fill(deposit.name);
  await dialog.getByLabel('Type').selectOption(deposit.type);
  await dialog.getByLabel('Frequency').selectOption(deposit.frequency);
  await dialog.getByLabel('Start Date').fill(deposit.startDate);
  await dialog.getByLabel('Amount').fill(deposit.amount);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** A monthly bill (the form's default) has a Day; the others a Start Date, their first due date. */
export type ExpenseEntry = {
  readonly name: string;
  readonly type: string;
  readonly amount: string;
  readonly endDate?: string;
  /** The account it is paid from, by name: the dialog asks only when there is more than one (issue 25). */
  readonly account?: string;
  /** The account it pays into, by name, making it a recurring transfer (issue 25). */
  readonly to?: string;
} & (
  | { readonly frequency?: 'M'; readonly day: string; readonly startDate?: string }
  | { readonly frequency: Exclude<ExpenseFrequency, 'M'>; readonly startDate: string }
);

export async function addExpense(page: Page, expense: ExpenseEntry): Promise<void> {
  await page.getByRole('button', { name: 'Add Expense' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Expense' });
  await dialog.getByLabel('Name').fill(expense.name);
  await dialog.getByLabel('Type').fill(expense.type);
  if (expense.frequency) await dialog.getByLabel('Frequency').selectOption(expense.frequency);
  if ('day' in expense) await dialog.getByLabel('Day').fill(expense.day);
  if (expense.startDate) await dialog.getByLabel('Start Date').fill(expense.startDate);
  await dialog.getByLabel('Amount').fill(expense.amount);
  if (expense.endDate) await dialog.getByLabel('End Date').fill(expense.endDate);
  if (expense.account) await dialog.getByLabel('Account', { exact: true }).selectOption({ label: expense.account });
  if (expense.to) await dialog.getByLabel('To', { exact: true }).selectOption({ label: expense.to });
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
}

export async function createLedger(page: Page, ledger: { startDate: string; endDate: string; currentBalance: string }): Promise<void> {
  await page.getByRole('button', { name: 'New Ledger' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Ledger' });
  await dialog.getByLabel('Start Date').fill(ledger.startDate);
  await dialog.getByLabel('End Date').fill(ledger.endDate);
  await dialog.getByLabel('Current Balance').fill(ledger.currentBalance);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
}

export async function addTransaction(page: Page, row: { date: string; name: string; type: 'D' | 'C'; amount: string }): Promise<void> {
  await page.getByRole('button', { name: 'Add Transaction' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Transaction' });
  await dialog.getByLabel('Date').fill(row.date);
  await dialog.getByLabel('Name').fill(row.name);
  await dialog.getByLabel('Type').selectOption(row.type);
  await dialog.getByLabel('Amount').fill(row.amount);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The spinner is gone: every request the page started has answered. */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('.spinner-overlay')).toHaveCount(0);
}
