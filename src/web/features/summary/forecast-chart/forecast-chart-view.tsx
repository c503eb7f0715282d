/**
 * The drawn chart: uPlot on a canvas, loaded on demand (decision 0019). uPlot draws the step line;
 * a draw hook adds the $0 line, today and the lowest point. The pointer moves uPlot's cursor, the
 * arrow keys move it from point to point, and a polite live line reads out the date and balance (and,
 * with a what-if drawn, the balance after the purchase).
 */
import 'uplot/dist/uPlot.min.css';
import './forecast-chart.css';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { useLatestCallback } from '../../../components/use-latest-callback.js';
import { type Cents, centsToDollars, dollarsToCents, formatUsd } from '../../../../domain/money.js';
import { formatDate, formatMonthDay, fromDayNumber, type IsoDate } from '../../../../domain/calendar-date.js';
import {
  type BalanceForecastChartProps,
  dateToSeconds,
  type ForecastSeries,
  forecastSeries,
  sameSeries,
  withWhatIf,
} from './forecast-points.js';

export interface ForecastChartViewProps extends BalanceForecastChartProps {
  readonly height: number;
  /** Told once the chart is drawn, or once it is known it cannot be (no canvas): Home's first paint (first-paint.ts). */
  readonly onDrawn?: (() => void) | undefined;
}

/** What the hooks draw from; kept in a ref so new props redraw the same uPlot instead of building another. */
interface DrawnState {
  readonly series: ForecastSeries;
  /** The balance after "Can I afford it?"'s purchases, per date (null before the first): the dashed line; null when none was asked. */
  readonly after: readonly (number | null)[] | null;
  readonly today: IsoDate | null;
  readonly lowest: { readonly date: IsoDate; readonly balance: Cents } | null;
}

// Bootstrap 5.3's light palette (the page compiles no dark mode, decision 0009), dark enough for 4.5:1 on white.
const COLOURS = { line: '#0a58ca', below: '#b02a37', text: '#212529', muted: '#495057', grid: 'rgba(33, 37, 41, 0.08)' };
const FALLBACK_WIDTH = 600;
const SECONDS_PER_DAY = 86_400;
/** uPlot's own month and year (30 and 365 days): its month and year ticks fall on the 1st and on January 1st. */
const SECONDS_PER_MONTH = 30 * SECONDS_PER_DAY;
const SECONDS_PER_YEAR = 365 * SECONDS_PER_DAY;
/** Ticks a whole number of days, months or years apart: a date axis has nothing between midnights to mark. */
const DATE_TICKS = [1, 2, 3, 4, 5, 7, 10, 15]
  .map((days) => days * SECONDS_PER_DAY)
  .concat(
    [1, 2, 3, 4, 6].map((months) => months * SECONDS_PER_MONTH),
    [1, 2, 5, 10].map((years) => years * SECONDS_PER_YEAR),
  );
const HINT = 'Point at the chart, or focus it and press the arrow keys, to read the balance on a date.';

const axisDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });

/**
 * The date axis in the page's words, shortened (decision 0038): "Jan 5", with the year under the
 * first date and wherever it turns; ticks a year or more apart say only the year.
 */
export function axisDates(splits: readonly number[], increment: number): string[] {
  let yearShown = '';
  return splits.map((seconds) => {
    const date = fromDayNumber(Math.round(seconds / SECONDS_PER_DAY));
    const year = date.slice(0, 4);
    if (increment >= SECONDS_PER_YEAR) return year;
    const label = year === yearShown ? formatMonthDay(date) : `${formatMonthDay(date)}\n${year}`;
    yearShown = year;
    return label;
  });
}

/**
 * What the live line says of a date: its balance, and while "Can I afford it?"'s dashed line is drawn
 * (issue 36), the balance after the purchase from its date on, so the keyboard reads both lines.
 */
function readoutOf({ series, after }: Pick<DrawnState, 'series' | 'after'>, index: number): string | null {
  const date = series.dates[index];
  const balance = series.balances[index];
  if (date === undefined || balance === undefined) return null;
  const text = `${formatDate(date)}: ${formatUsd(balance)}`;
  const whatIf = after?.[index];
  return whatIf === null || whatIf === undefined ? text : `${text} · after the purchase: ${formatUsd(dollarsToCents(whatIf))}`;
}

/** jsdom and some locked-down browsers give no 2D context; the text alternative still says everything. */
function canDraw(): boolean {
  try {
    return typeof document.createElement('canvas').getContext('2d')?.fillRect === 'function';
  } catch {
    return false;
  }
}

