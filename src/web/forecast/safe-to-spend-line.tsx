/**
 * Home's first line (issue 36, decision 0074): safe to spend until payday, or how much is short
 * before it, in the product's one date style. Names are isolated (<bdi>): a bidi override in an
 * account's or a row's name cannot reorder the sentence.
 */
import type { SafeToSpendView } from '../../contract/codecs.js';
import { formatDate } from '../../domain/calendar-date.js';
import { cents, formatUsd } from '../../domain/money.js';
import { EVERYDAY_POINT_NAME } from '../../domain/safe-to-spend.js';

interface SafeToSpendLineProps {
  readonly safe: SafeToSpendView;
  /** The account's name, said when the user has several. */
  readonly account?: string | undefined;
}

export function SafeToSpendLine({ safe, account }: SafeToSpendLineProps) {
  // Without a paycheck ahead the window runs to the ledger's end, and the line says so.
  const until = safe.untilReason === 'PAYDAY' ? 'payday' : "the ledger's end";
  const from = account ? (
    <>
      {' '}
      in <bdi>{account}</bdi>
    </>
  ) : null;
  if (safe.perDay === null) {
    const why =
      safe.lowestName === null ? null : safe.lowestName === EVERYDAY_POINT_NAME ? (
        ', with everyday spending'
      ) : (
        <>
          , when <bdi>{safe.lowestName}</bdi> is due
        </>
      );
    return (
      <p className="safe-to-spend lead fw-semibold mb-3">
        You are {formatUsd(cents(-safe.amount))} short{from} before {until} ({formatDate(safe.until)}): the lowest point is{' '}
        {formatDate(safe.lowestDate)}
        {why}.
      </p>
    );
  }
  return (
    <p className="safe-to-spend lead fw-semibold mb-3">
      Safe to spend{from} until {until} ({formatDate(safe.until)}): {formatUsd(safe.amount)} · about {formatUsd(safe.perDay)} a day
    </p>
  );
}
