import { describe, expect, it } from 'vitest';
import { formatDateText } from './dialog-dates.js';

describe('formatDateText', () => {
  it('writes a real date as the page writes every date', () => {
    expect(formatDateText('2027-01-05')).toBe('Tue, Jan 5, 2027');
    expect(formatDateText('2028-02-29')).toBe('Tue, Feb 29, 2028');
  });

  it('leaves text that is no date as it is', () => {
    expect(formatDateText('')).toBe('');
    expect(formatDateText('2027-02-30')).toBe('2027-02-30');
    expect(formatDateText('01/05/2027')).toBe('01/05/2027');
  });
});
