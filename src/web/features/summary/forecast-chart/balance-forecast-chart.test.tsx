import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BalanceForecastChart } from './balance-forecast-chart.js';
import type { ForecastChartViewProps } from './forecast-chart-view.js';
import { januaryForecast } from './forecast-test-support.js';

// The drawing is uPlot's and is tested in forecast-chart-view.test.tsx; here it is a stand-in that
// shows whether, and with what, the lazy view was loaded.
const view = vi.hoisted(() => ({ fail: false }));
vi.mock('./forecast-chart-view.js', () => ({
  default: function StandInView({ height, points, onDrawn }: ForecastChartViewProps) {
    if (view.fail) throw new Error('chunk failed');
    return (
      <div role="group" aria-label="Balance by date" ref={(element) => void (element && onDrawn?.())}>
        {`${points.length} rows, ${height}px`}
      </div>
    );
  },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  view.fail = false;
});

/** jsdom has no matchMedia, which uPlot reads as it loads: a real browser's is stood in for. */
function withMatchMedia() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

describe('BalanceForecastChart', () => {
  it('is a figure named "Balance forecast" whose text gives the lowest ahead, the highest and the balance after each paycheck', async () => {
    const user = userEvent.setup();
    render(<BalanceForecastChart {...januaryForecast()} />);

    const figure = screen.getByRole('figure', { name: 'Balance forecast' });
    expect(within(figure).getByRole('heading', { name: 'Balance forecast', level: 3 })).toBeVisible();
    await user.click(within(figure).getByText('Chart as text'));
    expect(
      within(figure).getByText('Lowest balance ahead: -$120.00 on Fri, Jan 15, 2027. Highest: $2,450.00 on Fri, Jan 8, 2027.'),
    ).toBeVisible();
    expect(
      within(figure)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['After the paycheck on Fri, Jan 8, 2027: $2,450.00', 'After the paycheck on Fri, Jan 22, 2027: $1,880.00']);
  });

  it('loads the drawn chart on demand, with the chart height, where the browser can draw it', async () => {
    withMatchMedia();
    render(<BalanceForecastChart {...januaryForecast()} />);

    const figure = screen.getByRole('figure', { name: 'Balance forecast' });
    expect(await within(figure).findByRole('group', { name: 'Balance by date' })).toHaveTextContent('5 rows, 200px');
  });

  it('keeps the reserved space and the text when the chart cannot load, and the page goes on', async () => {
    withMatchMedia();
    view.fail = true;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { container } = render(<BalanceForecastChart {...januaryForecast()} />);

    const figure = await screen.findByRole('figure', { name: 'Balance forecast' });
    await vi.waitFor(() => expect(container.querySelector('.forecast-chart-reserved')).not.toBeNull());
    expect(within(figure).queryByRole('group', { name: 'Balance by date' })).toBeNull();
    expect(within(figure).getByText(/Lowest balance ahead: -\$120\.00 on Fri, Jan 15, 2027\./)).toBeInTheDocument();
    logged.mockRestore();
  });

  it('tells Home it has painted: when the drawing is shown, when its code fails to load, or at once where nothing can be drawn', async () => {
    withMatchMedia();
    const drawn = vi.fn();
    const { unmount } = render(<BalanceForecastChart {...januaryForecast()} onDrawn={drawn} />);
    await screen.findByRole('group', { name: 'Balance by date' });
    expect(drawn).toHaveBeenCalledOnce();
    unmount();

    view.fail = true;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = vi.fn();
    const second = render(<BalanceForecastChart {...januaryForecast()} onDrawn={failed} />);
    await vi.waitFor(() => expect(failed).toHaveBeenCalledOnce());
    expect(screen.queryByRole('group', { name: 'Balance by date' })).toBeNull();
    second.unmount();
    logged.mockRestore();

    vi.unstubAllGlobals();
    const textOnly = vi.fn();
    render(<BalanceForecastChart {...januaryForecast()} onDrawn={textOnly} />);
    await vi.waitFor(() => expect(textOnly).toHaveBeenCalledOnce());
  });

  it('shows only the text where the browser cannot draw (jsdom has no matchMedia)', () => {
    const { container } = render(<BalanceForecastChart {...januaryForecast({ lowest: null })} />);

    expect(screen.getByRole('figure', { name: 'Balance forecast' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Balance by date' })).toBeNull();
    expect(container.querySelector('.forecast-chart-reserved')).toHaveStyle({ height: 'calc(200px + 1.5rem)' });
    expect(screen.getByText(/Lowest balance ahead: none, no transaction is dated today or later\./)).toBeInTheDocument();
  });
});
