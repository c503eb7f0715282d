import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RowSegment, rowSegments, rowWindow, type RowWindowInput, windowNeedsRender } from './row-window.js';

const ROW = 50;
const base: RowWindowInput = { scrollOffset: 0, viewportHeight: 500, rowHeight: ROW, rowCount: 1000, overscan: 5 };

describe('rowWindow', () => {
  it('renders nothing for no rows', () => {
    expect(rowWindow({ ...base, rowCount: 0 })).toEqual({ first: 0, end: 0 });
    expect(rowWindow({ ...base, rowCount: 0, scrollOffset: 4000 })).toEqual({ first: 0, end: 0 });
  });

  it('renders the rows in the viewport and the overscan below, at the top', () => {
    // 500 px of 50 px rows is rows 0 to 9.
    expect(rowWindow(base)).toEqual({ first: 0, end: 15 });
  });

  it('renders every row when fewer rows than fit', () => {
    expect(rowWindow({ ...base, rowCount: 4 })).toEqual({ first: 0, end: 4 });
    expect(rowWindow({ ...base, rowCount: 12, scrollOffset: 100 })).toEqual({ first: 0, end: 12 });
  });

  it('adds the overscan on both sides in the middle, counting a partly shown row', () => {
    // 1025 to 1525 px shows rows 20 (partly) to 30 (partly).
    expect(rowWindow({ ...base, scrollOffset: 1025 })).toEqual({ first: 15, end: 36 });
  });

  it('keeps the overscan rows nearest the viewport while the rows start below it', () => {
    // The table's first row is 2,000 px below the viewport's top: nothing shows yet.
    expect(rowWindow({ ...base, scrollOffset: -2000 })).toEqual({ first: 0, end: 6 });
    // 100 px of it shows at the viewport's bottom: rows 0 and 1.
    expect(rowWindow({ ...base, scrollOffset: -400 })).toEqual({ first: 0, end: 7 });
  });

  it('ends at the last row, and keeps the last rows when scrolled past the end', () => {
    expect(rowWindow({ ...base, scrollOffset: 1000 * ROW - 500 })).toEqual({ first: 985, end: 1000 });
    expect(rowWindow({ ...base, scrollOffset: 1000 * ROW + 3000 })).toEqual({ first: 994, end: 1000 });
  });

  it('starts at the top when the page reports no layout (NaN) and never renders zero rows of a ledger', () => {
    expect(rowWindow({ ...base, scrollOffset: Number.NaN })).toEqual({ first: 0, end: 15 });
    expect(rowWindow({ ...base, viewportHeight: 0 })).toEqual({ first: 0, end: 6 });
    expect(rowWindow({ ...base, rowHeight: 0, rowCount: 3 })).toEqual({ first: 0, end: 3 });
  });

  it('always covers the viewport with rows it renders, within the rows that exist', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: -100_000, max: 300_000 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 10, max: 100 }),
        fc.integer({ min: 0, max: 20 }),
        (rowCount, scrollOffset, viewportHeight, rowHeight, overscan) => {
          const { first, end } = rowWindow({ scrollOffset, viewportHeight, rowHeight, rowCount, overscan });
          expect(0 <= first && first < end && end <= rowCount).toBe(true);
          // Every row with any part inside the viewport is rendered.
          for (let index = 0; index < rowCount; index += 1) {
            const top = index * rowHeight;
            const isShown = top < scrollOffset + viewportHeight && top + rowHeight > scrollOffset;
            if (isShown) expect(index >= first && index < end).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('windowNeedsRender', () => {
  it('leaves rendered rows that cover the wanted window with at most the slack to spare', () => {
    // The first window, guessed with the rows at the top of the viewport, is a few rows too long once they are laid out lower.
    expect(windowNeedsRender({ first: 0, end: 34 }, { first: 0, end: 26 }, 10)).toBe(false);
    expect(windowNeedsRender({ first: 0, end: 26 }, { first: 0, end: 26 }, 10)).toBe(false);
  });

  it('renders again when the wanted window reaches past the rendered rows on either side', () => {
    expect(windowNeedsRender({ first: 0, end: 34 }, { first: 0, end: 35 }, 10)).toBe(true);
    expect(windowNeedsRender({ first: 20, end: 60 }, { first: 19, end: 50 }, 10)).toBe(true);
  });

  it('renders again when more than the slack would stay rendered beyond the wanted window', () => {
    expect(windowNeedsRender({ first: 0, end: 60 }, { first: 0, end: 49 }, 10)).toBe(true);
    expect(windowNeedsRender({ first: 0, end: 60 }, { first: 11, end: 60 }, 10)).toBe(true);
  });
});

describe('rowSegments', () => {
  const rowsOf = (segments: readonly RowSegment[]) => segments.filter((segment) => segment.kind === 'rows');

  it('puts a spacer before and after the window, as tall as the rows it stands for', () => {
    expect(rowSegments({ visible: { first: 15, end: 36 }, rowCount: 1000, rowHeight: ROW, keptIndex: null })).toEqual([
      { kind: 'spacer', rows: 15, height: 750 },
      { kind: 'rows', first: 15, end: 36 },
      { kind: 'spacer', rows: 964, height: 48_200 },
    ]);
  });

  it('has no spacer where the window reaches an end, and nothing for no rows', () => {
    expect(rowSegments({ visible: { first: 0, end: 4 }, rowCount: 4, rowHeight: ROW, keptIndex: null })).toEqual([
      { kind: 'rows', first: 0, end: 4 },
    ]);
    expect(rowSegments({ visible: { first: 0, end: 0 }, rowCount: 0, rowHeight: ROW, keptIndex: null })).toEqual([]);
  });

  it('keeps the focused row and its neighbours outside the window, between spacers', () => {
    expect(rowSegments({ visible: { first: 500, end: 520 }, rowCount: 1000, rowHeight: ROW, keptIndex: 10 })).toEqual([
      { kind: 'spacer', rows: 9, height: 450 },
      { kind: 'rows', first: 9, end: 12 },
      { kind: 'spacer', rows: 488, height: 24_400 },
      { kind: 'rows', first: 500, end: 520 },
      { kind: 'spacer', rows: 480, height: 24_000 },
    ]);
    expect(rowsOf(rowSegments({ visible: { first: 0, end: 20 }, rowCount: 1000, rowHeight: ROW, keptIndex: 999 }))).toEqual([
      { kind: 'rows', first: 0, end: 20 },
      { kind: 'rows', first: 998, end: 1000 },
    ]);
  });

  it('joins the kept rows to the window when they touch or overlap it', () => {
    expect(rowsOf(rowSegments({ visible: { first: 500, end: 520 }, rowCount: 1000, rowHeight: ROW, keptIndex: 520 }))).toEqual([
      { kind: 'rows', first: 500, end: 522 },
    ]);
    expect(rowsOf(rowSegments({ visible: { first: 500, end: 520 }, rowCount: 1000, rowHeight: ROW, keptIndex: 498 }))).toEqual([
      { kind: 'rows', first: 497, end: 520 },
    ]);
    expect(rowsOf(rowSegments({ visible: { first: 500, end: 520 }, rowCount: 1000, rowHeight: ROW, keptIndex: 505 }))).toEqual([
      { kind: 'rows', first: 500, end: 520 },
    ]);
  });

  it('ignores a kept index that is no longer a row (filtered away or deleted)', () => {
    expect(rowsOf(rowSegments({ visible: { first: 0, end: 5 }, rowCount: 5, rowHeight: ROW, keptIndex: 7 }))).toEqual([
      { kind: 'rows', first: 0, end: 5 },
    ]);
  });

  it('stands for every row exactly once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3000 }),
        fc.nat(),
        fc.nat(60),
        fc.option(fc.nat(3100), { nil: null }),
        (rowCount, start, size, keptIndex) => {
          const first = start % rowCount;
          const visible = { first, end: Math.min(rowCount, first + size + 1) };
          const segments = rowSegments({ visible, rowCount, rowHeight: ROW, keptIndex });
          const covered = segments.reduce(
            (sum, segment) => sum + (segment.kind === 'rows' ? segment.end - segment.first : segment.rows),
            0,
          );
          expect(covered).toBe(rowCount);
          // Runs in order, never two spacers or two runs in a row.
          for (const [index, segment] of segments.entries()) {
            if (index > 0) expect(segment.kind).not.toBe(segments[index - 1]?.kind);
            if (segment.kind === 'spacer') expect(segment.height).toBe(segment.rows * ROW);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
