/**
 * The three views' navigation (issue 24): links named exactly "Home", "Ledger" and "Plan" on every
 * screen size, the current one marked with aria-current="page". They are real links, so a middle
 * click or a modified click opens a new tab as browsers do; a plain click moves within the page.
 */
import type { MouseEvent } from 'react';
import { addressInBudget, navigate, useBudgetInView } from '../navigation.js';

export const VIEW_PATHS = { home: '/', ledger: '/ledger', plan: '/plan' } as const;

const LINKS = [
  { path: VIEW_PATHS.home, label: 'Home' },
  { path: VIEW_PATHS.ledger, label: 'Ledger' },
  { path: VIEW_PATHS.plan, label: 'Plan' },
] as const;

/** Follows a plain left click within the page; lets the browser handle every other click. */
export function followInPage(event: MouseEvent<HTMLAnchorElement>, path: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  if (window.location.pathname !== path) {
    // Within the page the move keeps the budget in view (navigate).
    navigate(path);
    window.scrollTo(0, 0);
  }
}

export function ViewNav({ pathname }: { readonly pathname: string }) {
  // The links carry the budget in view, so one opened in a new tab shows the same budget.
  const budget = useBudgetInView();
  return (
    <nav className="view-nav" aria-label="Views">
      <ul className="nav nav-underline container-xl flex-nowrap">
        {LINKS.map(({ path, label }) => {
          const current = pathname === path;
          return (
            <li key={path} className="nav-item">
              <a
                className={current ? 'nav-link active' : 'nav-link'}
                href={addressInBudget(path, budget)}
                aria-current={current ? 'page' : undefined}
                onClick={(event) => followInPage(event, path)}
              >
                {label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
