/**
 * The undo status's live region (issue 24): on the page from the start, empty and taking no room,
 * because a live region must exist before it speaks; what it says (undo-status.tsx) is drawn inside
 * it from the first offer on. (A chunk of its own cost the first view more than it saved: splitting
 * it moved React into a shared chunk of its own, benchmark 4a.)
 */
import { useState } from 'react';
import { useUndo } from './undo-context.js';

import { UndoStatus } from './undo-status.js';

export function UndoRegion() {
  const { offer } = useUndo();
  const [started, setStarted] = useState(false);
  // Adjusted while rendering (React's pattern for state derived from props): no extra effect pass.
  if (offer !== null && !started) setStarted(true);
  return (
    <div className="undo-region" role="status">
      {started ? <UndoStatus /> : null}
    </div>
  );
}
