import { describe, expect, it } from 'vitest';
import { depositInputSchema } from '../../../contract/deposit-input.js';
import { checkForm } from '../../components/field-errors.js';
import { decidedDepositDay, depositCandidate, EMPTY_DEPOSIT_FORM, shownDepositDay } from './deposit-form-values.js';

describe('decidedDepositDay', () => {
  it('leaves the day to the user until a frequency is picked', () => {
    expect(decidedDepositDay({ frequency: '', startDate: '2026-01-02' })).toBeUndefined();
    expect(shownDepositDay({ ...EMPTY_DEPOSIT_FORM, day: 'Tuesday', startDate: '2026-01-02' })).toBe('Tuesday');
  });

  it('is the weekday of the start date for a bi-weekly deposit, empty without a real date', () => {
    expect(decidedDepositDay({ frequency: 'BW', startDate: '2026-01-02' })).toBe('Friday');
    expect(decidedDepositDay({ frequency: 'BW', startDate: '2024-02-29' })).toBe('Thursday');
    expect(decidedDepositDay({ frequency: 'BW', startDate: '' })).toBe('');
    expect(decidedDepositDay({ frequency: 'BW', startDate: '2026-02-30' })).toBe('');
  });

  it('is the weekday of the start date for a weekly deposit, empty without a date', () => {
    expect(decidedDepositDay({ frequency: 'W', startDate: '2031-01-06' })).toBe('Monday');
    expect(decidedDepositDay({ frequency: 'W', startDate: '' })).toBe('');
  });

  it('is N/A for a twice-a-month, monthly or end-of-month deposit, with or without a date', () => {
    for (const frequency of ['SM', 'M', 'EOM']) {
      expect(decidedDepositDay({ frequency, startDate: '2026-01-30' })).toBe('N/A');
      expect(decidedDepositDay({ frequency, startDate: '' })).toBe('N/A');
    }
  });
});

describe('depositCandidate', () => {
  it('passes the contract check with the decided day, whatever day was picked by hand before', () => {
    const values = {
      ...EMPTY_DEPOSIT_FORM,
      name: 'Paycheck',
      type: 'Direct Deposit',
      day: 'Monday',
      amount: '1500.25',
      startDate: '2026-01-02',
      frequency: 'BW',
    };
    expect(checkForm(depositInputSchema, depositCandidate(values))).toEqual({
      ok: true,
      value: { name: 'Paycheck', type: 'Direct Deposit', day: 'Friday', amount: 1500.25, startDate: '2026-01-02', frequency: 'BW' },
    });
  });

  it('names the account only when one was chosen (with one account, none is sent)', () => {
    expect(depositCandidate(EMPTY_DEPOSIT_FORM)).not.toHaveProperty('accountId');
    expect(depositCandidate({ ...EMPTY_DEPOSIT_FORM, accountId: 's1' })).toHaveProperty('accountId', 's1');
  });

  it('keeps an empty amount missing, so the contract says it is required rather than zero', () => {
    expect(depositCandidate(EMPTY_DEPOSIT_FORM).amount).toBeUndefined();
  });
});
