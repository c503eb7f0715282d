import { describe, expect, it } from 'vitest';
import { expenseInputSchema } from '../../../contract/expense-input.js';
import { checkForm } from '../../components/field-errors.js';
import { EMPTY_EXPENSE_FORM, expenseCandidate, expenseFormValuesOf } from './expense-form-values.js';

describe('expense form values', () => {
  it('opens a new expense as a monthly bill with no start date', () => {
    expect(EMPTY_EXPENSE_FORM.frequency).toBe('M');
    expect(EMPTY_EXPENSE_FORM.startDate).toBe('');
  });

  it('opens a stored expense at its frequency and start date', () => {
    const values = expenseFormValuesOf({
      id: 'e1',
      name: 'Insurance',
      type: 'Car',
      frequency: 'Q',
      day: 31,
      amount: 300,
      startDate: '2031-01-31',
      endDate: null,
    });
    expect(values).toEqual({
      name: 'Insurance',
      type: 'Car',
      frequency: 'Q',
      day: '31',
      startDate: '2031-01-31',
      amount: '300.00',
      endDate: '',
      accountId: '',
      toAccountId: '',
    });
  });

  it('opens a stored expense at its account when the answer names one, and sends it', () => {
    const values = expenseFormValuesOf({
      id: 'e1',
      name: 'Gym',
      type: 'Health',
      frequency: 'M',
      day: 15,
      amount: 40,
      startDate: null,
      endDate: null,
      accountId: 's1',
    });
    expect(values.accountId).toBe('s1');
    expect(expenseCandidate(values)).toHaveProperty('accountId', 's1');
    expect(expenseCandidate({ ...values, accountId: '' })).not.toHaveProperty('accountId');
  });

  it('opens a recurring transfer at the account it pays into; None sends null, and no account sends neither', () => {
    const values = expenseFormValuesOf({
      id: 'e2',
      name: 'To savings',
      type: 'Saving',
      frequency: 'M',
      day: 1,
      amount: 100,
      startDate: null,
      endDate: null,
      accountId: 'c1',
      toAccountId: 's1',
    });
    expect(values.toAccountId).toBe('s1');
    expect(expenseCandidate(values)).toMatchObject({ accountId: 'c1', toAccountId: 's1' });
    expect(expenseCandidate({ ...values, toAccountId: '' })).toMatchObject({ accountId: 'c1', toAccountId: null });
    expect(expenseCandidate({ ...values, accountId: '', toAccountId: '' })).not.toHaveProperty('toAccountId');
    expect(checkForm(expenseInputSchema, expenseCandidate(values))).toMatchObject({ ok: true, value: { toAccountId: 's1' } });
  });

  it('leaves out a day typed while the bill was monthly: the contract derives it from the start date', () => {
    const values = {
      ...EMPTY_EXPENSE_FORM,
      name: 'Insurance',
      type: 'Car',
      frequency: 'Y',
      day: '10',
      startDate: '2031-03-15',
      amount: '600',
    };
    expect(expenseCandidate(values).day).toBeUndefined();
    expect(checkForm(expenseInputSchema, expenseCandidate(values))).toEqual({
      ok: true,
      value: { name: 'Insurance', type: 'Car', frequency: 'Y', day: 15, startDate: '2031-03-15', amount: 600, endDate: null },
    });
  });

  it('sends a monthly bill its own day, and no start date when none is given', () => {
    const values = { ...EMPTY_EXPENSE_FORM, name: 'Rent', type: 'Housing', day: '1', amount: '1200' };
    expect(checkForm(expenseInputSchema, expenseCandidate(values))).toEqual({
      ok: true,
      value: { name: 'Rent', type: 'Housing', frequency: 'M', day: 1, startDate: null, amount: 1200, endDate: null },
    });
  });
});
