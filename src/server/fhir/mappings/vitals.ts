/**
 * Vitals as FHIR R4 Observations, both ways (decision 0030). Out: one Observation per
 * measure of an entry, in the FHIR vital-signs profiles (LOINC code, UCUM quantity), blood
 * pressure as the 85354-9 panel with its systolic and diastolic components, BMI derived when
 * the entry has a weight and a height, blood glucose a laboratory observation. In: every
 * Observation of a known vital-sign code, converted to the canonical unit, grouped with the
 * others of the same person at the same moment into one vitals entry.
 */
import type { Observation, ObservationComponent, Quantity, Resource } from '@medplum/fhirtypes';
import { bmi } from '../../../shared/bmi';
import { toUtcTimestamp, isTimestamp } from '../../../shared/date-values';
import { GLUCOSE_TIMINGS, VITAL_COLUMNS, type VitalColumn } from '../../../shared/records/vitals';
import { MEASURES, type MeasureName, type UnitSpec } from '../../../shared/units';
import {
  SYSTEM,
  coding,
  derivedId,
  kinExtension,
  kinExtensions,
  notes,
  referenceTo,
} from '../fhir-elements';
import type { MappingContext } from './mapping';
import type { FhirRows } from '../fhir-source';

const UCUM = 'http://unitsofmeasure.org';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';

export const VITAL_SIGNS_SECTION = { code: '8716-3', display: 'Vital signs' } as const;

/** The LOINC code of each measured column, as the vital-signs profiles name them. */
const LOINC: Record<Exclude<VitalColumn, 'systolic_mmhg' | 'diastolic_mmhg'>, [string, string]> = {
  weight_kg: ['29463-7', 'Body weight'],
  height_cm: ['8302-2', 'Body height'],
  head_circumference_cm: ['9843-4', 'Head Occipital-frontal circumference'],
  heart_rate_per_min: ['8867-4', 'Heart rate'],
  respiratory_rate_per_min: ['9279-1', 'Respiratory rate'],
  temperature_c: ['8310-5', 'Body temperature'],
  oxygen_saturation_pct: ['59408-5', 'Oxygen saturation in Arterial blood by Pulse oximetry'],
  pain_score: ['72514-3', 'Pain severity - 0-10 verbal numeric rating [Score] - Reported'],
  blood_glucose_mg_dl: ['2339-0', 'Glucose [Mass/volume] in Blood'],
};
const BP_PANEL: [string, string] = ['85354-9', 'Blood pressure panel with all children optional'];
const SYSTOLIC: [string, string] = ['8480-6', 'Systolic blood pressure'];
const DIASTOLIC: [string, string] = ['8462-4', 'Diastolic blood pressure'];
const BMI: [string, string] = ['39156-5', 'Body mass index (BMI) [Ratio]'];
const FASTING_GLUCOSE: [string, string] = [
  '1558-6',
  'Fasting glucose [Mass/volume] in Serum or Plasma',
];
/** The R4 oxygen saturation profile asks for this code beside the pulse oximetry one. */
const OXYGEN_SATURATION: [string, string] = ['2708-6', 'Oxygen saturation in Arterial blood'];

const loinc = ([code, display]: [string, string]) => coding(SYSTEM.loinc, code, display);

function category(code: 'vital-signs' | 'laboratory') {
  return [
    {
      coding: [
        coding(OBSERVATION_CATEGORY, code, code === 'vital-signs' ? 'Vital Signs' : 'Laboratory'),
      ],
    },
  ];
}

function quantity(measure: MeasureName, value: number): Quantity {
  const unit: UnitSpec = MEASURES[measure].units.metric;
  const canonical = MEASURES[measure].canonical;
  const symbol =
    measure === 'blood_glucose' ? 'mg/dL' : unit.symbol === '/10' ? '{score}' : unit.symbol;
  return { value, unit: symbol, system: UCUM, code: canonical };
}

