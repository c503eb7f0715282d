/**
 * Where component tests hand the budgets' parts their own calls. Apart from budget-calls.ts: the
 * header's list (use-budgets.ts) is in the first view and loads the calls' code only when it asks.
 */
import { createContext } from 'react';
import type { BudgetsApi } from './budget-calls.js';

export const BudgetsApiContext = createContext<BudgetsApi | null>(null);

/** Component tests hand the budgets' parts their own calls; the page builds them from the api client. */
export const BudgetsApiProvider = BudgetsApiContext.Provider;
