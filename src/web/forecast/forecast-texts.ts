/**
 * The forecast's sentences, word for word as issue 13 gives them; the Summary and the ledger's header say the same.
 * The below-zero sentence is markup in below-zero-warning.tsx: the bill's name in it is isolated (<bdi>).
 */
import { formatDate } from '../../domain/calendar-date.js';
import type { BalancePoint } from '../../domain/forecast.js';
import { formatUsd } from '../../domain/money.js';

export function lowestAheadText(lowest: BalancePoint): string {
  return `Lowest balance ahead: ${formatUsd(lowest.balance)} on ${formatDate(lowest.date)}`;
}