/** Each measure of a vitals entry as an Observation; BMI too when the entry has both. */
export function vitalResources(row: FhirRows['vital'], context: MappingContext): Observation[] {
  const base = (part: string, kind: 'vital-signs' | 'laboratory' = 'vital-signs') => ({
    resourceType: 'Observation' as const,
    id: derivedId(row.id, part),
    status: 'final' as const,
    category: category(kind),
    subject: context.patient,
    effectiveDateTime: row.measured_at,
  });
  const observations: Observation[] = [];
  for (const column of Object.keys(LOINC) as (keyof typeof LOINC)[]) {
    const value = row[column];
    if (typeof value !== 'number') continue;
    const measure = VITAL_COLUMNS[column];
    if (column === 'blood_glucose_mg_dl') {
      const fasting = row.glucose_timing === 'Fasting';
      observations.push({
        ...base(column, 'laboratory'),
        extension: kinExtensions({ 'glucose-timing': row.glucose_timing }),
        code: { coding: [loinc(fasting ? FASTING_GLUCOSE : LOINC[column])] },
        valueQuantity: quantity(measure, value),
      });
      continue;
    }
    const codings =
      column === 'oxygen_saturation_pct'
        ? [loinc(LOINC[column]), loinc(OXYGEN_SATURATION)]
        : [loinc(LOINC[column])];
    observations.push({
      ...base(column),
      code: { coding: codings },
      valueQuantity: quantity(measure, value),
    });
  }
  if (typeof row.systolic_mmhg === 'number' && typeof row.diastolic_mmhg === 'number') {
    const component = (code: [string, string], value: number): ObservationComponent => ({
      code: { coding: [loinc(code)] },
      valueQuantity: quantity('systolic', value),
    });
    observations.push({
      ...base('blood_pressure'),
      code: { coding: [loinc(BP_PANEL)] },
      component: [component(SYSTOLIC, row.systolic_mmhg), component(DIASTOLIC, row.diastolic_mmhg)],
    });
  }
  if (typeof row.weight_kg === 'number' && typeof row.height_cm === 'number') {
    observations.push({
      ...base('bmi'),
      code: { coding: [loinc(BMI)] },
      valueQuantity: quantity('bmi', bmi(row.weight_kg, row.height_cm)),
      derivedFrom: [
        referenceTo(derivedId(row.id, 'weight_kg')),
        referenceTo(derivedId(row.id, 'height_cm')),
      ],
    });
  }
  // The entry's notes go with its first observation.
  const [first] = observations;
  if (first && row.notes) first.note = notes(row.notes);
  return observations;
}

/**
 * The newest observation of each vital sign of a person, for the summary's 'Vital signs'
 * section (each with its line), newest first. Rows come newest first or in any order.
 */
export function latestVitalSigns(
  rows: Iterable<FhirRows['vital']>,
  context: MappingContext,
): { resource: Observation; line: string }[] {
  const latest = new Map<string, Observation>();
  for (const row of rows) {
    for (const observation of vitalResources(row, context)) {
      const key = observation.code.coding?.[0]?.code ?? '';
      const known = latest.get(key);
      if (!known || (known.effectiveDateTime ?? '') < row.measured_at) latest.set(key, observation);
    }
  }
  return [...latest.values()]
    .map((observation) => {
      // The summary holds one observation per sign, not what each was derived from.
      const { derivedFrom: _derivedFrom, ...resource } = observation;
      return { resource, line: observationLine(resource) };
    })
    .sort((a, b) =>
      (b.resource.effectiveDateTime ?? '').localeCompare(a.resource.effectiveDateTime ?? ''),
    );
}

function observationLine(observation: Observation): string {
  const name = observation.code.coding?.[0]?.display ?? 'Vital sign';
  const show = (quantity: Quantity | undefined) => `${quantity?.value} ${quantity?.unit}`;
  const value = observation.component
    ? `${observation.component[0]?.valueQuantity?.value}/${show(observation.component[1]?.valueQuantity)}`
    : show(observation.valueQuantity);
  return `${name}: ${value}, ${observation.effectiveDateTime}`;
}

// ---- import ---------------------------------------------------------------------------

/** Each LOINC code read, and the column it fills. */
const COLUMN_OF_CODE = new Map<string, VitalColumn>([
  ...(Object.entries(LOINC) as [VitalColumn, [string, string]][]).map(
    ([column, [code]]): [string, VitalColumn] => [code, column],
  ),
  [FASTING_GLUCOSE[0], 'blood_glucose_mg_dl'],
  [OXYGEN_SATURATION[0], 'oxygen_saturation_pct'],
  // Body height lying (a baby's length), and the older LOINC of heart rate by palpation.
  ['8306-3', 'height_cm'],
  ['8287-5', 'head_circumference_cm'],
  ['8480-6', 'systolic_mmhg'],
  ['8462-4', 'diastolic_mmhg'],
]);
/** Blood pressure panels: today's, and the older one Synthea still writes. */
const BP_PANELS = new Set([BP_PANEL[0], '55284-4', '35094-2']);
/** Derived here, so read as taken (not skipped) and never stored. */
const DERIVED = new Set([BMI[0]]);

/** What one Observation holds for a vitals entry. */
export interface VitalReading {
  /** The moment, a UTC timestamp: readings of the same moment are one entry. */
  moment: string;
  values: Partial<Record<VitalColumn, number>>;
  glucose_timing?: string;
  notes?: string;
}

