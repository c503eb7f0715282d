/**
 * Which rows of a long table are in the DOM: those in the viewport plus an overscan on each side,
 * and the spacers that stand in for the rest so the table keeps its full height. Pure arithmetic
 * over figures the caller reads from the page, so it is tested without a layout engine.
 */

export interface RowWindowInput {
  /** How far the viewport's top is below the first row's top, in px; negative while the rows start lower down. */
  readonly scrollOffset: number;
  readonly viewportHeight: number;
  /** Every row is this tall, in px (more than 0). */
  readonly rowHeight: number;
  readonly rowCount: number;
  /** Rows rendered beyond each edge of the viewport, so the next Tab or a short scroll finds a row there. */
  readonly overscan: number;
}

/** The rendered rows: indices from `first` up to, not including, `end`. */
export interface RowWindow {
  readonly first: number;
  readonly end: number;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

export function rowWindow({ scrollOffset, viewportHeight, rowHeight, rowCount, overscan }: RowWindowInput): RowWindow {
  if (rowCount <= 0) return { first: 0, end: 0 };
  // A page that has not laid out yet (or a test without layout) reports NaN or 0: start at the top.
  const offset = Number.isFinite(scrollOffset) ? scrollOffset : 0;
  const height = Number.isFinite(viewportHeight) ? Math.max(viewportHeight, 0) : 0;
  const pitch = rowHeight > 0 ? rowHeight : 1;
  const visibleFirst = clamp(Math.floor(offset / pitch), 0, rowCount);
  const visibleEnd = clamp(Math.ceil((offset + height) / pitch), visibleFirst, rowCount);
  // Scrolled past the last row, or the rows still below the fold: the overscan rows nearest the
  // viewport stay rendered, so the window is never empty.
  const first = Math.max(0, Math.min(visibleFirst, rowCount - 1) - overscan);
  const end = Math.min(rowCount, Math.max(visibleEnd, first + 1) + overscan);
  return { first, end };
}

/**
 * Whether the rendered rows must change to show `wanted`: it reaches past them, or they hold more
 * than `slack` rows beyond it on a side. A few rows too many are left as they are: removing them
 * costs a render and a layout, and before the first paint that is time the user waits (the first
 * window is guessed before the rows' place on the page is known, and is a little too long).
 */
export function windowNeedsRender(rendered: RowWindow, wanted: RowWindow, slack: number): boolean {
  if (wanted.first < rendered.first || wanted.end > rendered.end) return true;
  return wanted.first - rendered.first > slack || rendered.end - wanted.end > slack;
}

/** A run of rendered rows, or a spacer of the given height standing in for `rows` rows. */
export type RowSegment =
  | { readonly kind: 'rows'; readonly first: number; readonly end: number }
  | { readonly kind: 'spacer'; readonly rows: number; readonly height: number };

interface RowSegmentsInput {
  /** The rows in or near the viewport. */
  readonly visible: RowWindow;
  readonly rowCount: number;
  readonly rowHeight: number;
  /**
   * A row that must stay rendered outside the window (it holds the keyboard focus), or null. Its
   * neighbours stay too, so Tab and Shift+Tab from it reach the next and previous rows.
   */
  readonly keptIndex: number | null;
}

/** Rows kept on each side of the kept row. */
const KEPT_NEIGHBOURS = 1;

/** The table body from top to bottom: rendered runs in row order, spacers for the gaps between them. */
export function rowSegments({ visible, rowCount, rowHeight, keptIndex }: RowSegmentsInput): RowSegment[] {
  const runs: RowWindow[] = [];
  if (visible.end > visible.first) runs.push(visible);
  if (keptIndex !== null && keptIndex >= 0 && keptIndex < rowCount) {
    const kept = { first: Math.max(0, keptIndex - KEPT_NEIGHBOURS), end: Math.min(rowCount, keptIndex + KEPT_NEIGHBOURS + 1) };
    runs.push(kept);
    runs.sort((a, b) => a.first - b.first);
  }
  // Overlapping or touching runs become one, so no spacer of zero rows sits between them.
  const merged: RowWindow[] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (last !== undefined && run.first <= last.end) merged[merged.length - 1] = { first: last.first, end: Math.max(last.end, run.end) };
    else merged.push(run);
  }
  const segments: RowSegment[] = [];
  let next = 0;
  const spacer = (rows: number) => segments.push({ kind: 'spacer', rows, height: rows * rowHeight });
  for (const run of merged) {
    if (run.first > next) spacer(run.first - next);
    segments.push({ kind: 'rows', first: run.first, end: run.end });
    next = run.end;
  }
  if (rowCount > next) spacer(rowCount - next);
  return segments;
}

/**
 * The segments with only the first `loaded` rows rendered (decision 0053): the rest of a run that
 * reaches past them is a spacer, as tall as the rows it stands for, merged with the spacers beside it.
 */
export function loadedSegments(segments: readonly RowSegment[], loaded: number, rowHeight: number): RowSegment[] {
  const result: RowSegment[] = [];
  const spacer = (rows: number) => {
    const last = result.at(-1);
    if (last?.kind === 'spacer')
      result[result.length - 1] = { kind: 'spacer', rows: last.rows + rows, height: (last.rows + rows) * rowHeight };
    else result.push({ kind: 'spacer', rows, height: rows * rowHeight });
  };
  for (const segment of segments) {
    if (segment.kind === 'spacer') spacer(segment.rows);
    else if (segment.end <= loaded) result.push(segment);
    else {
      if (segment.first < loaded) result.push({ kind: 'rows', first: segment.first, end: loaded });
      spacer(segment.end - Math.max(segment.first, loaded));
    }
  }
  return result;
}
