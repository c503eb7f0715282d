/** "Can I afford it?"'s one sentence (issue 36 item 3), in the product's one date style. */
import type { WhatIfAnswer } from '../../../contract/what-if.js';
import { formatDate, type IsoDate, isoDate } from '../../../domain/calendar-date.js';
import { type Cents, dollarsToCents, formatUsd } from '../../../domain/money.js';

type AccountAnswer = WhatIfAnswer['accounts'][number];

export function whatIfText(amount: Cents, date: IsoDate, answer: AccountAnswer, account: string | undefined): string {
  const spent = `${formatUsd(amount)} on ${formatDate(date)}`;
  const lowest = answer.lowestBeforePayday;
  const before = lowest.untilReason === 'PAYDAY' ? 'before payday' : "before the ledger's end";
  if (answer.affordable) {
    return `Yes. After ${spent}, your lowest balance ${before} is ${formatUsd(dollarsToCents(lowest.balance))} on ${formatDate(isoDate(lowest.date))}.`;
  }
  const whose = account ?? 'your balance';
  const below = answer.after.firstBelowZero;
  // Below $0 from the purchase on, or only below the buffer kept back.
  const where =
    lowest.balance < 0
      ? `below $0 on ${formatDate(isoDate(below !== null && below.date >= date ? below.date : lowest.date))}`
      : `below the ${formatUsd(dollarsToCents(answer.before.safeToSpend?.buffer ?? 0))} you keep on ${formatDate(isoDate(lowest.date))}`;
  const safe = answer.before.safeToSpend;
  const safeText =
    safe === null
      ? ''
      : ` Safe to spend until ${safe.untilReason === 'PAYDAY' ? 'payday' : "the ledger's end"}: ${formatUsd(dollarsToCents(safe.amount))}.`;
  return `No. ${spent} takes ${whose} ${where} (lowest ${formatUsd(dollarsToCents(lowest.balance))}).${safeText}`;
}
