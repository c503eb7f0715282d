/**
 * A pay period's summary line (issue 13): where its paycheck's divider was, it says what comes in,
 * what goes out, what is left over and how low the balance gets before the next paycheck. It is a
 * heading of the rows under it, so screen readers can jump from period to period, and it is laid
 * out as tall as a row: the windowed lists place what they do not render by one height (decision 0010).
 */
import { memo } from 'react';
import type { PayPeriod } from '../../../../domain/forecast.js';
import { PERIOD_WORDS, payPeriodParts, payPeriodText, periodDates, SEPARATOR } from '../../../forecast/pay-period-text.js';

export { payPeriodText };

function isSamePeriod(previous: PayPeriodHeadingProps, next: PayPeriodHeadingProps): boolean {
  const a = previous.period;
  const b = next.period;
  return (
    previous.layout === next.layout &&
    a.startDate === b.startDate &&
    a.endDate === b.endDate &&
    a.income === b.income &&
    a.bills === b.bills &&
    a.lowest === b.lowest &&
    a.endBalance === b.endBalance
  );
}

interface PayPeriodHeadingProps {
  readonly period: PayPeriod;
  /** One line across the table, or the compact row's lines (the separators between them are read, not shown). */
  readonly layout: 'table' | 'compact';
}

export const PayPeriodHeading = memo(function PayPeriodHeading({ period, layout }: PayPeriodHeadingProps) {
  const belowZero = period.lowest < 0 ? ' ledger-period__line--below-zero' : '';
  if (layout === 'table') return <h3 className={`ledger-period__line ledger-period__line--table${belowZero}`}>{payPeriodText(period)}</h3>;
  const parts = payPeriodParts(period);
  const read = <span className="visually-hidden">{SEPARATOR}</span>;
  return (
    <h3 className={`ledger-period__line ledger-period__line--compact${belowZero}`}>
      {/* On a phone only the dates show (both fit in the line then); the words are still read. */}
      <span className="ledger-period__dates">
        <span className="ledger-period__words">{PERIOD_WORDS}</span>
        {periodDates(period)}
      </span>
      {read}
      <span className="ledger-compact__line ledger-compact__line--status small">
        <span>
          {parts.income}
          {SEPARATOR}
          {parts.bills}
        </span>
        {read}
        <span>{parts.leftover}</span>
      </span>
      {read}
      <span className="ledger-period__lowest small">{parts.lowest}</span>
    </h3>
  );
}, isSamePeriod);
