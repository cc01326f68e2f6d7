/**
 * A trend over time, drawn with uPlot on a canvas: one line (two for blood pressure), the
 * reference range as a band, points out of range marked. It is an image with a name; the
 * screen puts the same values in a table beside it, the accessible alternative. Screens
 * load it with React.lazy, so uPlot is a chunk of its own, never in the first screen's code.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartHeight } from './chart-size';

export interface TrendPoint {
  at: string /* ISO date or datetime */;
  value: number;
  outOfRange?: 'high' | 'low';
}

export interface TrendChartProps {
  /** The accessible name of the role="img" element, e.g. 'Weight chart'. */
  name: string;
  points: readonly TrendPoint[];
  /** The axis label, e.g. 'kg'. */
  unit?: string;
  /** Drawn as a band. */
  range?: { low?: number; high?: number };
  /** An optional second line (diastolic under systolic). */
  series2?: readonly TrendPoint[];
}

const HEIGHT = 240;
const DAY_SECONDS = 86_400;
/** The days drawn either side of a trend's only point. */
const SINGLE_POINT_DAYS = 14;
const PRIMARY = '#0f766e';
const SECOND = '#7c3aed';
const FLAGGED = '#b91c1c';

const seconds = (at: string) => Date.parse(at.length === 10 ? `${at}T12:00:00Z` : at) / 1000;

/** The points of both series on one time axis (uPlot's columns), nulls where one has none. */
function columns(
  points: readonly TrendPoint[],
  series2?: readonly TrendPoint[],
): uPlot.AlignedData {
  const times = new Map<number, [number | null, number | null]>();
  for (const point of points) times.set(seconds(point.at), [point.value, null]);
  for (const point of series2 ?? []) {
    const time = seconds(point.at);
    const known = times.get(time);
    if (known) known[1] = point.value;
    else times.set(time, [null, point.value]);
  }
  const sorted = [...times.entries()].sort(([a], [b]) => a - b);
  const xs = sorted.map(([time]) => time);
  const first = sorted.map(([, [value]]) => value);
  if (!series2) return [xs, first];
  return [xs, first, sorted.map(([, [, value]]) => value)];
}

/** A band behind the plot between the range's low and high (either may be open). */
function bandPlugin(range: TrendChartProps['range']): uPlot.Plugin {
  return {
    hooks: {
      drawClear: (plot) => {
        if (!range || (range.low === undefined && range.high === undefined)) return;
        const { ctx, bbox } = plot;
        const top = range.high === undefined ? bbox.top : plot.valToPos(range.high, 'y', true);
        const bottom =
          range.low === undefined ? bbox.top + bbox.height : plot.valToPos(range.low, 'y', true);
        ctx.save();
        ctx.fillStyle = 'rgba(15, 118, 110, 0.10)';
        ctx.fillRect(bbox.left, top, bbox.width, bottom - top);
        ctx.restore();
      },
    },
  };
}

/** Records 'trend-chart-draw', from `start` to the end of the first frame drawn. */
function firstDrawMeasured(start: number): uPlot.Plugin {
  let measured = false;
  return {
    hooks: {
      draw: () => {
        if (measured) return;
        measured = true;
        performance.measure('trend-chart-draw', { start, end: performance.now() });
      },
    },
  };
}

/**
 * The time axis as drawn, on the chart's element (`data-from`, `data-to`: ISO moments): what
 * the canvas shows, readable by the browser tests.
 */
function axisShown(element: HTMLElement): uPlot.Plugin {
  return {
    hooks: {
      draw: (plot) => {
        const { min, max } = plot.scales.x ?? {};
        if (min === undefined || max === undefined) return;
        element.dataset.from = new Date(min * 1000).toISOString();
        element.dataset.to = new Date(max * 1000).toISOString();
      },
    },
  };
}

/** Points out of range drawn larger, in red, over the line. */
function flaggedPlugin(points: readonly TrendPoint[]): uPlot.Plugin {
  const flagged = points.filter((point) => point.outOfRange);
  return {
    hooks: {
      draw: (plot) => {
        if (flagged.length === 0) return;
        const { ctx } = plot;
        ctx.save();
        ctx.fillStyle = FLAGGED;
        for (const point of flagged) {
          const x = plot.valToPos(seconds(point.at), 'x', true);
          const y = plot.valToPos(point.value, 'y', true);
          ctx.beginPath();
          ctx.arc(x, y, 5 * devicePixelRatio, 0, 2 * Math.PI);
          ctx.fill();
        }
        ctx.restore();
      },
    },
  };
}

export default function TrendChart({ name, points, unit, range, series2 }: TrendChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    // Measured from here to the first frame drawn (scripts/chart-draw.ts reads it).
    const start = performance.now();
    const data = columns(points, series2);
    const many = data[0].length > 60;
    const line = (stroke: string, label: string): uPlot.Series => ({
      label,
      stroke,
      width: 2,
      spanGaps: true,
      points: { show: !many, size: 6, fill: stroke },
    });
    const values = [...points, ...(series2 ?? [])].map((point) => point.value);
    const bounds = [...values, range?.low, range?.high].filter(
      (value): value is number => typeof value === 'number',
    );
    const width = () => Math.max(element.clientWidth, 200);
    const options: uPlot.Options = {
      width: width(),
      height: chartHeight(width(), HEIGHT),
      legend: { show: false },
      cursor: { show: false },
      plugins: [
        bandPlugin(range),
        flaggedPlugin(points),
        axisShown(element),
        firstDrawMeasured(start),
      ],
      scales: {
        // A single moment is shown with a fortnight either side. (uPlot's own guess for one
        // point of a time axis counts 86,400 of its milliseconds as seconds: a span of
        // 1,000 days, drawn from 2026 to 2029.)
        x: {
          time: true,
          range: (_plot, min, max) => {
            const single = data[0].length === 1 ? data[0][0] : undefined;
            return single === undefined
              ? [min, max]
              : [
                  single - SINGLE_POINT_DAYS * DAY_SECONDS,
                  single + SINGLE_POINT_DAYS * DAY_SECONDS,
                ];
          },
        },
        y: {
          range: () => {
            const low = Math.min(...bounds);
            const high = Math.max(...bounds);
            const pad = (high - low || Math.abs(high) || 1) * 0.1;
            return [low - pad, high + pad];
          },
        },
      },
      axes: [{}, { label: unit, size: 56 }],
      series: [{}, line(PRIMARY, name), ...(series2 ? [line(SECOND, `${name} (second)`)] : [])],
    };
    const plot = new uPlot(options, data, element);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: width(), height: chartHeight(width(), HEIGHT) }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [name, points, unit, range, series2]);

  return (
    <div
      ref={holder}
      role="img"
      aria-label={name}
      className="w-full overflow-hidden"
      style={{ minHeight: HEIGHT }}
    />
  );
}
