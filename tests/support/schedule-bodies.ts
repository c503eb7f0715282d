/**
 * Deposits and expenses as the page sends them, and the ledger answers as tests read them: shared by
 * the API tests that build ledgers from schedules (living ledger, forecast).
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type Ledger, ledgerInfoSchema, type LedgerTransaction } from '../../src/contract/ledger.js';
import { isoDate } from '../../src/domain/calendar-date.js';
import { expectedDepositDay, type Frequency } from '../../src/domain/schedules.js';

export interface DepositBody {
  readonly name: string;
  readonly amount: number;
  readonly startDate: string;
  readonly frequency: Frequency;
}

/** A monthly bill. */
export interface ExpenseBody {
  readonly name: string;
  readonly amount: number;
  readonly day: number;
  readonly endDate?: string | null;
}

/** The whole deposit as the page sends it: the day is the one the start date and frequency require. */
export function depositInput(deposit: DepositBody) {
  return { ...deposit, type: 'Direct Deposit', day: expectedDepositDay(deposit.frequency, isoDate(deposit.startDate)) };
}

/** A monthly bill as the page sends it, which is also how the expenses answer shows it. */
export function expenseInput(expense: ExpenseBody) {
  return { ...expense, type: 'Bill', frequency: 'M', startDate: null, endDate: expense.endDate ?? null };
}

export function okJson(response: LightMyRequestResponse): unknown {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export function ledgerOf(response: LightMyRequestResponse): Ledger {
  const { ledger } = ledgerInfoSchema.parse(okJson(response));
  if (!ledger) throw new Error('expected a ledger in the answer');
  return ledger;
}

/** The ledger's row of that name (on that date, when given); a test that names a missing row fails. */
export function byName(ledger: Ledger, name: string, date?: string): LedgerTransaction {
  const row = ledger.transactions.find((candidate) => candidate.name === name && (date === undefined || candidate.date === date));
  if (!row) throw new Error(`no row ${name} ${date ?? ''}`);
  return row;
}
