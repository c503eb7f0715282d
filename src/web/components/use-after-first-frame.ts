/**
 * What a list holds below the screen waits for the frame after its first (issue 35: nothing before
 * paint that the view does not show; decision 0121). The first frame of the Ledger's rows and of
 * Plan's tables holds the rows that reach the screen, measured before the paint; the rest (the
 * Ledger's overscan, the tables' lower rows) comes in the task after that frame.
 */
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** False until the frame in which `ready` first became true has been produced; true from then on. */
export function useAfterFirstFrame(ready: boolean): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    if (!ready || after) return;
    // The task after the next animation frame: that frame shows what this commit rendered.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setAfter(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [ready, after]);
  return after;
}

interface RowsOnFirstScreen<Body extends HTMLElement> {
  /** Attach to the element whose children are the rows (a table's tbody). */
  readonly bodyRef: RefObject<Body | null>;
  /** How many of the rows to render, from the first. */
  readonly shownRows: number;
}

/**
 * How many of a list's rows to render: in its first frame those from the first down to the
 * screen's bottom (one row, then as many more as the rendered ones say fit, each pass before the
 * paint); every row from the next frame on. Without layout (component tests) every row at once.
 */
export function useRowsOnFirstScreen<Body extends HTMLElement>(rowCount: number): RowsOnFirstScreen<Body> {
  const bodyRef = useRef<Body>(null);
  const after = useAfterFirstFrame(rowCount > 0);
  const [fitting, setFitting] = useState(1);
  const shownRows = after ? rowCount : Math.min(rowCount, fitting);

  useLayoutEffect(() => {
    const rows = bodyRef.current?.children;
    if (after || rows === undefined || shownRows >= rowCount) return;
    const first = rows[0];
    const last = rows[shownRows - 1];
    if (first === undefined || last === undefined) return;
    const top = first.getBoundingClientRect().top;
    const bottom = last.getBoundingClientRect().bottom;
    if (bottom <= top) {
      setFitting(rowCount);
      return;
    }
    // The rendered rows end above the screen's bottom: as many more as fit at their mean height.
    if (bottom < window.innerHeight) setFitting(shownRows + Math.ceil((window.innerHeight - bottom) / ((bottom - top) / shownRows)));
  }, [after, rowCount, shownRows]);

  return { bodyRef, shownRows };
}
