/**
 * A pay period's line in words (issue 13), word for word: the Ledger's period headings and Home's
 * current pay period say the same. Apart from the headings' markup, so Home's first view carries
 * only the words (benchmark 4a).
 */
import { formatDate } from '../../domain/calendar-date.js';
import type { PayPeriod } from '../../domain/forecast.js';
import { type Cents, formatUsd } from '../../domain/money.js';

export const SEPARATOR = ' · ';

export const PERIOD_WORDS = 'Pay period ';

/** "Fri, Jan 8, 2027 – Thu, Jan 21, 2027": the period's first and last day. */
export const periodDates = (period: PayPeriod) => `${formatDate(period.startDate)} – ${formatDate(period.endDate)}`;

export function payPeriodParts(period: PayPeriod) {
  return {
    dates: PERIOD_WORDS + periodDates(period),
    income: `In ${formatUsd(period.income)}`,
    bills: `Out ${formatUsd(period.bills)}`,
    leftover: `Left over ${formatUsd(period.leftover)}`,
    lowest: `Lowest ${formatUsd(period.lowest)}`,
  };
}

/**
 * `Pay period {start} – {end} · In {income} · Out {bills} · Left over {leftover} · Lowest {lowest}`, word for word;
 * with everyday spending counted (issue 36), `· Everyday about {amount}` after it.
 */
export function payPeriodText(period: PayPeriod & { readonly everyday?: Cents | undefined }): string {
  const text = Object.values(payPeriodParts(period)).join(SEPARATOR);
  return period.everyday === undefined ? text : `${text}${SEPARATOR}Everyday about ${formatUsd(period.everyday)}`;
}
