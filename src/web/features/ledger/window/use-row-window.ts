/**
 * The DOM side of a windowed list of ledger rows (row-window.ts does the arithmetic). The page
 * scrolls as a whole document, so the window follows the rows' container in the viewport: read on
 * scroll, on resize and whenever the document changes size (a section above opens or closes), at
 * most once per animation frame.
 */
import { type FocusEvent, type ReactElement, type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { rememberedRowsTop, rememberRowsTop, type RowList, useAfterFirstFrame } from '../../../components/use-after-first-frame.js';
import { loadedSegments, type RowSegment, rowSegments, rowWindow, type RowWindow, windowNeedsRender } from './row-window.js';

/**
 * About half a screen of rows beyond each edge: a fast wheel turn or a Tab still lands on rendered
 * rows. Not in the first frame, which holds only the rows on screen (decision 0121).
 */
export const ROW_OVERSCAN = 10;
/** Rows the first frame may hold beyond the screen without a render to take them away. */
const FIRST_FRAME_SLACK = 2;
/** Measured heights within this of the current one change nothing: sub-pixel rounding is not a resize. */
const ROW_HEIGHT_TOLERANCE = 0.5;

/**
 * How rendered rows are numbered for assistive technology: the attribute, and the number the row
 * at index 0 carries (a table's header row is row 1, so its first body row is 2).
 */
export interface RowNumbering {
  readonly attribute: 'aria-rowindex' | 'aria-posinset';
  readonly first: number;
}

interface RowWindowOptions {
  readonly rowCount: number;
  /**
   * The first guess at a row's height, and the figure used where nothing is laid out (component
   * tests in jsdom). The real height is measured from the rendered rows (zoom, font settings).
   */
  readonly estimatedRowHeight: number;
  readonly numbering: RowNumbering;
}

/** Where the rows are relative to the viewport, as last read from the page. */
interface Geometry {
  readonly scrollOffset: number;
  readonly viewportHeight: number;
  readonly rowHeight: number;
}

interface RowWindowView<Container extends HTMLElement> {
  /** Attach to the element whose children are the rows and the spacers. */
  readonly containerRef: RefObject<Container | null>;
  /** The rows in or near the viewport. */
  readonly visible: RowWindow;
  readonly rowHeight: number;
}

function windowOf(geometry: Geometry, rowCount: number, overscan: number): RowWindow {
  return rowWindow({ ...geometry, rowCount, overscan });
}

function rowSelector(numbering: RowNumbering, index: number): string {
  return `:scope > [${numbering.attribute}="${index + numbering.first}"]`;
}

/**
 * The height of one row, from the top of the window's first row to the bottom of its last (rows are
 * all the same height, and a run of them averages out sub-pixel borders), or null without layout.
 */
function measuredRowHeight(container: HTMLElement, rendered: RowWindow, numbering: RowNumbering): number | null {
  const count = rendered.end - rendered.first;
  if (count <= 0) return null;
  const firstRow = container.querySelector(rowSelector(numbering, rendered.first));
  const lastRow = container.querySelector(rowSelector(numbering, rendered.end - 1));
  if (firstRow === null || lastRow === null) return null;
  const height = (lastRow.getBoundingClientRect().bottom - firstRow.getBoundingClientRect().top) / count;
  return height > 0 ? height : null;
}

function useRowWindow<Container extends HTMLElement>({
  rowCount,
  estimatedRowHeight,
  numbering,
}: RowWindowOptions): RowWindowView<Container> {
  const containerRef = useRef<Container>(null);
  const list: RowList = numbering.attribute === 'aria-rowindex' ? 'ledger-table' : 'ledger-list';
  // Until the first measurement: the rows begin where they did when the ledger was last shown, at
  // the top of the page the first time (in jsdom, with nothing laid out, the rows that fit in
  // window.innerHeight). The measurement before the paint corrects the window (decision 0121).
  const [geometry, setGeometry] = useState<Geometry>(() => ({
    scrollOffset: window.scrollY - (rememberedRowsTop(list) ?? 0),
    viewportHeight: window.innerHeight,
    rowHeight: estimatedRowHeight,
  }));
  const overscan = useAfterFirstFrame(rowCount > 0) ? ROW_OVERSCAN : 0;
  const currentWindow = windowOf(geometry, rowCount, overscan);

  // What the listeners compare with: the state of the last commit.
  const latest = useRef({ rowCount, geometry, rendered: currentWindow, numbering, overscan, list });
  useLayoutEffect(() => {
    latest.current = { rowCount, geometry, rendered: currentWindow, numbering, overscan, list };
  });

  const measure = useCallback(() => {
    const container = containerRef.current;
    if (container === null) return;
    const { rowCount: count, geometry: current, rendered, numbering: rows, overscan, list: where } = latest.current;
    const measured = measuredRowHeight(container, rendered, rows);
    const rowHeight = measured !== null && Math.abs(measured - current.rowHeight) > ROW_HEIGHT_TOLERANCE ? measured : current.rowHeight;
    const top = container.getBoundingClientRect().top;
    // Where the rows began, for the next first frame (decision 0121); scrolls and resizes leave it.
    if (measured !== null && overscan === 0) rememberRowsTop(where, top + window.scrollY);
    const next: Geometry = { scrollOffset: -top, viewportHeight: window.innerHeight, rowHeight };
    const after = windowOf(next, count, overscan);
    // The rendered rows still cover the window, with no more than an overscan to spare (in the first
    // frame a few rows, where the remembered place was a little off): no render.
    if (rowHeight !== current.rowHeight || windowNeedsRender(rendered, after, Math.max(overscan, FIRST_FRAME_SLACK))) setGeometry(next);
  }, []);

  // Before the first paint and whenever the row count changes (a filter, an added or deleted row):
  // the rows' place is known only once they are laid out, and a wrong first window would flash.
  useLayoutEffect(() => {
    measure();
  }, [measure, rowCount]);

  useEffect(() => {
    let frame: number | null = null;
    const schedule = () => {
      if (frame !== null) return;
      frame = requestAnimationFrame(() => {
        frame = null;
        measure();
      });
    };
    const options: AddEventListenerOptions = { passive: true };
    window.addEventListener('scroll', schedule, options);
    window.addEventListener('resize', schedule, options);
    // The document grows or shrinks without a scroll when a section above opens or closes.
    const resizes = typeof ResizeObserver === 'function' ? new ResizeObserver(schedule) : null;
    resizes?.observe(document.documentElement);
    return () => {
      window.removeEventListener('scroll', schedule, options);
      window.removeEventListener('resize', schedule, options);
      resizes?.disconnect();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [measure]);

  return { containerRef, visible: currentWindow, rowHeight: geometry.rowHeight };
}

/** Anything the window lists: a transaction row or a pay period's summary line, named by a stable key. */
export interface WindowItem {
  readonly key: string;
}

interface KeptRow {
  /** The row holding the keyboard focus, which must stay rendered, or null. */
  readonly keptIndex: number | null;
  /** For the rows' container: focus events bubble up to it from the rows' buttons. */
  readonly onFocus: (event: FocusEvent<HTMLElement>) => void;
  readonly onBlur: (event: FocusEvent<HTMLElement>) => void;
}

/**
 * The row that holds the keyboard focus stays rendered when it is scrolled out of the window:
 * removing the focused button from the DOM would drop focus to the page's start.
 */
function useKeptRow(items: readonly WindowItem[], numbering: RowNumbering): KeptRow {
  const [focusedRowId, setFocusedRowId] = useState<string | null>(null);
  const focusedIndex = focusedRowId === null ? -1 : items.findIndex((item) => item.key === focusedRowId);

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const row = event.target.closest(`[${numbering.attribute}]`);
    const index = row === null ? -1 : Number(row.getAttribute(numbering.attribute)) - numbering.first;
    setFocusedRowId(items[index]?.key ?? null);
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    // No new target: the browser window lost focus or the button was disabled; the row may get it back.
    if (event.relatedTarget instanceof Node && !event.currentTarget.contains(event.relatedTarget)) setFocusedRowId(null);
  };
  return { keptIndex: focusedIndex < 0 ? null : focusedIndex, onFocus, onBlur };
}

interface WindowedRows<Container extends HTMLElement> extends Pick<KeptRow, 'onFocus' | 'onBlur'> {
  /** Attach to the element whose children are the rows and the spacers, with onFocus and onBlur. */
  readonly containerRef: RefObject<Container | null>;
  /** The body from top to bottom: runs of rendered rows and the spacers between them. */
  readonly segments: RowSegment[];
}

/** Items that stand for more than they hold: a window of the ledger (decision 0053). */
interface PartialItems {
  /** Every item of the whole list, of which `items` are the first: the rest are spacer until they come. */
  readonly itemCount?: number;
  /** Called when the window reaches past the items held: the caller fetches the rest. */
  readonly onPastLoaded?: () => void;
}

/** The window over these rows, the row that keeps the focus, and the segments they make together. */
export function useWindowedRows<Container extends HTMLElement>(
  items: readonly WindowItem[],
  { itemCount, onPastLoaded, ...options }: Omit<RowWindowOptions, 'rowCount'> & PartialItems,
): WindowedRows<Container> {
  const loaded = items.length;
  const rowCount = Math.max(itemCount ?? loaded, loaded);
  const { containerRef, visible, rowHeight } = useRowWindow<Container>({ ...options, rowCount });
  const { keptIndex, onFocus, onBlur } = useKeptRow(items, options.numbering);
  const pastLoaded = visible.end > loaded;
  useEffect(() => {
    if (pastLoaded) onPastLoaded?.();
  }, [pastLoaded, onPastLoaded]);
  const segments = rowSegments({ visible, rowCount, rowHeight, keptIndex });
  return { containerRef, segments: rowCount > loaded ? loadedSegments(segments, loaded, rowHeight) : segments, onFocus, onBlur };
}

/**
 * The rows and spacers as one flat list of keyed elements. Flat and keyed so a row that stays
 * rendered never changes parent or moves in the DOM, which would drop its focus; a spacer is keyed
 * by the row after it (or as the last), so it keeps its identity as the window moves.
 */
export function windowedRows<Item extends WindowItem>(
  segments: readonly RowSegment[],
  items: readonly Item[],
  renderRow: (item: Item, index: number) => ReactElement,
  renderSpacer: (key: string, height: number) => ReactElement,
): ReactElement[] {
  return segments.flatMap((segment, position) => {
    if (segment.kind === 'rows')
      return items.slice(segment.first, segment.end).map((item, offset) => renderRow(item, segment.first + offset));
    const next = segments[position + 1];
    const key = next?.kind === 'rows' ? `spacer-before-${items[next.first]?.key ?? ''}` : 'spacer-last';
    return [renderSpacer(key, segment.height)];
  });
}
