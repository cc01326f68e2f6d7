/**
 * The units the growth screen shows its values in: the account's Units (CONTRACT §5
 * 'Units'), converted through the one units module (shared/units.ts). Percentiles are
 * computed on the canonical (metric) values; only what is shown changes.
 */
import { formatNumber } from '../../../shared/dates';
import type { GrowthMeasure } from '../../../shared/growth/charts';
import { tr } from '../../../shared/i18n/translate';
import { fromCanonical, unitOf, type MeasureName, type UnitSystem } from '../../../shared/units';
import { useUnits } from '../profile-settings/profile-queries';

export interface GrowthDisplay {
  /** The unit shown beside values and on the chart's axis. */
  unit: string;
  /** A canonical value in the shown unit. */
  convert: (value: number) => number;
  /** Digits after the point in the table. */
  digits: number;
}

/** The units module's measure for each growth measure; BMI is kg/m² in every system. */
const MEASURE_OF: Record<GrowthMeasure, MeasureName | null> = {
  weightKg: 'weight',
  heightCm: 'height',
  headCircumferenceCm: 'head_circumference',
  bmi: null,
};

/** A child's weight is read to the hundredth of its unit, lengths to the tenth. */
const DIGITS: Record<GrowthMeasure, number> = {
  weightKg: 2,
  heightCm: 1,
  headCircumferenceCm: 1,
  bmi: 1,
};

export function growthDisplay(measure: GrowthMeasure, system: UnitSystem): GrowthDisplay {
  const name = MEASURE_OF[measure];
  if (!name) return { unit: 'kg/m²', convert: (value) => value, digits: DIGITS[measure] };
  return {
    unit: unitOf(name, system).symbol,
    convert: (value) => fromCanonical(name, value, system),
    digits: DIGITS[measure],
  };
}

export function useGrowthDisplay(measure: GrowthMeasure): GrowthDisplay {
  return growthDisplay(measure, useUnits());
}

export function formatGrowthValue(value: number, display: GrowthDisplay): string {
  const number = formatNumber(display.convert(value), {
    minimumFractionDigits: display.digits,
    maximumFractionDigits: display.digits,
    useGrouping: false,
  });
  return `${number} ${tr(display.unit)}`;
}
