/**
 * What a list holds below the screen waits for the frame after its first (issue 35: nothing before
 * paint that the view does not show; decision 0121). The first frame of the Ledger's rows and of
 * Plan's tables holds the rows that reach the screen; the rest (the Ledger's overscan, the tables'
 * lower rows) comes in the task after that frame.
 *
 * Where a list's rows begin on the page is known only once it is laid out. It is remembered from the
 * last time the list was shown (local storage, per list), so the first render holds the right rows
 * at once; a measurement before the paint adds any that are missing. A second render pass before the
 * paint costs a forced layout and runs the first commit's effects early, ahead of the frame.
 */
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { afterNextFrame } from '../first-paint.js';

/** False until the frame in which `ready` first became true has been produced; true from then on. */
export function useAfterFirstFrame(ready: boolean): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    if (!ready || after) return;
    // That frame shows what this commit rendered.
    return afterNextFrame(() => setAfter(true));
  }, [ready, after]);
  return after;
}

const PLACES_KEY = 'leftover.rowsTop';

/** The lists whose place is remembered: the Ledger's two layouts and Plan's two tables. */
export type RowList = 'ledger-table' | 'ledger-list' | 'deposits' | 'expenses';

function storedPlaces(): Partial<Record<RowList, number>> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(PLACES_KEY) ?? '{}');
    return parsed !== null && typeof parsed === 'object' ? (parsed as Partial<Record<RowList, number>>) : {};
  } catch {
    // Storage blocked or the value not ours: nothing remembered.
    return {};
  }
}

/** Where the list's first row began, in px from the document's top, when it was last shown; undefined when never. */
export function rememberedRowsTop(list: RowList): number | undefined {
  const top = storedPlaces()[list];
  return typeof top === 'number' && Number.isFinite(top) && top >= 0 ? top : undefined;
}

/** Remembers where the list's first row begins (only when it moved by a pixel or more). */
export function rememberRowsTop(list: RowList, top: number): void {
  const places = storedPlaces();
  const known = places[list];
  if (!Number.isFinite(top) || (known !== undefined && Math.abs(known - top) < 1)) return;
  try {
    window.localStorage.setItem(PLACES_KEY, JSON.stringify({ ...places, [list]: Math.round(top) }));
  } catch {
    // Storage full or blocked: the next first frame measures instead.
  }
}

interface RowsOnFirstScreen<Body extends HTMLElement> {
  /** Attach to the element whose children are the rows (a table's tbody). */
  readonly bodyRef: RefObject<Body | null>;
  /** How many of the rows to render, from the first. */
  readonly shownRows: number;
}

/**
 * How many of a list's rows to render: in its first frame those from the first down to the
 * screen's bottom (from where the list was last shown, then as many more as the rendered ones say
 * are missing, before the paint); every row from the next frame on. Without layout (component
 * tests) every row at once.
 */
export function useRowsOnFirstScreen<Body extends HTMLElement>(
  rowCount: number,
  list: RowList,
  estimatedRowHeight: number,
): RowsOnFirstScreen<Body> {
  const bodyRef = useRef<Body>(null);
  const after = useAfterFirstFrame(rowCount > 0);
  const [fitting, setFitting] = useState(() => {
    const top = rememberedRowsTop(list);
    return top === undefined ? 1 : Math.max(1, Math.ceil((window.innerHeight - top) / estimatedRowHeight));
  });
  const shownRows = after ? rowCount : Math.min(rowCount, fitting);

  useLayoutEffect(() => {
    const rows = bodyRef.current?.children;
    if (after || rows === undefined) return;
    const first = rows[0];
    const last = rows[Math.min(shownRows, rows.length) - 1];
    if (first === undefined || last === undefined) return;
    const top = first.getBoundingClientRect().top;
    const bottom = last.getBoundingClientRect().bottom;
    if (bottom <= top) {
      setFitting(rowCount);
      return;
    }
    rememberRowsTop(list, top + window.scrollY);
    // The rendered rows end above the screen's bottom: as many more as fit at their mean height.
    if (shownRows < rowCount && bottom < window.innerHeight)
      setFitting(shownRows + Math.ceil((window.innerHeight - bottom) / ((bottom - top) / shownRows)));
  }, [after, list, rowCount, shownRows]);

  return { bodyRef, shownRows };
}
