/**
 * "Your data" beside "Sign out" (issue 15): download everything, restore it from a file, or delete
 * it all. Only the button is in the first view; the menu and its dialogs load when first opened.
 */
import { useId, useRef, useState } from 'react';
import { Button } from '../../components/button.js';
import { lazyDialog } from '../../components/lazy-dialog.js';

const YourDataPanel = lazyDialog(
  () => import('./your-data-panel.js').then((module) => module.YourDataPanel),
  (props) => props.open,
);

export interface YourDataMenuProps {
  /** After a restore or a deletion: every section must load again. */
  readonly onDataReplaced: () => void;
}

export function YourDataMenu({ onDataReplaced }: YourDataMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  return (
    <div className="your-data" ref={container}>
      <Button
        variant="light"
        size="sm"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((shown) => !shown)}
      >
        Your data
      </Button>
      <YourDataPanel id={menuId} open={open} within={container} onClose={() => setOpen(false)} onDataReplaced={onDataReplaced} />
    </div>
  );
}