const codesOf = (resource: { code?: { coding?: { system?: string; code?: string }[] } }) =>
  (resource.code?.coding ?? [])
    .filter((item) => !item.system || item.system === SYSTEM.loinc)
    .map((item) => item.code ?? '');

/** A quantity in the column's canonical unit, or null when its unit is not one we know. */
function canonicalValue(column: VitalColumn, value: Quantity | undefined): number | null {
  if (typeof value?.value !== 'number') return null;
  const measure = MEASURES[VITAL_COLUMNS[column]];
  const unit = value.code ?? value.unit;
  const spec = (Object.values(measure.units) as UnitSpec[]).find(
    (candidate) =>
      candidate.ucum === unit ||
      (unit !== undefined && candidate.symbol === unit) ||
      (candidate.ucum === '/min' && unit === '{beats}/min') ||
      (candidate.ucum === '/min' && unit === '{breaths}/min'),
  );
  // A score or a percentage may come with no unit, or one we read as itself.
  if (!spec) {
    const unitless = measure.canonical === '{score}' || measure.canonical === '%';
    const number = 'whole' in measure ? Math.round(value.value) : value.value;
    return unitless && number >= measure.min && number <= measure.max ? number : null;
  }
  const exact = value.value * spec.factor + (spec.offset ?? 0);
  // A pulse or a pressure is kept whole, as it is typed (Synthea writes fractions).
  const canonical = 'whole' in measure ? Math.round(exact) : Math.round(exact * 10_000) / 10_000;
  // What no one could measure is not kept (the Observation is counted as skipped).
  return canonical >= measure.min && canonical <= measure.max ? canonical : null;
}

/**
 * What a vital-sign Observation holds, 'derived' for one we derive ourselves (BMI), or null
 * when it is no vital sign we keep (the caller reads it as something else, or skips it).
 */
export function readVitalObservation(resource: Resource): VitalReading | 'derived' | null {
  if (resource.resourceType !== 'Observation') return null;
  const codes = codesOf(resource);
  if (codes.some((code) => DERIVED.has(code))) return 'derived';
  const moment = resource.effectiveDateTime ?? resource.effectivePeriod?.start;
  if (!moment || !isTimestamp(moment)) return null;
  if (resource.status === 'entered-in-error' || resource.status === 'cancelled') return null;
  const values: VitalReading['values'] = {};
  if (codes.some((code) => BP_PANELS.has(code))) {
    for (const component of resource.component ?? []) {
      const column = codesOf(component)
        .map((code) => COLUMN_OF_CODE.get(code))
        .find((found) => found === 'systolic_mmhg' || found === 'diastolic_mmhg');
      const value = column ? canonicalValue(column, component.valueQuantity) : null;
      if (column && value !== null) values[column] = value;
    }
  } else {
    const column = codes.map((code) => COLUMN_OF_CODE.get(code)).find(Boolean);
    const value = column ? canonicalValue(column, resource.valueQuantity) : null;
    if (column && value !== null) values[column] = value;
  }
  if (Object.keys(values).length === 0) return null;
  const timing = kinExtension(resource, 'glucose-timing');
  const fasting = codes.includes(FASTING_GLUCOSE[0]);
  return {
    moment: toUtcTimestamp(moment),
    values,
    ...(values.blood_glucose_mg_dl !== undefined &&
    (fasting || GLUCOSE_TIMINGS.includes(timing as (typeof GLUCOSE_TIMINGS)[number]))
      ? { glucose_timing: fasting ? 'Fasting' : (timing as string) }
      : {}),
    ...(resource.note?.[0]?.text ? { notes: resource.note[0].text } : {}),
  };
}

/** Readings of the same moment as one entry's values, in the order the moments came. */
export function groupVitalReadings<T extends { reading: VitalReading }>(
  readings: readonly T[],
): { values: Record<string, unknown>; members: T[] }[] {
  const groups = new Map<string, { values: Record<string, unknown>; members: T[] }>();
  for (const item of readings) {
    const { reading } = item;
    let group = groups.get(reading.moment);
    if (!group) {
      group = { values: { measured_at: reading.moment }, members: [] };
      groups.set(reading.moment, group);
    }
    group.members.push(item);
    for (const [column, value] of Object.entries(reading.values)) group.values[column] ??= value;
    if (reading.glucose_timing) group.values.glucose_timing ??= reading.glucose_timing;
    if (reading.notes) group.values.notes ??= reading.notes;
  }
  return [...groups.values()];
}
