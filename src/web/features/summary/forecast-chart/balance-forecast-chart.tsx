/**
 * "Balance forecast" (issue 13, item 4): the figure, its name and its text alternative are in the
 * first view; the drawing (uPlot and its CSS, about 22 KB gzipped) loads only when the chart is
 * shown (decision 0019). Until then, or if it cannot load, a box of the chart's height keeps the
 * page from jumping and the text alternative says everything the chart does.
 */
import { Component, type ReactNode, Suspense, useEffect, useId, useMemo } from 'react';
import { chunkComponent, useChunkComponent } from '../../../components/chunk-component.js';
import type { BalanceForecastChartProps } from './forecast-points.js';
import { forecastText } from './forecast-text.js';

const PLOT_HEIGHT = 200;
// The plot plus its one-line readout (forecast-chart.css), so the chart replaces the box without a jump.
const RESERVED_HEIGHT = `calc(${PLOT_HEIGHT}px + 1.5rem)`;

// uPlot reads matchMedia as it loads; a browser without it (jsdom) gets the text alone.
const canLoadChart = (): boolean => typeof window !== 'undefined' && typeof window.matchMedia === 'function';

// The drawing's code starts with this module's (which comes alongside the forecast's request), so it
// is here when the chart first renders, drawn with the answer (chunk-component.tsx).
const chartView = chunkComponent(() => import('./forecast-chart-view.js').then((module) => module.default));
if (canLoadChart()) void chartView.load().catch(() => undefined);

interface ChartProps extends BalanceForecastChartProps {
  /** Told once the chart is drawn, or once it is known it will not be (no canvas, its code failed to load). */
  readonly onDrawn?: (() => void) | undefined;
}

export function BalanceForecastChart({ onDrawn, ...props }: ChartProps) {
  const titleId = useId();
  const drawable = canLoadChart();
  // A browser that cannot draw it shows the text alone: that is the chart's paint.
  useEffect(() => {
    if (!drawable) onDrawn?.();
  }, [drawable, onDrawn]);
  const ForecastChartView = useChunkComponent(chartView);
  const { openingBalance, startDate, points, lowest } = props;
  const text = useMemo(() => forecastText({ openingBalance, startDate, points, lowest }), [openingBalance, startDate, points, lowest]);
  const reserved = <div className="forecast-chart-reserved" style={{ height: RESERVED_HEIGHT }} />;
  return (
    <figure className="forecast-chart mb-0" aria-labelledby={titleId}>
      <h3 id={titleId} className="h6 mb-2">
        Balance forecast
      </h3>
      {drawable ? (
        <ChartLoadFailure fallback={reserved} onFailed={onDrawn}>
          <Suspense fallback={reserved}>
            <ForecastChartView {...props} height={PLOT_HEIGHT} onDrawn={onDrawn} />
          </Suspense>
        </ChartLoadFailure>
      ) : (
        reserved
      )}
      <figcaption>
        <details>
          <summary>Chart as text</summary>
          <p className="mb-1">
            {text.lowest} {text.highest}
          </p>
          {props.whatIf && props.whatIf.length > 0 && (
            <p className="mb-1">The dashed line is the balance after the purchase you asked about in "Can I afford it?".</p>
          )}
          {text.paychecks.length > 0 && (
            <ul className="mb-0">
              {text.paychecks.map((paycheck) => (
                <li key={paycheck.date}>{paycheck.text}</li>
              ))}
            </ul>
          )}
        </details>
      </figcaption>
    </figure>
  );
}

/** A chunk that fails to load (offline, a new deployment) leaves the box and the text, not a broken Summary. */
class ChartLoadFailure extends Component<
  { readonly fallback: ReactNode; readonly children: ReactNode; readonly onFailed?: (() => void) | undefined },
  { readonly failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(): void {
    this.props.onFailed?.();
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
