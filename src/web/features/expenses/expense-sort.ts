/** The orders the Sort dialog offers. Pure: the list is sorted on the page, not by the server. */
import type { ExpenseView } from '../../../contract/codecs.js';
import type { ExpenseSort } from '../../../contract/expenses.js';
import { compareNames } from '../../../domain/names.js';

type CompareExpenses = (a: ExpenseView, b: ExpenseView) => number;

// The server's own order for names (case-insensitive, then code points; decision 0006), so
// "day, then name" and NameAsc agree on ties.
const ascending = {
  Name: (a, b) => compareNames(a.name, b.name),
  Type: (a, b) => compareNames(a.type, b.type),
  Day: (a, b) => a.day - b.day,
  // Cents: integer comparison never depends on how a double rounds.
  Amount: (a, b) => a.amount - b.amount,
} satisfies Record<string, CompareExpenses>;

function descending(compare: CompareExpenses): CompareExpenses {
  return (a, b) => compare(b, a);
}

const COMPARATORS: Record<ExpenseSort, CompareExpenses> = {
  NameAsc: ascending.Name,
  NameDesc: descending(ascending.Name),
  TypeAsc: ascending.Type,
  TypeDesc: descending(ascending.Type),
  DayAsc: ascending.Day,
  DayDesc: descending(ascending.Day),
  AmountAsc: ascending.Amount,
  AmountDesc: descending(ascending.Amount),
};

/** What the Sort By options say; their values stay the contract's codes. */
export const EXPENSE_SORT_LABELS: Record<ExpenseSort, string> = {
  NameAsc: 'Name (A to Z)',
  NameDesc: 'Name (Z to A)',
  TypeAsc: 'Type (A to Z)',
  TypeDesc: 'Type (Z to A)',
  DayAsc: 'Day (1 to 31)',
  DayDesc: 'Day (31 to 1)',
  AmountAsc: 'Amount (smallest first)',
  AmountDesc: 'Amount (largest first)',
};

/**
 * A new list in the chosen order. Without a choice the server's order stays (day, then name);
 * ties keep that order too, because Array.prototype.sort is stable.
 */
export function sortExpenses(expenses: readonly ExpenseView[], sort: ExpenseSort | null): ExpenseView[] {
  return sort === null ? [...expenses] : [...expenses].sort(COMPARATORS[sort]);
}
