/**
 * The first frame of a table holds the rows that reach the screen, the rest come in the next
 * (decision 0121). jsdom lays nothing out, so the rows' boxes are given here: each row 40 px tall,
 * the table's body starting 500 px down a 768 px window.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberedRowsTop, useRowsOnFirstScreen } from './use-after-first-frame.js';

const ROW_HEIGHT = 40;
const BODY_TOP = 500;

function Rows({ count }: { readonly count: number }) {
  const { bodyRef, shownRows } = useRowsOnFirstScreen<HTMLTableSectionElement>(count, 'expenses', ROW_HEIGHT);
  return (
    <table>
      <tbody ref={bodyRef}>
        {Array.from({ length: shownRows }, (_, index) => (
          <tr key={index}>
            <td>Row {index}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function laidOut(top: number) {
  return vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function box(this: Element) {
    const index = this.parentElement === null ? 0 : [...this.parentElement.children].indexOf(this);
    const rowTop = this.tagName === 'TR' ? top + index * ROW_HEIGHT : top;
    return DOMRect.fromRect({ x: 0, y: rowTop, width: 800, height: this.tagName === 'TR' ? ROW_HEIGHT : 0 });
  });
}

const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));

afterEach(() => {
  vi.restoreAllMocks();
  window.localStorage.clear();
});

describe('a table in its first frame', () => {
  it('holds the rows down to the screen’s bottom, and every row from the next frame on', async () => {
    laidOut(BODY_TOP);
    render(<Rows count={50} />);
    // 268 px of screen below the body's top: seven rows of 40 px reach past it.
    expect(screen.getAllByRole('row')).toHaveLength(Math.ceil((window.innerHeight - BODY_TOP) / ROW_HEIGHT));
    await nextFrame();
    expect(screen.getAllByRole('row')).toHaveLength(50);
  });

  it('remembers where its rows began, and starts from there the next time', async () => {
    laidOut(BODY_TOP);
    const first = render(<Rows count={50} />);
    expect(rememberedRowsTop('expenses')).toBe(BODY_TOP);
    first.unmount();
    render(<Rows count={50} />);
    expect(screen.getAllByRole('row')).toHaveLength(Math.ceil((window.innerHeight - BODY_TOP) / ROW_HEIGHT));
    await nextFrame();
    expect(screen.getAllByRole('row')).toHaveLength(50);
  });

  it('holds one row when the table starts below the screen, and all of a short table', async () => {
    laidOut(window.innerHeight + 100);
    const { unmount } = render(<Rows count={50} />);
    expect(screen.getAllByRole('row')).toHaveLength(1);
    unmount();
    laidOut(0);
    render(<Rows count={3} />);
    expect(screen.getAllByRole('row')).toHaveLength(3);
  });

  it('holds every row where nothing is laid out', () => {
    render(<Rows count={50} />);
    expect(screen.getAllByRole('row')).toHaveLength(50);
  });
});
