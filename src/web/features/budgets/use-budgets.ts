/**
 * The caller's budgets, for the header's switcher and for naming the budget in view (issue 38).
 * For the personal budget the list waits until the view has painted (decision 0073): the first view
 * asks for nothing it did not ask for before budgets were shared. For another budget it is asked for
 * at once: the header names that budget. The calls' code (with the budgets' schemas) loads with the
 * first list, not with the first view.
 */
import { useCallback, useContext, useEffect, useState } from 'react';
import type { Budget } from '../../../contract/budgets.js';
import { useApiClient } from '../../api/api-context.js';
import { BudgetsApiContext } from '../../api/budgets-api-context.js';
import { whenIdleAfterPaint } from '../../first-paint.js';

export interface BudgetList {
  /** null until the list is here (or when it could not be read: the header then shows no switcher). */
  readonly budgets: readonly Budget[] | null;
  /** The budget in view, once the list is here and holds it. */
  readonly current: Budget | undefined;
  /** Reads the list again (after making a budget). */
  readonly reload: () => void;
}

/** `inView`: the id the address names, undefined for the personal budget. */
export function useBudgets(inView: string | undefined): BudgetList {
  const client = useApiClient();
  const given = useContext(BudgetsApiContext);
  const [budgets, setBudgets] = useState<readonly Budget[] | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    // The personal budget's first list is read on the page's own, after its paint: no spinner over the
    // view (decision 0120). A list the header needs at once, or asked for again, shows it.
    const onItsOwn = inView === undefined && generation === 0;
    const read = () => {
      const calls = given
        ? Promise.resolve(given)
        : import('../../api/budget-calls.js').then((code) => code.budgetsApi(onItsOwn ? client.inBackground() : client));
      calls
        .then((api) => api.listBudgets())
        .then(
          (list) => {
            if (live) setBudgets(list);
          },
          // Without the list the page still works in the budget in view; the switcher waits for the next read.
          () => undefined,
        );
    };
    const cancel = onItsOwn ? whenIdleAfterPaint(read, 2000) : (read(), () => undefined);
    return () => {
      live = false;
      cancel();
    };
  }, [client, given, inView, generation]);

  const reload = useCallback(() => setGeneration((count) => count + 1), []);
  const current = budgets?.find((budget) => (inView === undefined ? budget.personal : budget.id === inView));
  return { budgets, current, reload };
}
