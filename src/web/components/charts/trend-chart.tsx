/**
 * A trend over time, drawn with uPlot on a canvas: the values as a line with their points,
 * the reference range as a band behind them, out-of-range points marked in red. The
 * wrapper is an image with a name; the screen renders the same data as a table beside it.
 * Loaded with React.lazy by the screens that draw charts, so uPlot is a chunk of its own.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface TrendPoint {
  /** ISO date or datetime. */
  at: string;
  value: number;
  outOfRange?: 'high' | 'low';
}

export interface TrendChartProps {
  /** The accessible name of the role="img" element, e.g. 'LDL Cholesterol trend'. */
  name: string;
  points: readonly TrendPoint[];
  /** The y axis label, e.g. 'mg/dL'. */
  unit?: string;
  /** Drawn as a band. */
  range?: { low?: number; high?: number };
  /** An optional second line (diastolic under systolic). */
  series2?: readonly TrendPoint[];
}

const LINE = '#0f766e';
const SECOND = '#6366f1';
const OUT = '#dc2626';
const BAND = 'rgba(16, 185, 129, 0.14)';

const seconds = (at: string) => Date.parse(at.length === 10 ? `${at}T12:00:00Z` : at) / 1000;

export default function TrendChart({ name, points, unit, range, series2 }: TrendChartProps) {
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const sorted = [...points].sort((a, b) => seconds(a.at) - seconds(b.at));
    const xs = sorted.map((point) => seconds(point.at));
    const second = new Map((series2 ?? []).map((point) => [seconds(point.at), point.value]));
    const data: uPlot.AlignedData = series2
      ? [xs, sorted.map((point) => point.value), xs.map((x) => second.get(x) ?? null)]
      : [xs, sorted.map((point) => point.value)];
    const values = sorted.map((point) => point.value);
    const bounds = [...values, range?.low, range?.high].filter(
      (value): value is number => typeof value === 'number',
    );
    const low = bounds.length ? Math.min(...bounds) : 0;
    const high = bounds.length ? Math.max(...bounds) : 1;
    const pad = (high - low) * 0.1 || Math.abs(high) * 0.1 || 1;

    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 240),
        height: 220,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: () => [low - pad, high + pad] } },
        axes: [{}, { label: unit, size: 56 }],
        series: [
          {},
          { stroke: LINE, width: 2, points: { show: true, size: 6, fill: LINE } },
          ...(series2 ? [{ stroke: SECOND, width: 2, points: { show: true, size: 6 } }] : []),
        ],
        hooks: {
          drawClear: [
            (u) => {
              if (range?.low === undefined && range?.high === undefined) return;
              const top = u.valToPos(range.high ?? high + pad, 'y', true);
              const bottom = u.valToPos(range.low ?? low - pad, 'y', true);
              u.ctx.save();
              u.ctx.fillStyle = BAND;
              u.ctx.fillRect(u.bbox.left, top, u.bbox.width, bottom - top);
              u.ctx.restore();
            },
          ],
          draw: [
            (u) => {
              u.ctx.save();
              u.ctx.fillStyle = OUT;
              for (const point of sorted) {
                if (!point.outOfRange) continue;
                const x = u.valToPos(seconds(point.at), 'x', true);
                const y = u.valToPos(point.value, 'y', true);
                u.ctx.beginPath();
                u.ctx.arc(x, y, 5 * devicePixelRatio, 0, 2 * Math.PI);
                u.ctx.fill();
              }
              u.ctx.restore();
            },
          ],
        },
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 240), height: 220 }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, unit, range, series2]);

  return <div ref={holder} role="img" aria-label={name} className="w-full overflow-hidden" />;
}
