/**
 * Units (CONTRACT §5): every measure is stored in one canonical UCUM unit and shown in the
 * account's chosen system, 'Metric' or 'US'. This is the one place that converts.
 *
 * The conversions are a table of UCUM units with their factors to the canonical unit, not
 * `@lhncbc/ucum-lhc` itself: that library with its unit definitions is about 100 kB of
 * compressed JavaScript, five times the chart's whole chunk, and every form and list would
 * carry it. Its answers are the reference: units.test.ts converts each row of this table
 * with ucum-lhc and holds the two to the same numbers (decision 0030).
 */
import { key, tr } from './i18n/translate';

export const UNIT_SYSTEMS = ['metric', 'us'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];
export const DEFAULT_UNITS: UnitSystem = 'metric';
export const UNIT_SYSTEM_LABELS: Record<UnitSystem, string> = {
  metric: key('Metric'),
  us: key('US'),
};
export const UNITS_LABEL = key('Units');

/** A unit a value can be shown in: its UCUM code, how it is printed, and how it maps to the canonical unit. */
export interface UnitSpec {
  ucum: string;
  symbol: string;
  /** canonical = value × factor + offset */
  factor: number;
  offset?: number;
  /** Decimals shown. */
  decimals: number;
}

export interface Measure {
  /** The canonical UCUM unit the value is stored in. */
  canonical: string;
  /** The shown unit for each system. */
  units: Record<UnitSystem, UnitSpec>;
  /** Plausible values, in the canonical unit: outside them, a value is refused. */
  min: number;
  max: number;
  /** Counted or read in whole numbers (a pulse, a blood pressure, a score). */
  whole?: boolean;
}

const same = (ucum: string, symbol: string, decimals: number): Record<UnitSystem, UnitSpec> => {
  const unit = { ucum, symbol, factor: 1, decimals };
  return { metric: unit, us: unit };
};

/** The molar mass of glucose (C6H12O6), g/mol: 18.016 mg/dL is 1 mmol/L. */
export const GLUCOSE_MOLAR_MASS = 180.16;

const kilogram: UnitSpec = { ucum: 'kg', symbol: 'kg', factor: 1, decimals: 1 };
const pound: UnitSpec = { ucum: '[lb_av]', symbol: 'lb', factor: 0.45359237, decimals: 1 };
const centimetre: UnitSpec = { ucum: 'cm', symbol: 'cm', factor: 1, decimals: 1 };
const inch: UnitSpec = { ucum: '[in_i]', symbol: 'in', factor: 2.54, decimals: 1 };

/** Every measure the product keeps, by name. */
export const MEASURES = {
  weight: { canonical: 'kg', units: { metric: kilogram, us: pound }, min: 0.2, max: 500 },
  height: { canonical: 'cm', units: { metric: centimetre, us: inch }, min: 20, max: 275 },
  head_circumference: {
    canonical: 'cm',
    units: { metric: centimetre, us: inch },
    min: 15,
    max: 75,
  },
  systolic: {
    canonical: 'mm[Hg]',
    units: same('mm[Hg]', 'mmHg', 0),
    min: 40,
    max: 300,
    whole: true,
  },
  diastolic: {
    canonical: 'mm[Hg]',
    units: same('mm[Hg]', 'mmHg', 0),
    min: 20,
    max: 200,
    whole: true,
  },
  heart_rate: { canonical: '/min', units: same('/min', '/min', 0), min: 20, max: 300, whole: true },
  respiratory_rate: {
    canonical: '/min',
    units: same('/min', '/min', 0),
    min: 4,
    max: 120,
    whole: true,
  },
  temperature: {
    canonical: 'Cel',
    units: {
      metric: { ucum: 'Cel', symbol: '°C', factor: 1, decimals: 1 },
      us: { ucum: '[degF]', symbol: '°F', factor: 5 / 9, offset: (-32 * 5) / 9, decimals: 1 },
    },
    min: 25,
    max: 45,
  },
  pain_score: {
    canonical: '{score}',
    units: same('{score}', '/10', 0),
    min: 0,
    max: 10,
    whole: true,
  },
  oxygen_saturation: { canonical: '%', units: same('%', '%', 0), min: 50, max: 100 },
  blood_glucose: {
    canonical: 'mg/dL',
    units: {
      metric: { ucum: 'mmol/L', symbol: 'mmol/L', factor: GLUCOSE_MOLAR_MASS / 10, decimals: 1 },
      us: { ucum: 'mg/dL', symbol: 'mg/dL', factor: 1, decimals: 0 },
    },
    min: 10,
    max: 1500,
  },
  bmi: { canonical: 'kg/m2', units: same('kg/m2', 'kg/m²', 1), min: 5, max: 150 },
} as const satisfies Record<string, Measure>;

export type MeasureName = keyof typeof MEASURES;

export const unitOf = (measure: MeasureName, system: UnitSystem): UnitSpec =>
  MEASURES[measure].units[system];

/** A value typed in the shown unit, in the canonical unit (kept to 4 decimals). */
export function toCanonical(measure: MeasureName, value: number, system: UnitSystem): number {
  const unit: UnitSpec = unitOf(measure, system);
  return round(value * unit.factor + (unit.offset ?? 0), 4);
}

/** A canonical value in the shown unit, unrounded. */
export function fromCanonical(measure: MeasureName, value: number, system: UnitSystem): number {
  const unit: UnitSpec = unitOf(measure, system);
  return (value - (unit.offset ?? 0)) / unit.factor;
}

export function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** A canonical value as a form input shows it: the shown unit, rounded to its decimals. */
export function toInputValue(measure: MeasureName, value: number, system: UnitSystem): string {
  return String(round(fromCanonical(measure, value, system), unitOf(measure, system).decimals));
}

/** '72.5 kg', '160 lb', '98.6 °F', '120 mmHg'. */
/** One number format per count of decimals: made once, not on every reading shown. */
const numberFormats = new Map<number, Intl.NumberFormat>();
function numberFormat(decimals: number): Intl.NumberFormat {
  let format = numberFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: decimals });
    numberFormats.set(decimals, format);
  }
  return format;
}

export function formatMeasure(measure: MeasureName, value: number, system: UnitSystem): string {
  const unit = unitOf(measure, system);
  const shown = round(fromCanonical(measure, value, system), unit.decimals);
  const text = numberFormat(unit.decimals).format(shown);
  return unit.symbol.startsWith('°') || unit.symbol === '%'
    ? `${text}${unit.symbol === '%' ? '' : ' '}${unit.symbol}`
    : `${text} ${unit.symbol}`;
}

/** The plausible range of a measure in the shown unit, as a message names it. */
export function plausibleRange(measure: MeasureName, system: UnitSystem) {
  const unit = unitOf(measure, system);
  const { min, max } = MEASURES[measure];
  return {
    min: round(fromCanonical(measure, min, system), unit.decimals),
    max: round(fromCanonical(measure, max, system), unit.decimals),
    symbol: unit.symbol,
  };
}

/** 'Weight must be between 0.4 and 1102.3 lb' */
export function outOfRangeMessage(label: string, measure: MeasureName, system: UnitSystem) {
  const { min, max, symbol } = plausibleRange(measure, system);
  return tr('{label} must be between {min} and {max} {unit}', {
    label: tr(label),
    min,
    max,
    unit: symbol,
  });
}
