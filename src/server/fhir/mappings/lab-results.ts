/**
 * Lab results as FHIR R4 Observations and back (docs/decisions/0031-lab-results.md): category
 * `laboratory`, the LOINC code when the result has one (the test name as `.text` always),
 * the result as a valueQuantity (its unit as a UCUM code when it is one) or a valueString,
 * the range as referenceRange, 'High' / 'Low' / 'Normal' as an interpretation from
 * v3-ObservationInterpretation, and the lab as the performer's display.
 */
import { createRequire } from 'node:module';
import type {
  CodeableConcept,
  Observation,
  ObservationReferenceRange,
  Quantity,
} from '@medplum/fhirtypes';
import { decimalOf, labFlag, rangeText, twelveMonthsBefore } from '../../../shared/labs/lab-flag';
import { labTestOfCode } from '../../../shared/labs/lab-tests';
import {
  SYSTEM,
  calendarDate,
  codedConcept,
  coding,
  kinExtension,
  kinExtensions,
  notes,
  textOf,
} from '../fhir-elements';
import { IGNORE, SKIP, type MapResult } from './mapping';
import type { MappingContext } from './mapping';
import type { FhirRows, FhirValues } from '../fhir-source';

export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
export const UCUM = 'http://unitsofmeasure.org';

const INTERPRETATION_CODES = {
  High: ['H', 'High'],
  Low: ['L', 'Low'],
  Normal: ['N', 'Normal'],
} as const;

interface UcumUtils {
  validateUnitString(unit: string, suggest?: boolean): { status: string; ucumCode: string | null };
}
let ucum: UcumUtils | undefined;

/** Whether a unit as typed is a UCUM code (checked with the UCUM library, loaded once). */
export function isUcumCode(unit: string): boolean {
  if (!unit.trim()) return false;
  ucum ??= (
    createRequire(import.meta.url)('@lhncbc/ucum-lhc') as {
      UcumLhcUtils: { getInstance(): UcumUtils };
    }
  ).UcumLhcUtils.getInstance();
  const checked = ucum.validateUnitString(unit);
  return checked.status === 'valid' && checked.ucumCode === unit;
}

function quantity(value: number, unit: string | null): Quantity {
  if (!unit) return { value };
  return isUcumCode(unit) ? { value, unit, system: UCUM, code: unit } : { value, unit };
}

const LABORATORY: CodeableConcept = codedConcept(OBSERVATION_CATEGORY, 'laboratory', 'Laboratory');

export function labResultResource(
  lab: FhirRows['lab_result'],
  context: MappingContext,
): Observation {
  const value = decimalOf(lab.result);
  const low = decimalOf(lab.range_low);
  const high = decimalOf(lab.range_high);
  const flag = labFlag(lab);
  const known = lab.loinc_code ? labTestOfCode(lab.loinc_code) : undefined;
  const range: ObservationReferenceRange | undefined =
    low !== null || high !== null
      ? {
          ...(low !== null ? { low: quantity(low, lab.unit) } : {}),
          ...(high !== null ? { high: quantity(high, lab.unit) } : {}),
        }
      : undefined;
  return {
    resourceType: 'Observation',
    id: lab.id,
    status: 'final',
    category: [LABORATORY],
    code: lab.loinc_code
      ? {
          coding: [coding(SYSTEM.loinc, lab.loinc_code, known?.display)],
          text: lab.test_name,
        }
      : { text: lab.test_name },
    // No R4 element holds who ordered a test without a resource, nor a text result's unit.
    extension: kinExtensions({
      'lab-ordered-by': lab.ordered_by,
      'lab-unit': value === null ? lab.unit : null,
    }),
    subject: context.patient,
    effectiveDateTime: lab.collected_date,
    performer: lab.lab ? [{ display: lab.lab }] : undefined,
    ...(value !== null
      ? { valueQuantity: quantity(value, lab.unit) }
      : { valueString: lab.result }),
    interpretation: flag
      ? [
          codedConcept(
            INTERPRETATION,
            INTERPRETATION_CODES[flag][0],
            INTERPRETATION_CODES[flag][1],
            flag,
          ),
        ]
      : undefined,
    referenceRange: range ? [range] : undefined,
    note: notes(lab.notes),
  };
}

