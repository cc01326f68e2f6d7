/**
 * A growth chart (CONTRACT §5): a reference's percentile curves, each labelled at its end,
 * behind a child's measurements, drawn by uPlot on a canvas. The canvas is an image named
 * 'Growth chart'; the screen's table is its accessible alternative. Below it the chart names
 * its sources. This module (and uPlot with it) is a chunk of its own, loaded by the screens
 * that draw a growth chart; its first draw is measured as 'growth-chart-draw'.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';
import { chartHeight } from './chart-size';

export interface GrowthChartCurve {
  /** '3rd', '50th', … */
  label: string;
  percentile: number;
  values: (number | null)[];
}

export interface GrowthChartProps {
  /** Ages in calendar months (shared/ages.ts), ascending: the x of every series. */
  ages: number[];
  curves: GrowthChartCurve[];
  /** The child's values at `ages`, null where none was measured. */
  points: (number | null)[];
  fromMonths: number;
  toMonths: number;
  /** The unit of the values, for the axis. */
  unit: string;
  /** The references drawn, by name. */
  sources: string[];
}

const HEIGHT = 300;
/** Beyond three years the age axis counts years. */
const MONTHS_AXIS_LIMIT = 36;
/** Tick steps of the age axis, in months, the first that leaves room for its labels. */
const AGE_TICK_STEPS = [1, 2, 3, 6, 12, 24, 36, 60];
const MIN_TICK_SPACE_PX = 36;

/**
 * Ticks at whole steps of the age axis: months, or years past three years. The axis counts
 * calendar months, so a tick falls on the monthiversary (12: the first birthday).
 */
function ageSplits(fromMonths: number, toMonths: number, widthPx: number, inYears: boolean) {
  const steps = inYears ? AGE_TICK_STEPS.filter((step) => step % 12 === 0) : AGE_TICK_STEPS;
  const span = toMonths - fromMonths;
  if (!(span > 0)) return [fromMonths];
  const step =
    steps.find((candidate) => ((widthPx || 300) * candidate) / span >= MIN_TICK_SPACE_PX) ??
    steps.at(-1)!;
  const splits: number[] = [];
  for (let age = Math.ceil(fromMonths / step) * step; age <= toMonths; age += step)
    splits.push(age);
  return splits;
}

function cssColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** uPlot's options for these props at a width. */
function chartOptions(props: GrowthChartProps, width: number, onDrawn: () => void): uPlot.Options {
  const muted = cssColor('--muted-foreground', '#51636a');
  const foreground = cssColor('--foreground', '#0f1f24');
  const primary = cssColor('--primary', '#0f766e');
  const grid = cssColor('--border', '#d7e0e2');
  const card = cssColor('--surface', '#ffffff');
  const inYears = props.toMonths - props.fromMonths > MONTHS_AXIS_LIMIT;
  const font = '12px system-ui, sans-serif';
  return {
    width,
    height: chartHeight(width, HEIGHT),
    padding: [12, 36, 0, 0],
    legend: { show: false },
    cursor: { show: false },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: { x: { time: false, range: [props.fromMonths, props.toMonths] } },
    axes: [
      {
        label: inYears ? tr('Age (years)') : tr('Age (months)'),
        stroke: foreground,
        font,
        labelFont: font,
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid, width: 1 },
        splits: (chart) =>
          ageSplits(props.fromMonths, props.toMonths, chart.bbox.width / devicePixelRatio, inYears),
        values: (_, splits) => splits.map((months) => formatNumber(inYears ? months / 12 : months)),
      },
      {
        label: tr(props.unit),
        stroke: foreground,
        font,
        labelFont: font,
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid, width: 1 },
        size: 44,
        values: (_, splits) => splits.map((value) => formatNumber(value)),
      },
    ],
    series: [
      {},
      ...props.curves.map((curve): uPlot.Series => ({
        label: tr(curve.label),
        stroke: muted,
        width: curve.percentile === 50 ? 1.5 : 1,
        dash: curve.percentile === 50 ? undefined : [4, 3],
        points: { show: false },
        spanGaps: false,
      })),
      {
        // The series' name for uPlot only: its legend is not shown (the table names them).
        label: 'Measurements',
        stroke: primary,
        width: 2,
        points: { show: true, size: 8, fill: primary, stroke: primary },
        spanGaps: true,
      },
    ],
    hooks: {
      draw: [
        (chart) => {
          // Each curve's label at its last point: right of the plot for the curves that reach
          // its end, above the end of those that stop inside it (a reference that gives way to
          // another, at 2 years), on a halo of the card's colour so that the curves and the
          // measurements crossing there do not run through it; a label that would overlap its
          // neighbour is left out.
          const { ctx } = chart;
          const ratio = devicePixelRatio;
          const plotRight = chart.bbox.left + chart.bbox.width;
          ctx.save();
          ctx.font = `${String(Math.round(10 * ratio))}px system-ui, sans-serif`;
          ctx.textBaseline = 'middle';
          ctx.fillStyle = muted;
          ctx.strokeStyle = card;
          ctx.lineWidth = 3 * ratio;
          ctx.lineJoin = 'round';
          const labels = props.curves.flatMap((curve) => {
            let index = curve.values.length - 1;
            while (index >= 0 && curve.values[index] === null) index -= 1;
            const value = curve.values[index];
            const age = props.ages[index];
            if (value === null || value === undefined || age === undefined) return [];
            const x = chart.valToPos(age, 'x', true);
            const y = chart.valToPos(value, 'y', true);
            const atEnd = x >= plotRight - ratio;
            return [{ text: tr(curve.label), atEnd, x: atEnd ? x + 3 * ratio : x - 2 * ratio, y }];
          });
          labels.sort((a, b) => a.x - b.x || a.y - b.y);
          const lineHeight = 11 * ratio;
          let last: { x: number; y: number } | null = null;
          for (const label of labels) {
            if (last && label.x === last.x && label.y - last.y < lineHeight) continue;
            ctx.textAlign = label.atEnd ? 'left' : 'right';
            const y = label.atEnd ? label.y : label.y - lineHeight / 2;
            if (!label.atEnd) ctx.strokeText(label.text, label.x, y);
            ctx.fillText(label.text, label.x, y);
            last = label;
          }
          ctx.restore();
          onDrawn();
        },
      ],
    },
  };
}

export default function GrowthChart(props: GrowthChartProps) {
  const { t } = useTranslation();
  const target = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    // Read first: it lays out the page just rendered, which is the page's work, not the chart's.
    const width = element.clientWidth;
    const start = performance.now();
    let measured = false;
    const onDrawn = () => {
      if (measured) return;
      measured = true;
      performance.measure('growth-chart-draw', { start, end: performance.now() });
    };
    const data: uPlot.AlignedData = [
      props.ages,
      ...props.curves.map((curve) => curve.values),
      props.points,
    ];
    const chart = new uPlot(chartOptions(props, width, onDrawn), data, element);
    performance.measure('growth-chart-create', { start, end: performance.now() });
    const resize = new ResizeObserver(() => {
      if (element.clientWidth !== chart.width)
        chart.setSize({
          width: element.clientWidth,
          height: chartHeight(element.clientWidth, HEIGHT),
        });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [props]);

  return (
    <figure className="space-y-2">
      <div ref={target} role="img" aria-label={t('Growth chart')} className="w-full" />
      <figcaption className="text-xs text-muted-foreground">
        {t(
          'Source: {sources}. The dashed lines are percentiles; the solid grey line is the median (50th).',
          { sources: props.sources.map((source) => t(source)).join('; ') },
        )}
      </figcaption>
    </figure>
  );
}
