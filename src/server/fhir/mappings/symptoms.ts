/**
 * Symptoms as FHIR R4 Observations and back (docs/decisions/0062-symptoms.md): category
 * `survey` (what the patient reports), the LOINC code 'Symptom' with the symptom as the
 * code's text, the severity as a valueQuantity on its 1–10 scale (`{score}`), the span as
 * effectivePeriod (an effectiveDateTime while it has not ended), the notes as a note.
 */
import { SYMPTOM_LOINC } from '../../../shared/fhir-extensions';
import type { Observation } from '@medplum/fhirtypes';
import { SEVERITY_MAX, SEVERITY_MIN } from '../../../shared/records/symptoms';
import { SYSTEM, codedConcept, notes, period, textOf, timestampOf } from '../fhir-elements';
import { OBSERVATION_CATEGORY, UCUM } from './lab-results';
import { SKIP, type MapResult } from './mapping';
import type { MappingContext } from './mapping';
import type { FhirRows, FhirValues } from '../fhir-source';

/** LOINC's 'Symptom' observation. */
export { SYMPTOM_LOINC };

const SCORE = '{score}';

export function symptomResource(
  symptom: FhirRows['symptom'],
  context: MappingContext,
): Observation {
  return {
    resourceType: 'Observation',
    id: symptom.id,
    status: 'final',
    category: [codedConcept(OBSERVATION_CATEGORY, 'survey', 'Survey')],
    code: {
      coding: [{ system: SYSTEM.loinc, code: SYMPTOM_LOINC, display: 'Symptom' }],
      text: symptom.symptom,
    },
    subject: context.patient,
    ...(symptom.ended_at
      ? { effectivePeriod: period(symptom.started_at, symptom.ended_at) }
      : { effectiveDateTime: symptom.started_at }),
    ...(symptom.severity !== null
      ? {
          valueQuantity: {
            value: symptom.severity,
            unit: `/${SEVERITY_MAX}`,
            system: UCUM,
            code: SCORE,
          },
        }
      : {}),
    note: notes(symptom.notes),
  };
}

// ---- import ---------------------------------------------------------------------------

/** Whether an Observation is a symptom: coded as LOINC's 'Symptom'. */
export function isSymptomObservation(observation: Observation): boolean {
  return (observation.code.coding ?? []).some(
    (c) => c.code === SYMPTOM_LOINC && (!c.system || c.system === SYSTEM.loinc),
  );
}

/** A severity on the 1–10 scale, or null when the value is none (or on another scale). */
function severityOf(observation: Observation): number | null {
  const value = observation.valueQuantity?.value ?? observation.valueInteger;
  return value !== undefined &&
    Number.isInteger(value) &&
    value >= SEVERITY_MIN &&
    value <= SEVERITY_MAX
    ? value
    : null;
}

/**
 * A symptom Observation as a symptom. Its name is the code's text, or (when a system puts
 * the symptom in the value, as LOINC's 'Symptom' allows) the value's; one entered in error,
 * unnamed or undated, is skipped.
 */
export function symptomObservationRecord(observation: Observation): MapResult {
  if (observation.status === 'entered-in-error' || observation.status === 'cancelled') {
    return SKIP;
  }
  const coded = observation.code.text;
  const name =
    (coded && coded !== 'Symptom' ? coded : null) ??
    textOf(observation.valueCodeableConcept) ??
    null;
  const startedAt =
    timestampOf(observation.effectivePeriod?.start) ??
    timestampOf(observation.effectiveDateTime) ??
    timestampOf(observation.issued);
  if (!name || !startedAt) return SKIP;
  const values: Partial<FhirValues['symptom']> = {
    symptom: name,
    severity: severityOf(observation),
    started_at: startedAt,
    ended_at: timestampOf(observation.effectivePeriod?.end),
    notes: (observation.note ?? []).map((note) => note.text).join('\n\n') || null,
  };
  return [{ type: 'symptom', values }];
}
