import { act, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isoDate } from '../../../../domain/calendar-date.js';
import { cents } from '../../../../domain/money.js';
import ForecastChartView, { axisDates } from './forecast-chart-view.js';
import { januaryForecast, point } from './forecast-test-support.js';

// jsdom draws nothing: uPlot gets a stand-in 2D context that records the text drawn on it, and the
// matchMedia and Path2D it needs. They are set before uPlot loads (it reads matchMedia as it does).
const canvas = vi.hoisted(() => {
  const drawnText: string[] = [];
  const noop = () => undefined;
  const context = new Proxy<Record<string | symbol, unknown>>(
    {
      fillText: (text: string) => void drawnText.push(text),
      measureText: (text: string) => ({ width: text.length * 6, actualBoundingBoxAscent: 9, actualBoundingBoxDescent: 3 }),
      createLinearGradient: () => ({ addColorStop: noop }),
      getLineDash: () => [],
    },
    { get: (target, key) => (key in target ? target[key] : noop), set: (target, key, value) => ((target[key] = value), true) },
  );
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = (() => context) as unknown as typeof original;
  window.matchMedia = ((media: string) => ({
    matches: false,
    media,
    addEventListener: noop,
    removeEventListener: noop,
  })) as unknown as typeof window.matchMedia;
  globalThis.Path2D = class {
    moveTo = noop;
    lineTo = noop;
    rect = noop;
    arc = noop;
    closePath = noop;
    bezierCurveTo = noop;
    addPath = noop;
  } as unknown as typeof Path2D;
  return { drawnText, restore: () => (HTMLCanvasElement.prototype.getContext = original) };
});

beforeEach(() => {
  canvas.drawnText.length = 0;
});

afterAll(() => canvas.restore());

function renderView(props = januaryForecast()) {
  return render(<ForecastChartView {...props} height={200} />);
}

function readout(): HTMLElement {
  const live = document.querySelector<HTMLElement>('[aria-live="polite"]');
  if (!live) throw new Error('no live readout');
  return live;
}

