/**
 * The units the growth screen shows its values in.
 *
 * INTEGRATION (CONTRACT §5 'Units'): this is the one place the growth screen learns the
 * account's Units. The 'vitals' work adds the Units setting and the units module that wraps
 * the UCUM library; when merged, read the setting here and convert through that module.
 * Until then everything shows in the canonical (metric) units it is stored and computed in.
 */
import type { GrowthMeasure } from '../../../shared/growth/charts';

export interface GrowthDisplay {
  /** The unit shown beside values and on the chart's axis. */
  unit: string;
  /** A canonical value in the shown unit. */
  convert: (value: number) => number;
  /** Digits after the point in the table. */
  digits: number;
}

const METRIC: Record<GrowthMeasure, GrowthDisplay> = {
  weightKg: { unit: 'kg', convert: (value) => value, digits: 2 },
  heightCm: { unit: 'cm', convert: (value) => value, digits: 1 },
  headCircumferenceCm: { unit: 'cm', convert: (value) => value, digits: 1 },
  bmi: { unit: 'kg/m²', convert: (value) => value, digits: 1 },
};

export function useGrowthDisplay(measure: GrowthMeasure): GrowthDisplay {
  return METRIC[measure];
}

export function formatGrowthValue(value: number, display: GrowthDisplay): string {
  return `${display.convert(value).toFixed(display.digits)} ${display.unit}`;
}
