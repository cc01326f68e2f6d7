/**
 * Conditions both ways. Out: an own condition is a Condition, a family-history one a
 * FamilyMemberHistory of one condition. In: a Condition is a condition, and each condition
 * of a FamilyMemberHistory a family-history entry of its own.
 */
import type { Condition, FamilyMemberHistory, Resource } from '@medplum/fhirtypes';
import { CONDITION_STATUSES } from '../../../shared/records/conditions';
import {
  SYSTEM,
  calendarDate,
  codedConcept,
  codesOf,
  kinExtension,
  kinExtensions,
  noteText,
  notes,
  period,
  pick,
  textOf,
} from '../fhir-elements';
import type { FhirRows } from '../fhir-source';
import {
  SKIP,
  absentStatement,
  one,
  type MapResult,
  type MappedRecord,
  type MappingContext,
} from './mapping';

/** Our condition statuses on R4's clinical status: chronic and treated conditions are active. */
const CLINICAL_STATUS = {
  Active: 'active',
  Resolved: 'resolved',
  Chronic: 'active',
  'Under Treatment': 'active',
} as const;

export function conditionResource(
  condition: FhirRows['condition'],
  context: MappingContext,
): Condition | FamilyMemberHistory {
  const name = { text: condition.condition_name };
  if (condition.is_family_history) {
    return {
      resourceType: 'FamilyMemberHistory',
      id: condition.id,
      // One condition of one relative: never the relative's whole history.
      status: 'partial',
      patient: context.patient,
      relationship: { text: condition.relation ?? 'Family member' },
      condition: [
        {
          extension: kinExtensions({ 'condition-status': condition.status }),
          code: name,
          onsetPeriod: period(condition.diagnosis_date, null),
          note: notes(condition.notes),
        },
      ],
    };
  }
  const status = condition.status;
  return {
    resourceType: 'Condition',
    id: condition.id,
    clinicalStatus: status
      ? codedConcept(
          SYSTEM.conditionClinical,
          CLINICAL_STATUS[status],
          CLINICAL_STATUS[status] === 'active' ? 'Active' : 'Resolved',
          status,
        )
      : undefined,
    code: name,
    subject: context.patient,
    // The diagnosis date is the nearest the user knows to the onset.
    onsetDateTime: condition.diagnosis_date ?? undefined,
    note: notes(condition.notes),
  };
}

// ---- import ---------------------------------------------------------------------------

const CONDITION_STATUS_OF_CODE: Record<string, 'Active' | 'Resolved'> = {
  active: 'Active',
  recurrence: 'Active',
  relapse: 'Active',
  inactive: 'Resolved',
  remission: 'Resolved',
  resolved: 'Resolved',
};

export function conditionRecord(condition: Resource & { resourceType: 'Condition' }): MapResult {
  const absent = absentStatement(condition.code);
  if (absent) return absent;
  const verification = codesOf(condition.verificationStatus);
  if (verification.includes('refuted') || verification.includes('entered-in-error')) return SKIP;
  const name = textOf(condition.code);
  if (!name) return SKIP;
  const clinical = condition.clinicalStatus;
  const abated = Object.keys(condition).some((key) => key.startsWith('abatement'));
  return one('condition', {
    condition_name: name,
    diagnosis_date:
      calendarDate(condition.onsetDateTime) ??
      calendarDate(condition.onsetPeriod?.start) ??
      calendarDate(condition.recordedDate),
    status:
      pick(CONDITION_STATUSES, clinical?.text) ??
      codesOf(clinical, SYSTEM.conditionClinical)
        .map((code) => CONDITION_STATUS_OF_CODE[code])
        .find(Boolean) ??
      (abated ? 'Resolved' : null),
    is_family_history: false,
    relation: null,
    notes: noteText(condition.note),
  });
}

/** Each condition of a relative is a family-history entry of its own. */
export function familyHistoryRecords(history: FamilyMemberHistory): MapResult {
  if (history.status === 'entered-in-error') return SKIP;
  const relation = textOf(history.relationship) ?? 'Family member';
  const records = (history.condition ?? []).flatMap((condition, index): MappedRecord[] => {
    const name = textOf(condition.code);
    if (!name) return [];
    return [
      {
        type: 'condition',
        part: index === 0 ? undefined : `condition-${index}`,
        values: {
          condition_name: name,
          diagnosis_date: calendarDate(condition.onsetPeriod?.start ?? condition.onsetString),
          status: pick(CONDITION_STATUSES, kinExtension(condition, 'condition-status')),
          is_family_history: true,
          relation,
          notes: noteText(condition.note, index === 0 ? history.note : undefined),
        },
      },
    ];
  });
  return records.length > 0 ? records : SKIP;
}
