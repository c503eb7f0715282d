import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../domain/calendar-date.js';
import { cents } from '../../../domain/money.js';
import { whatIfAccountAnswer } from '../../test-support/what-if-answers.js';
import { whatIfText } from './what-if-text.js';

function answer(affordable: boolean, balance: number) {
  return whatIfAccountAnswer({ affordable, lowest: { date: '2026-12-15', name: 'Rent', balance }, until: '2026-12-18' });
}

describe('the answer to "Can I afford it?"', () => {
  it('says yes with the lowest balance before payday, in the issue’s words', () => {
    expect(whatIfText(cents(40_000), isoDate('2026-12-11'), answer(true, 112.4), undefined)).toBe(
      'Yes. After $400.00 on Fri, Dec 11, 2026, your lowest balance before payday is $112.40 on Tue, Dec 15, 2026.',
    );
  });

  it('says no, naming the account, the day below $0, the lowest and safe to spend', () => {
    expect(whatIfText(cents(40_000), isoDate('2026-12-11'), answer(false, -87.6), 'Checking')).toBe(
      'No. $400.00 on Fri, Dec 11, 2026 takes Checking below $0 on Tue, Dec 15, 2026 (lowest -$87.60). Safe to spend until payday: $312.40.',
    );
  });
});
