/**
 * "Can I afford it?" (issue 36 item 3, decision 0076): the forecast of an account with purchases
 * added as unpaid debits that are never stored, seen before and after through the one outlook
 * (safe-to-spend.ts). Pure: the rows come in, the answer goes out.
 */
import { computeBalances } from './balances.js';
import type { IsoDate } from './calendar-date.js';
import type { LedgerRow } from './ledger.js';
import { type Cents, cents } from './money.js';
import {
  forecastOutlook,
  type LowestDay,
  lowestOverDays,
  type Outlook,
  type OutlookLedger,
  spendingWindow,
  type UntilReason,
} from './safe-to-spend.js';

/** What a purchase is called when the asker gave it no name. */
export const PURCHASE_NAME = 'Purchase';

export interface Purchase {
  readonly date: IsoDate;
  readonly amount: Cents;
  readonly name: string;
}

export interface WhatIfInput {
  readonly ledger: OutlookLedger;
  /** The account's stored rows, in any order. */
  readonly rows: readonly LedgerRow[];
  readonly today: IsoDate;
  readonly buffer: Cents;
  readonly everydayWeekly?: Cents;
  /** At least one, each dated within the ledger from today on (the caller checked). */
  readonly purchases: readonly Purchase[];
}

/** The lowest balance after the purchases, from the first one's date to the day before the paycheck after the last one. */
export interface LowestBeforePayday extends LowestDay {
  readonly until: IsoDate;
  readonly untilReason: UntilReason;
}

export interface WhatIf {
  readonly before: Outlook;
  readonly after: Outlook;
  readonly lowestBeforePayday: LowestBeforePayday;
  /** The lowest balance before payday, the purchases counted, stays at or above the buffer. */
  readonly affordable: boolean;
}

export function whatIf(input: WhatIfInput): WhatIf {
  const { ledger, rows, today, buffer, purchases } = input;
  const everydayWeekly = input.everydayWeekly ?? cents(0);
  let sequence = 0;
  for (const row of rows) sequence = Math.max(sequence, row.sequence);
  // After every stored row of their date, type and name: the purchase is made last, as an added row would be.
  const added: LedgerRow[] = purchases.map((purchase, index) => ({
    id: `what-if-${index + 1}`,
    sequence: sequence + 1 + index,
    date: purchase.date,
    name: purchase.name,
    type: 'D',
    amount: purchase.amount,
    status: 'PENDING',
    source: null,
    transfer: null,
  }));
  const beforeRows = computeBalances(ledger.openingBalance, rows).rows;
  const afterRows = computeBalances(ledger.openingBalance, [...rows, ...added]).rows;
  const afterInput = { ledger, rows: afterRows, today, buffer, everydayWeekly };
  let first = (purchases[0] as Purchase).date;
  let last = first;
  for (const purchase of purchases) {
    if (purchase.date < first) first = purchase.date;
    if (purchase.date > last) last = purchase.date;
  }
  const window = spendingWindow(afterRows, last, ledger.endDate);
  const lowest = lowestOverDays(afterInput, first, window.last);
  return {
    before: forecastOutlook({ ledger, rows: beforeRows, today, buffer, everydayWeekly }),
    after: forecastOutlook(afterInput),
    lowestBeforePayday: { ...lowest, until: window.until, untilReason: window.untilReason },
    affordable: lowest.balance >= buffer,
  };
}
