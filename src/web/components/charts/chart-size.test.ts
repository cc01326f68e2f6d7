/** A chart's height for its width. */
import { describe, expect, it } from 'vitest';
import { chartHeight, WIDE_CHART_PX } from './chart-size';

describe('chartHeight', () => {
  it('keeps the height on a phone and draws a wide chart a third taller', () => {
    expect(chartHeight(358, 240)).toBe(240);
    expect(chartHeight(WIDE_CHART_PX - 1, 300)).toBe(300);
    expect(chartHeight(WIDE_CHART_PX, 240)).toBe(320);
    expect(chartHeight(1100, 300)).toBe(400);
  });
});
