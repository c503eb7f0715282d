/** The chosen expense order, remembered in this browser across reloads. */
import { useCallback, useState } from 'react';
import { EXPENSE_SORTS, type ExpenseSort } from '../../../contract/expenses.js';

export const EXPENSE_SORT_STORAGE_KEY = 'leftover.expenseSort';

function isExpenseSort(text: string | null): text is ExpenseSort {
  return (EXPENSE_SORTS as readonly (string | null)[]).includes(text);
}

/** The remembered sort, or null for the default order (also when storage holds something else). */
function readExpenseSort(): ExpenseSort | null {
  try {
    const stored = window.localStorage.getItem(EXPENSE_SORT_STORAGE_KEY);
    return isExpenseSort(stored) ? stored : null;
  } catch {
    // Storage can be blocked (privacy settings); the page then uses the default order.
    return null;
  }
}

function writeExpenseSort(sort: ExpenseSort | null): void {
  try {
    if (sort === null) window.localStorage.removeItem(EXPENSE_SORT_STORAGE_KEY);
    else window.localStorage.setItem(EXPENSE_SORT_STORAGE_KEY, sort);
  } catch {
    // Blocked storage: the choice still holds until the page reloads.
  }
}

export function useExpenseSort(): [ExpenseSort | null, (sort: ExpenseSort | null) => void] {
  const [sort, setSort] = useState(readExpenseSort);
  const chooseSort = useCallback((next: ExpenseSort | null) => {
    setSort(next);
    writeExpenseSort(next);
  }, []);
  return [sort, chooseSort];
}