export default function ForecastChartView({
  openingBalance,
  startDate,
  endDate,
  points,
  today,
  lowest,
  whatIf,
  height,
  onDrawn,
}: ForecastChartViewProps) {
  const base = useMemo(() => forecastSeries(openingBalance, startDate, endDate, points), [openingBalance, startDate, endDate, points]);
  // With a purchase asked about (issue 36), its dates join the series and the balance after it is drawn dashed.
  const drawn = useMemo(() => (whatIf && whatIf.length > 0 ? withWhatIf(base, whatIf) : { series: base, after: null }), [base, whatIf]);
  const { series, after } = drawn;
  const lowestDate = lowest?.date ?? null;
  const lowestBalance = lowest?.balance ?? null;
  const plotRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const drawnRef = useRef<DrawnState | null>(null);
  const keyIndexRef = useRef<number | null>(null);
  const movingByKeyRef = useRef(false);
  const [readout, setReadout] = useState(HINT);
  // The latest onDrawn, for the effect that builds the chart (which runs again only for a new height).
  const drawnNow = useLatestCallback(() => onDrawn?.());

  // Declared before the effect that builds the chart, so on mount the state is there to build from.
  useEffect(() => {
    const previous = drawnRef.current;
    const next: DrawnState = {
      series: previous && sameSeries(previous.series, series) ? previous.series : series,
      after,
      today,
      lowest: lowestDate === null || lowestBalance === null ? null : { date: lowestDate, balance: lowestBalance },
    };
    drawnRef.current = next;
    const chart = chartRef.current;
    if (!chart || !previous) return;
    if (next.series !== previous.series || next.after !== previous.after) {
      keyIndexRef.current = null;
      chart.setData(plotData(next));
    } else chart.redraw(false);
  }, [series, after, today, lowestDate, lowestBalance]);

  useEffect(() => {
    const container = plotRef.current;
    const state = drawnRef.current;
    if (!container || !state || !canDraw()) {
      drawnNow();
      return;
    }
    const widthOf = () => container.clientWidth || FALLBACK_WIDTH;
    const chart = new uPlot(
      chartOptions({
        width: widthOf(),
        height,
        state: () => drawnRef.current ?? state,
        onCursor: (u) => {
          if (movingByKeyRef.current) return;
          keyIndexRef.current = null;
          const index = u.cursor.idx;
          const text = index === null || index === undefined ? null : readoutOf(drawnRef.current ?? state, index);
          if (text !== null) setReadout(text);
        },
        onReady: drawnNow,
      }),
      plotData(state),
      container,
    );
    chartRef.current = chart;
    const resizes =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            const width = widthOf();
            if (width !== chart.width) chart.setSize({ width, height });
          })
        : null;
    resizes?.observe(container);
    return () => {
      resizes?.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
  }, [height, drawnNow]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const chart = chartRef.current;
    const state = drawnRef.current;
    if (!state) return;
    const last = state.series.dates.length - 1;
    const current = keyIndexRef.current ?? chart?.cursor.idx ?? null;
    let index: number;
    if (event.key === 'Home') index = 0;
    else if (event.key === 'End') index = last;
    else if (event.key === 'ArrowRight') index = current === null ? 0 : Math.min(last, current + 1);
    else if (event.key === 'ArrowLeft') index = current === null ? last : Math.max(0, current - 1);
    else return;
    event.preventDefault();
    keyIndexRef.current = index;
    if (chart) {
      // Several dates can share a pixel in a long ledger: the key's index is the one to read out, not uPlot's nearest.
      movingByKeyRef.current = true;
      try {
        chart.setCursor({ left: chart.valToPos(state.series.xs[index] ?? 0, 'x'), top: chart.valToPos(state.series.ys[index] ?? 0, 'y') });
      } finally {
        movingByKeyRef.current = false;
      }
    }
    const text = readoutOf(state, index);
    if (text !== null) setReadout(text);
  };

  return (
    <div className="forecast-chart-view">
      <div
        role="group"
        aria-label="Balance by date (Left and Right arrow keys move between dates)"
        tabIndex={0}
        className="forecast-chart-plot"
        style={{ height }}
        onKeyDown={onKeyDown}
      >
        {/* The canvas says nothing to assistive technology; the readout and "Chart as text" do. */}
        <div ref={plotRef} aria-hidden="true" />
      </div>
      <p className="forecast-chart-readout small mb-0" aria-live="polite">
        {readout}
      </p>
    </div>
  );
}

/** The balance, and the what-if's line (all gaps while none was asked: uPlot keeps the series it was built with). */
function plotData({ series, after }: DrawnState): uPlot.AlignedData {
  return [series.xs as number[], series.ys as number[], after ? [...after] : series.xs.map(() => null)];
}

interface ChartSetup {
  readonly width: number;
  readonly height: number;
  readonly state: () => DrawnState;
  readonly onCursor: (u: uPlot) => void;
  /** Once, when uPlot has drawn the chart for the first time. */
  readonly onReady: () => void;
}

