/** The one answer the product exists for: what is left over each month. */
import { type Cents, cents } from './money.js';

export type MonthlySummary =
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'leftover'; readonly amount: Cents }
  | { readonly kind: 'short'; readonly amount: Cents };

/** Needs both totals; a shortfall is reported as a positive amount the user is short by. */
export function summarizeMonth(totalDeposits: Cents, totalExpenses: Cents): MonthlySummary {
  if (totalDeposits === 0 || totalExpenses === 0) return { kind: 'incomplete' };
  const leftover = totalDeposits - totalExpenses;
  return leftover < 0 ? { kind: 'short', amount: cents(-leftover) } : { kind: 'leftover', amount: cents(leftover) };
}
