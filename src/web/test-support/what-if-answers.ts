/** What-if answers as the server sends them, for the page's tests of "Can I afford it?" (issue 36). */
import type { WhatIfAnswer } from '../../contract/what-if.js';

type AccountAnswer = WhatIfAnswer['accounts'][number];

interface BalancePoint {
  readonly date: string;
  readonly name: string;
  readonly balance: number;
}

/** $312.40 to spend until Friday Dec 4's payday, the lowest point the Visa payment of Dec 1. */
export const SAFE_UNTIL_PAYDAY = {
  amount: 312.4,
  perDay: 52.07,
  until: '2026-12-04',
  untilReason: 'PAYDAY',
  lowestDate: '2026-12-01',
  lowestName: 'Visa payment',
  buffer: 0,
} as const;

interface AccountAnswerOptions {
  readonly accountId?: string;
  readonly affordable: boolean;
  /** The lowest balance before payday with the purchase; below $0 it is also the day the forecast first goes below. */
  readonly lowest: BalancePoint;
  /** The payday that ends the lowest's stretch. */
  readonly until: string;
}

/** One account's answer: the purchase's lowest point before payday, and the same outlook before and after it. */
export function whatIfAccountAnswer({ accountId = 'a1', affordable, lowest, until }: AccountAnswerOptions): AccountAnswer {
  const outlook = { lowest, firstBelowZero: lowest.balance < 0 ? lowest : null, safeToSpend: SAFE_UNTIL_PAYDAY };
  return { accountId, before: outlook, after: outlook, lowestBeforePayday: { ...lowest, until, untilReason: 'PAYDAY' }, affordable };
}
