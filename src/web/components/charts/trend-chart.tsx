/**
 * A trend over time, drawn with uPlot on a canvas: one line (two for blood pressure), the
 * reference range as a band, points out of range marked. It is an image with a name; the
 * screen puts the same values in a table beside it, the accessible alternative. Screens
 * load it with React.lazy, so uPlot is a chunk of its own, never in the first screen's code.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber } from '../../../shared/dates';
import { currentLanguage, currentLocale } from '../../../shared/i18n/translate';
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
  /**
   * Severities drawn on the same time axis (a symptom's, 1 to 10), as bars along its foot:
   * those inside the axis drawn are shown, each an image named by its `label`.
   */
  markers?: readonly SeverityMarker[];
  /** The name of the markers' group ('Symptom severity'). */
  markersName?: string;
}

export interface SeverityMarker {
  id: string;
  at: string /* ISO datetime */;
  severity: number;
  /** Of the whole scale: the bar's height is severity / max of the tallest. */
  max: number;
  /** 'Headache, severity 7 of 10, Mar 4, 2026' */
  label: string;
}

/** A marker where the plot drew it: left and bottom in CSS pixels of the chart's box. */
interface PlacedMarker {
  marker: SeverityMarker;
  left: number;
  bottom: number;
}

/** The tallest a severity bar is drawn, in CSS pixels. */
const MARKER_HEIGHT = 36;
/** The share of the plot's height added under the lines when there are markers. */
const MARKER_ROOM = 0.3;

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

const DAY_FORMATS: [minIncrement: number, options: Intl.DateTimeFormatOptions][] = [
  [360 * DAY_SECONDS, { year: 'numeric' }],
  [28 * DAY_SECONDS, { month: 'short' }],
  [DAY_SECONDS, { month: 'short', day: 'numeric' }],
  [0, { hour: 'numeric', minute: '2-digit' }],
];

/**
 * The time axis's ticks as the language in force writes them (uPlot's own are US English's,
 * kept for English): a month's tick names its year where the year begins and at the first.
 */
function localTimeTicks(): uPlot.Axis['values'] {
  if (currentLanguage() === 'en') return undefined;
  const locale = currentLocale();
  return (_plot, splits, _axis, _space, increment) => {
    const [, options] = DAY_FORMATS.find(([least]) => increment >= least) ?? DAY_FORMATS[3]!;
    const plain = new Intl.DateTimeFormat(locale, options);
    const withYear = new Intl.DateTimeFormat(locale, { ...options, year: 'numeric' });
    const monthly = options.month !== undefined && options.day === undefined;
    return splits.map((split, index) => {
      const date = new Date(split * 1000);
      return monthly && (index === 0 || date.getMonth() === 0)
        ? withYear.format(date)
        : plain.format(date);
    });
  };
}

/** The value axis's ticks as the language in force writes its numbers. */
const localNumberTicks = (_plot: uPlot, splits: number[]) =>
  splits.map((split) => (split === null || split === undefined ? '' : formatNumber(split)));

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

/**
 * Where each marker inside the drawn time axis falls, told after every draw (a resize
 * included): the markers are elements beside the canvas, not pixels on it, so each has a name.
 */
function markersPlaced(
  markers: readonly SeverityMarker[],
  box: () => HTMLElement | null,
  placed: (markers: PlacedMarker[]) => void,
): uPlot.Plugin {
  return {
    hooks: {
      draw: (plot) => {
        const outer = box();
        const { min, max } = plot.scales.x ?? {};
        if (!outer || min === undefined || max === undefined) return;
        const area = plot.over.getBoundingClientRect();
        const frame = outer.getBoundingClientRect();
        placed(
          markers
            .filter((marker) => {
              const time = seconds(marker.at);
              return time >= min && time <= max;
            })
            .map((marker) => ({
              marker,
              left: area.left - frame.left + plot.valToPos(seconds(marker.at), 'x'),
              bottom: frame.bottom - area.bottom,
            })),
        );
      },
    },
  };
}

export default function TrendChart({
  name,
  points,
  unit,
  range,
  series2,
  markers,
  markersName,
}: TrendChartProps) {
  const { t } = useTranslation();
  const markersLabel = markersName ?? t('Symptom severity');
  const secondName = t('{name} (second)', { name });
  const holder = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [placed, setPlaced] = useState<PlacedMarker[]>([]);
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
        ...(markers?.length ? [markersPlaced(markers, () => frame.current, setPlaced)] : []),
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
            // Room under the lines for the severity bars, so that neither hides the other.
            const under = markers?.length ? (high - low + 2 * pad) * MARKER_ROOM : 0;
            return [low - pad - under, high + pad];
          },
        },
      },
      axes: [{ values: localTimeTicks() }, { label: unit, size: 56, values: localNumberTicks }],
      series: [{}, line(PRIMARY, name), ...(series2 ? [line(SECOND, secondName)] : [])],
    };
    const plot = new uPlot(options, data, element);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: width(), height: chartHeight(width(), HEIGHT) }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
      setPlaced([]);
    };
  }, [name, secondName, points, unit, range, series2, markers]);

  return (
    <div>
      <div ref={frame} className="relative">
        <div
          ref={holder}
          role="img"
          aria-label={name}
          className="w-full overflow-hidden"
          style={{ minHeight: HEIGHT }}
        />
        {placed.length ? (
          <ul aria-label={markersLabel} className="pointer-events-none absolute inset-0">
            {placed.map(({ marker, left, bottom }) => (
              <li
                key={marker.id}
                className="absolute w-1.5 -translate-x-1/2"
                style={{
                  left,
                  bottom,
                  height: Math.max(4, (MARKER_HEIGHT * marker.severity) / marker.max),
                }}
              >
                <span
                  role="img"
                  aria-label={marker.label}
                  title={marker.label}
                  className="block size-full rounded-t-sm bg-fuchsia-600/75 dark:bg-fuchsia-400/75"
                />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {placed.length ? (
        // What the bars are, for the eye; the list's name says it to a screen reader.
        <p
          aria-hidden="true"
          className="mt-1 flex items-center gap-2 text-xs text-muted-foreground"
        >
          <span className="inline-block h-3 w-1.5 rounded-t-sm bg-fuchsia-600/75 dark:bg-fuchsia-400/75" />
          {t('{name} (1–{max})', {
            name: markersLabel,
            max: formatNumber(placed[0]!.marker.max),
          })}
        </p>
      ) : null}
    </div>
  );
}
