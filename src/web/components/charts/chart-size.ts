/**
 * How tall a chart is drawn for its width: its own height on a phone, a third taller where it
 * is wide (a desk's column), so that a long line keeps its slopes readable.
 */

/** From this width (CSS pixels) a chart is wide. */
export const WIDE_CHART_PX = 720;

export function chartHeight(width: number, base: number): number {
  return width >= WIDE_CHART_PX ? Math.round((base * 4) / 3) : base;
}
