/**
 * A pay period's summary line (issue 13): where its paycheck's divider was, it says what comes in,
 * what goes out, what is left over and how low the balance gets before the next paycheck.
 */
import { memo } from 'react';
import { formatSummaryDate } from '../../../../domain/calendar-date.js';
import type { PayPeriod } from '../../../../domain/forecast.js';
import { formatUsd } from '../../../../domain/money.js';

export function payPeriodText(period: PayPeriod): string {
  return [
    `Pay period ${formatSummaryDate(period.startDate)} – ${formatSummaryDate(period.endDate)}`,
    `In ${formatUsd(period.income)}`,
    `Out ${formatUsd(period.bills)}`,
    `Left over ${formatUsd(period.leftover)}`,
    `Lowest ${formatUsd(period.lowest)}`,
  ].join(' · ');
}

function isSamePeriod(previous: { readonly period: PayPeriod }, next: { readonly period: PayPeriod }): boolean {
  const a = previous.period;
  const b = next.period;
  return (
    a.startDate === b.startDate &&
    a.endDate === b.endDate &&
    a.income === b.income &&
    a.bills === b.bills &&
    a.lowest === b.lowest &&
    a.endBalance === b.endBalance
  );
}

/** The line as a heading of the rows under it: screen readers can jump from period to period. */
export const PayPeriodHeading = memo(function PayPeriodHeading({ period }: { readonly period: PayPeriod }) {
  return <h3 className={`ledger-period__line${period.lowest < 0 ? ' ledger-period__line--below-zero' : ''}`}>{payPeriodText(period)}</h3>;
}, isSamePeriod);
