import { describe, expect, it } from 'vitest';
import type { ExpenseView } from '../../../contract/codecs.js';
import { EXPENSE_SORTS } from '../../../contract/expenses.js';
import { expenseAnswer } from '../../test-support/answers.js';
import { EXPENSE_SORT_LABELS, sortExpenses } from './expense-sort.js';

function expense(id: string, name: string, type: string, day: number, amount: number): ExpenseView {
  return expenseAnswer({ id, name, type, frequency: 'M', day, amount, startDate: null, endDate: null });
}

// In the server's default order: day, then name.
const GYM = expense('gym', 'Gym', 'Health', 1, 40);
const RENT = expense('rent', 'Rent', 'Housing', 1, 1500);
const internet = expense('internet', 'internet', 'Utilities', 10, 59.99);
const WATER = expense('water', 'Water', 'Utilities', 10, 40);
const CAR = expense('car', 'Car Loan', 'Transport', 28, 1000000.1);
const INSURANCE = expense('insurance', 'Insurance', 'Transport', 28, 1000000.01);
const DEFAULT_ORDER = [GYM, RENT, internet, WATER, CAR, INSURANCE];

const ids = (expenses: readonly ExpenseView[]) => expenses.map((item) => item.id);

describe('sortExpenses', () => {
  it('keeps the server order (day, then name) when nothing is chosen, in a new list', () => {
    const sorted = sortExpenses(DEFAULT_ORDER, null);
    expect(ids(sorted)).toEqual(ids(DEFAULT_ORDER));
    expect(sorted).not.toBe(DEFAULT_ORDER);
  });

  it('does not change the list it is given', () => {
    const original = [...DEFAULT_ORDER];
    sortExpenses(DEFAULT_ORDER, 'AmountDesc');
    expect(DEFAULT_ORDER).toEqual(original);
  });

  it('sorts by name, ignoring case, both ways', () => {
    expect(ids(sortExpenses(DEFAULT_ORDER, 'NameAsc'))).toEqual(['car', 'gym', 'insurance', 'internet', 'rent', 'water']);
    expect(ids(sortExpenses(DEFAULT_ORDER, 'NameDesc'))).toEqual(['water', 'rent', 'internet', 'insurance', 'gym', 'car']);
  });

  it('sorts by type both ways; equal types keep the default order', () => {
    expect(ids(sortExpenses(DEFAULT_ORDER, 'TypeAsc'))).toEqual(['gym', 'rent', 'car', 'insurance', 'internet', 'water']);
    expect(ids(sortExpenses(DEFAULT_ORDER, 'TypeDesc'))).toEqual(['internet', 'water', 'car', 'insurance', 'rent', 'gym']);
  });

  it('sorts by day both ways; the same day stays ordered by name', () => {
    expect(ids(sortExpenses(DEFAULT_ORDER, 'DayAsc'))).toEqual(['gym', 'rent', 'internet', 'water', 'car', 'insurance']);
    expect(ids(sortExpenses(DEFAULT_ORDER, 'DayDesc'))).toEqual(['car', 'insurance', 'internet', 'water', 'gym', 'rent']);
  });

  it('sorts by amount in cents both ways; equal amounts keep the default order', () => {
    expect(ids(sortExpenses(DEFAULT_ORDER, 'AmountAsc'))).toEqual(['gym', 'water', 'internet', 'rent', 'insurance', 'car']);
    expect(ids(sortExpenses(DEFAULT_ORDER, 'AmountDesc'))).toEqual(['car', 'insurance', 'rent', 'internet', 'gym', 'water']);
  });

  it('tells a cent apart even in large amounts', () => {
    const a = expense('a', 'A', 'T', 1, 99999999.98);
    const b = expense('b', 'B', 'T', 1, 99999999.99);
    expect(ids(sortExpenses([b, a], 'AmountAsc'))).toEqual(['a', 'b']);
  });

  it('has a label for every sort the contract offers', () => {
    for (const sort of EXPENSE_SORTS) expect(EXPENSE_SORT_LABELS[sort]).toMatch(/^(Name|Type|Day|Amount) \(/);
  });
});
