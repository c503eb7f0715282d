/**
 * The page has two routes (the dashboard and the sign-in return), so it keeps the address itself
 * instead of pulling in a router. Every change goes through navigate() so views re-render.
 */
import { useSyncExternalStore } from 'react';

const NAVIGATE_EVENT = 'leftover:navigate';

export function currentAddress(): string {
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

/**
 * The query parameter that names the budget in view (decision 0092): absent for the personal budget,
 * so every address the page had before budgets were shared opens what it did.
 */
export const BUDGET_PARAMETER = 'budget';

/** The budget the address names, or undefined for the personal budget. */
export function budgetOfAddress(search: string = window.location.search): string | undefined {
  const id = new URLSearchParams(search).get(BUDGET_PARAMETER);
  return id === null || id === '' ? undefined : id;
}

/**
 * `path` (a pathname with any query of its own) in the budget `budget` (undefined: the personal
 * one), or in the budget in view when `budget` is not given: a link or a move within the page keeps
 * the budget in view, so the address opened elsewhere shows the same budget.
 */
export function addressInBudget(path: string, ...given: [budget: string | undefined] | []): string {
  const budget = given.length === 0 ? budgetOfAddress() : given[0];
  const at = path.indexOf('?');
  const pathname = at === -1 ? path : path.slice(0, at);
  const query = new URLSearchParams(at === -1 ? '' : path.slice(at + 1));
  query.delete(BUDGET_PARAMETER);
  if (budget !== undefined) query.set(BUDGET_PARAMETER, budget);
  const search = query.toString();
  return search === '' ? pathname : `${pathname}?${search}`;
}

/**
 * Moves to `address` within the budget in view, unless `budget` names another (a switch; null: the
 * personal budget). An address that names its own budget, or has a fragment, is taken as it is
 * (the sign-in's return, which kept the whole address it left from).
 */
export function navigate(address: string, { replace = false, budget }: { replace?: boolean; budget?: string | null } = {}): void {
  const asGiven = address.includes('#') || new URLSearchParams(address.split('?')[1] ?? '').has(BUDGET_PARAMETER);
  const target = budget === undefined ? (asGiven ? address : addressInBudget(address)) : addressInBudget(address, budget ?? undefined);
  if (replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** Calls `onChange` on every move of the address (a link, Back, Forward). */
export function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** The budget in view as the address names it; undefined for the personal budget. */
export function useBudgetInView(): string | undefined {
  return useSyncExternalStore(subscribe, () => budgetOfAddress());
}

/** Only same-site paths are followed after sign-in, so a crafted state cannot send people away. */
export function safeReturnAddress(candidate: unknown): string {
  if (typeof candidate !== 'string' || !candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return '/';
  if (candidate.startsWith('/login/callback')) return '/';
  return candidate;
}
