/**
 * The undo status's live region (issue 24): on the page from the start, empty and taking no room,
 * because a live region must exist before it speaks; what it says (undo-status.tsx) is drawn inside
 * it from the first offer on. Its code is a chunk loaded alongside the first view's requests, in
 * hand long before the first write (benchmark 4a: with React in the shared chunk, decision 0048,
 * a chunk of its own no longer splits the first view).
 */
import { useState } from 'react';
import { loadAlongside } from '../components/load-alongside.js';
import { useUndo } from './undo-context.js';

const UndoStatus = loadAlongside(() => import('./undo-status.js').then((module) => module.UndoStatus));

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