describe('ForecastChartView', () => {
  it('draws the $0 line, today and the lowest point with its amount', async () => {
    renderView();
    await vi.waitFor(() => expect(canvas.drawnText).toEqual(expect.arrayContaining(['$0', 'Today', 'Lowest -$120.00'])));
  });

  it('says it is drawn once, after uPlot has drawn on its canvas, and not again for new points', async () => {
    const onDrawn = vi.fn(() => expect(canvas.drawnText).toContain('$0'));
    const { rerender } = render(<ForecastChartView {...januaryForecast()} height={200} onDrawn={onDrawn} />);
    await vi.waitFor(() => expect(onDrawn).toHaveBeenCalledOnce());
    rerender(<ForecastChartView {...januaryForecast({ lowest: null })} height={200} onDrawn={onDrawn} />);
    expect(onDrawn).toHaveBeenCalledOnce();
  });

  it('writes the date axis as the page writes dates, shortened: "Jan 8", never "1/8"', async () => {
    renderView();
    await vi.waitFor(() => expect(canvas.drawnText).toContain('Lowest -$120.00'));
    const dateLabels = canvas.drawnText.filter((text) => /^[A-Z][a-z]{2} \d{1,2}$/.test(text));
    expect(dateLabels.length).toBeGreaterThan(1);
    expect(canvas.drawnText).toContain('2027');
    expect(canvas.drawnText.filter((text) => /\d+\/\d+/.test(text))).toEqual([]);
  });

  it('reads out the date and balance of each point as the arrow keys, Home and End move between them', async () => {
    const user = userEvent.setup();
    renderView();
    const chart = screen.getByRole('group', { name: 'Balance by date (Left and Right arrow keys move between dates)' });
    expect(readout()).toHaveTextContent('Point at the chart, or focus it and press the arrow keys, to read the balance on a date.');

    await user.tab();
    expect(chart).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(readout()).toHaveTextContent('Fri, Jan 1, 2027: $500.00');
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(readout()).toHaveTextContent('Fri, Jan 8, 2027: $2,300.00');
    await user.keyboard('{End}');
    expect(readout()).toHaveTextContent('Sun, Jan 31, 2027: $1,880.00');
    await user.keyboard('{ArrowRight}');
    expect(readout()).toHaveTextContent('Sun, Jan 31, 2027: $1,880.00');
    await user.keyboard('{ArrowLeft}');
    expect(readout()).toHaveTextContent('Fri, Jan 22, 2027: $1,880.00');
    await user.keyboard('{Home}');
    expect(readout()).toHaveTextContent('Fri, Jan 1, 2027: $500.00');
  });

  it('reads out the dashed what-if line too: the balance after the purchase from its date on', async () => {
    const user = userEvent.setup();
    const props = januaryForecast({ whatIf: [{ date: isoDate('2027-01-11'), amount: cents(40_000) }] });
    const { rerender } = renderView(props);
    await user.tab();
    await user.keyboard('{ArrowRight}');
    // Before the purchase there is no dashed line to read.
    expect(readout().textContent).toBe('Fri, Jan 1, 2027: $500.00');
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    // The purchase's date is a point of its own.
    expect(readout().textContent).toBe('Mon, Jan 11, 2027: $2,300.00 · after the purchase: $1,900.00');
    await user.keyboard('{ArrowRight}');
    expect(readout().textContent).toBe('Fri, Jan 15, 2027: -$120.00 · after the purchase: -$520.00');
    await user.keyboard('{End}');
    expect(readout().textContent).toBe('Sun, Jan 31, 2027: $1,880.00 · after the purchase: $1,480.00');

    // The answer gone, the line and its words go with it.
    rerender(<ForecastChartView {...props} whatIf={undefined} height={200} />);
    await user.keyboard('{End}');
    expect(readout().textContent).toBe('Sun, Jan 31, 2027: $1,880.00');
  });

  it('reads out the point under the pointer', async () => {
    const { container } = renderView();
    const over = container.querySelector('.u-over');
    if (!over) throw new Error('uPlot drew no plotting area');
    // The plotting area is at the left of a 600 px chart in jsdom (no layout); its far right is the end date.
    act(() => {
      fireEvent.mouseEnter(over);
      fireEvent.mouseMove(over, { clientX: 590, clientY: 50 });
    });
    await vi.waitFor(() => expect(readout()).toHaveTextContent('Sun, Jan 31, 2027: $1,880.00'));
  });

  it('redraws with new balances, and ignores a reload that changed no balance', async () => {
    const user = userEvent.setup();
    const props = januaryForecast();
    const { rerender } = renderView(props);
    await vi.waitFor(() => expect(canvas.drawnText).toContain('Lowest -$120.00'));

    const fixed = januaryForecast({
      points: [...props.points.slice(0, 3), point('2027-01-15', 'Rent', 80), point('2027-01-22', 'Paycheck: Acme', 2080, true)],
      lowest: { date: isoDate('2027-01-15'), balance: cents(8_000) },
    });
    rerender(<ForecastChartView {...fixed} height={200} />);
    await vi.waitFor(() => expect(canvas.drawnText).toContain('Lowest $80.00'));

    await user.tab();
    await user.keyboard('{End}');
    expect(readout()).toHaveTextContent('Sun, Jan 31, 2027: $2,080.00');
    rerender(<ForecastChartView {...fixed} points={[...fixed.points]} height={200} />);
    await user.keyboard('{ArrowLeft}');
    expect(readout()).toHaveTextContent('Fri, Jan 22, 2027: $2,080.00');
  });

  it('labels day and month ticks "Jan 8" with the year under the first and where it turns, and yearly ticks by the year', () => {
    const day = 86_400;
    const at = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
    expect(axisDates([at('2027-12-30'), at('2027-12-31'), at('2028-01-01'), at('2028-01-02')], day)).toEqual([
      'Dec 30\n2027',
      'Dec 31',
      'Jan 1\n2028',
      'Jan 2',
    ]);
    expect(axisDates([at('2028-02-01'), at('2028-02-29'), at('2028-03-01')], 30 * day)).toEqual(['Feb 1\n2028', 'Feb 29', 'Mar 1']);
    expect(axisDates([at('2027-01-01'), at('2028-01-01')], 365 * day)).toEqual(['2027', '2028']);
  });

  it('removes the chart when unmounted', () => {
    const { container, unmount } = renderView();
    const root = container.querySelector('.uplot');
    expect(root).not.toBeNull();
    unmount();
    expect(root?.isConnected).toBe(false);
  });
});
