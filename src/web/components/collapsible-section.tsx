/**
 * One section of the dashboard: a heading that toggles its body, in Bootstrap's accordion
 * markup. Sections open independently (all start open), so there is no shared accordion state.
 */
import { type ReactNode, useId, useState } from 'react';

interface CollapsibleSectionProps {
  readonly title: string;
  readonly children: ReactNode;
}

export function CollapsibleSection({ title, children }: CollapsibleSectionProps) {
  const [open, setOpen] = useState(true);
  const bodyId = useId();
  return (
    <div className="accordion-item">
      <h2 className="accordion-header">
        <button
          type="button"
          className={open ? 'accordion-button' : 'accordion-button collapsed'}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((current) => !current)}
        >
          {title}
        </button>
      </h2>
      <div id={bodyId} className={open ? 'accordion-collapse collapse show' : 'accordion-collapse collapse'}>
        <div className="accordion-body">{children}</div>
      </div>
    </div>
  );
}