// ---- import ---------------------------------------------------------------------------

/** Whether an Observation is a lab result: its category says `laboratory`. */
export function isLaboratory(observation: Observation): boolean {
  return (observation.category ?? []).some((category) =>
    (category.coding ?? []).some(
      (c) => c.code === 'laboratory' && (!c.system || c.system === OBSERVATION_CATEGORY),
    ),
  );
}

const numberText = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? null : String(value);

/** The result and unit of an Observation's value, or null when it holds none. */
function resultOf(observation: Observation): { result: string; unit: string | null } | null {
  const q = observation.valueQuantity;
  if (q?.value !== undefined) {
    const comparator = q.comparator ?? '';
    return { result: `${comparator}${q.value}`, unit: q.code ?? q.unit ?? null };
  }
  if (observation.valueCodeableConcept) {
    const text = textOf(observation.valueCodeableConcept);
    return text ? { result: text, unit: null } : null;
  }
  if (observation.valueString) {
    return { result: observation.valueString, unit: kinExtension(observation, 'lab-unit') };
  }
  if (observation.valueBoolean !== undefined) {
    return { result: observation.valueBoolean ? 'Positive' : 'Negative', unit: null };
  }
  if (observation.valueInteger !== undefined) {
    return { result: String(observation.valueInteger), unit: null };
  }
  return null;
}

/**
 * A laboratory Observation as a lab result. A panel (members, no value of its own) is read
 * through its members; one entered in error, or with no result at all, is skipped.
 */
export function labObservationRecord(observation: Observation): MapResult {
  if (observation.status === 'entered-in-error' || observation.status === 'cancelled') {
    return SKIP;
  }
  const value = resultOf(observation);
  if (!value) return observation.hasMember?.length ? IGNORE : SKIP;
  const loinc =
    (observation.code.coding ?? []).find(
      (c) => c.system === SYSTEM.loinc && c.code && /^\d{1,7}-\d$/.test(c.code),
    )?.code ?? null;
  const name = textOf(observation.code) ?? (loinc ? labTestOfCode(loinc)?.name : null) ?? null;
  const date =
    calendarDate(observation.effectiveDateTime) ??
    calendarDate(observation.effectivePeriod?.start) ??
    calendarDate(observation.issued);
  if (!name || !date) return SKIP;
  const range = observation.referenceRange?.[0];
  const values: Partial<FhirValues['lab_result']> = {
    test_name: name,
    loinc_code: loinc,
    result: value.result,
    unit: value.unit,
    range_low: numberText(range?.low?.value),
    range_high: numberText(range?.high?.value),
    collected_date: date,
    lab: observation.performer?.find((performer) => performer.display)?.display ?? null,
    ordered_by: kinExtension(observation, 'lab-ordered-by'),
    notes: (observation.note ?? []).map((note) => note.text).join('\n\n') || null,
  };
  return [{ type: 'lab_result', values }];
}

// ---- the summary's Results section ------------------------------------------------------

/** Whether a result belongs in the summary: collected in the twelve months up to today. */
export function isRecentLabResult(lab: { collected_date: string }, today: string): boolean {
  return lab.collected_date > twelveMonthsBefore(today) && lab.collected_date <= today;
}

/** A result as the summary's narrative reads it: 'LDL Cholesterol, 162 mg/dL, High (range ≤ 100), 2026-03-04'. */
export function labResultLine(lab: FhirRows['lab_result']): string {
  const flag = labFlag(lab);
  const range = rangeText(lab.range_low, lab.range_high);
  return [
    lab.test_name,
    lab.unit ? `${lab.result} ${lab.unit}` : lab.result,
    flag ? `${flag}${range ? ` (range ${range})` : ''}` : null,
    lab.collected_date,
  ]
    .filter(Boolean)
    .join(', ');
}
