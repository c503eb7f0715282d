import { describe, expect, it } from 'vitest';
import type { WhatIfAnswer } from '../../../contract/what-if.js';
import { isoDate } from '../../../domain/calendar-date.js';
import { cents } from '../../../domain/money.js';
import { whatIfText } from './what-if-text.js';

type AccountAnswer = WhatIfAnswer['accounts'][number];

const SAFE = {
  amount: 312.4,
  perDay: 52.07,
  until: '2026-12-04',
  untilReason: 'PAYDAY',
  lowestDate: '2026-12-01',
  lowestName: 'Visa payment',
  buffer: 0,
} as const;

function answer(affordable: boolean, balance: number): AccountAnswer {
  const point = { date: '2026-12-15', name: 'Rent', balance };
  const outlook = { lowest: point, firstBelowZero: balance < 0 ? point : null, safeToSpend: SAFE };
  return {
    accountId: 'a1',
    before: outlook,
    after: outlook,
    lowestBeforePayday: { date: '2026-12-15', name: 'Rent', balance, until: '2026-12-18', untilReason: 'PAYDAY' },
    affordable,
  };
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