function chartOptions({ width, height, state, onCursor, onReady }: ChartSetup): uPlot.Options {
  const stepped = uPlot.paths.stepped;
  return {
    width,
    height,
    legend: { show: false },
    // Zooming by drag would hide the dates the text alternative talks about.
    cursor: { drag: { x: false, y: false, setScale: false } },
    // Dates are calendar days at UTC midnight: read them in UTC wherever the browser is.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    scales: {
      x: { time: true, range: (_u, min, max) => (min === max ? [min - SECONDS_PER_DAY, max + SECONDS_PER_DAY] : [min, max]) },
      // $0 is always in view, so the dashed zero line is there to compare against.
      y: { range: (_u, min, max) => uPlot.rangeNum(Math.min(min, 0), Math.max(max, 0), 0.1, true) },
    },
    axes: [
      {
        stroke: COLOURS.muted,
        grid: { stroke: COLOURS.grid },
        ticks: { stroke: COLOURS.grid },
        incrs: DATE_TICKS,
        values: (_u, splits, _axis, _space, increment) => axisDates(splits, increment),
      },
      {
        stroke: COLOURS.muted,
        grid: { stroke: COLOURS.grid },
        ticks: { stroke: COLOURS.grid },
        size: 60,
        values: (_u, splits) => splits.map((dollars) => axisDollars.format(dollars)),
      },
    ],
    series: [
      {},
      {
        label: 'Balance',
        width: 2,
        stroke: (u) => belowZeroGradient(u),
        points: { show: false },
        ...(stepped ? { paths: stepped({ align: 1 }) } : {}),
      },
      {
        // "Can I afford it?" (issue 36): dashed, so it reads apart from the balance without colour.
        label: 'What if',
        width: 2,
        stroke: COLOURS.muted,
        dash: [6, 4],
        points: { show: false },
        ...(stepped ? { paths: stepped({ align: 1 }) } : {}),
      },
    ],
    plugins: [{ hooks: { draw: (u) => drawMarkers(u, state()), setCursor: onCursor, ready: onReady } }],
  };
}

/** Blue above $0 and red below; the dashed, labelled zero line tells the same without colour. */
function belowZeroGradient(u: uPlot): CanvasGradient | string {
  const { top, height } = u.bbox;
  if (!(height > 0)) return COLOURS.line;
  const zero = Math.min(1, Math.max(0, (u.valToPos(0, 'y', true) - top) / height));
  const gradient = u.ctx.createLinearGradient(0, top, 0, top + height);
  gradient.addColorStop(0, COLOURS.line);
  gradient.addColorStop(zero, COLOURS.line);
  gradient.addColorStop(zero, COLOURS.below);
  gradient.addColorStop(1, COLOURS.below);
  return gradient;
}

function drawMarkers(u: uPlot, { series, today, lowest }: DrawnState): void {
  const { ctx, bbox } = u;
  const px = uPlot.pxRatio;
  const first = series.dates[0];
  const last = series.dates[series.dates.length - 1];
  ctx.save();
  ctx.beginPath();
  ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
  ctx.clip();
  ctx.font = `${12 * px}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
  ctx.lineWidth = px;

  const zeroY = Math.round(u.valToPos(0, 'y', true)) + 0.5;
  ctx.strokeStyle = COLOURS.text;
  ctx.setLineDash([6 * px, 4 * px]);
  ctx.beginPath();
  ctx.moveTo(bbox.left, zeroY);
  ctx.lineTo(bbox.left + bbox.width, zeroY);
  ctx.stroke();
  ctx.textAlign = 'left';
  ctx.textBaseline = 'bottom';
  label(ctx, '$0', bbox.left + 4 * px, zeroY - 2 * px, COLOURS.text);

  if (first !== undefined && last !== undefined && today !== null && today >= first && today <= last) {
    const x = Math.round(u.valToPos(dateToSeconds(today), 'x', true)) + 0.5;
    ctx.setLineDash([]);
    ctx.lineWidth = px;
    ctx.strokeStyle = COLOURS.muted;
    ctx.beginPath();
    ctx.moveTo(x, bbox.top);
    ctx.lineTo(x, bbox.top + bbox.height);
    ctx.stroke();
    ctx.textBaseline = 'top';
    const rightHalf = x > bbox.left + bbox.width / 2;
    ctx.textAlign = rightHalf ? 'right' : 'left';
    label(ctx, 'Today', x + (rightHalf ? -4 : 4) * px, bbox.top + 4 * px, COLOURS.muted);
  }

  if (lowest) {
    const x = u.valToPos(dateToSeconds(lowest.date), 'x', true);
    const y = u.valToPos(centsToDollars(lowest.balance), 'y', true);
    ctx.fillStyle = COLOURS.below;
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 2 * px;
    ctx.beginPath();
    ctx.arc(x, y, 5 * px, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    const rightHalf = x > bbox.left + bbox.width / 2;
    const roomBelow = y + 24 * px < bbox.top + bbox.height;
    ctx.textAlign = rightHalf ? 'right' : 'left';
    ctx.textBaseline = roomBelow ? 'top' : 'bottom';
    label(ctx, `Lowest ${formatUsd(lowest.balance)}`, x + (rightHalf ? -8 : 8) * px, y + (roomBelow ? 6 : -6) * px, COLOURS.text);
  }
  ctx.restore();
}

/** Text with a white halo, so it stays readable where it crosses the line or the grid. */
function label(ctx: CanvasRenderingContext2D, text: string, x: number, y: number, colour: string): void {
  ctx.setLineDash([]);
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3 * uPlot.pxRatio;
  ctx.strokeStyle = '#fff';
  ctx.strokeText(text, x, y);
  ctx.fillStyle = colour;
  ctx.fillText(text, x, y);
}
