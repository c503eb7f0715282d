/** What a person does on the dashboard, step by step, found by role and name as they see it. */
import { expect, type Page } from '@playwright/test';
import type { ExpenseFrequency, Frequency } from '../../src/domain/schedules.js';

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
