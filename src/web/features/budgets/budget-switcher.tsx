/**
 * The budget in view in the header (issue 38): its name, and a menu to switch to another budget, make
 * one, and see its members. Only the button is in the first view; the menu and its dialogs load
 * when first opened (as "Your data"'s do).
 */
import { useId, useRef, useState } from 'react';
import { Button } from '../../components/button.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import type { BudgetList } from './use-budgets.js';

const BudgetPanel = lazyDialog(
  () => import('./budget-panel.js').then((module) => module.BudgetPanel),
  (props) => props.open,
);

export function BudgetSwitcher({ list }: { readonly list: BudgetList }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const { budgets, current } = list;
  // Until the list is here the header shows what it showed before budgets were shared.
  if (budgets === null) return null;
  return (
    <div className="your-data budget-switcher" ref={container}>
      <Button
        variant="light"
        size="sm"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((shown) => !shown)}
        title={current?.name}
        aria-label={`Budget: ${current?.name ?? 'not known'}`}
      >
        {current?.name ?? 'Budgets'}
      </Button>
      {/* A viewer's writes are refused (decision 0092): the header says so before they try. */}
      {current?.role === 'VIEWER' ? <span className="badge text-bg-light ms-2">View only</span> : null}
      <BudgetPanel id={menuId} open={open} within={container} list={list} onClose={() => setOpen(false)} />
    </div>
  );
}
