import { describe, expect, it } from 'vitest';
import { expenseDayText } from './expense-day-text.js';

describe('expenseDayText', () => {
  it('is the day of the month for a monthly bill, with or without a first month', () => {
    expect(expenseDayText({ frequency: 'M', day: 15, startDate: null })).toBe('15');
    expect(expenseDayText({ frequency: 'M', day: 31, startDate: '2031-02-01' })).toBe('31');
  });

  it('is the weekday of the start date for a weekly or every-2-weeks bill', () => {
    // 2031-01-06 is a Monday, 2031-01-31 a Friday.
    expect(expenseDayText({ frequency: 'W', day: 6, startDate: '2031-01-06' })).toBe('Mondays');
    expect(expenseDayText({ frequency: 'BW', day: 31, startDate: '2031-01-31' })).toBe('Every other Friday');
  });

  it('names the four dates of a quarterly bill in calendar order, each month at most its last day', () => {
    expect(expenseDayText({ frequency: 'Q', day: 15, startDate: '2031-03-15' })).toBe('Mar 15, Jun 15, Sep 15, Dec 15');
    expect(expenseDayText({ frequency: 'Q', day: 10, startDate: '2031-11-10' })).toBe('Feb 10, May 10, Aug 10, Nov 10');
    expect(expenseDayText({ frequency: 'Q', day: 31, startDate: '2031-01-31' })).toBe('Jan 31, Apr 30, Jul 31, Oct 31');
    // February 29 in leap years, the 28th in others, as the schedule does.
    expect(expenseDayText({ frequency: 'Q', day: 31, startDate: '2031-05-31' })).toBe('Feb 29, May 31, Aug 31, Nov 30');
  });

  it('is the month and day of the start date for a yearly bill', () => {
    expect(expenseDayText({ frequency: 'Y', day: 15, startDate: '2031-03-15' })).toBe('Mar 15');
    expect(expenseDayText({ frequency: 'Y', day: 29, startDate: '2032-02-29' })).toBe('Feb 29');
    expect(expenseDayText({ frequency: 'Y', day: 1, startDate: '2031-12-01' })).toBe('Dec 1');
  });

  it('falls back to the day when a bill that is not monthly has no real start date', () => {
    expect(expenseDayText({ frequency: 'Y', day: 15, startDate: null })).toBe('15');
    expect(expenseDayText({ frequency: 'W', day: 30, startDate: '2031-02-30' })).toBe('30');
  });
});
