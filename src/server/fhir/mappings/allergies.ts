/**
 * Allergies both ways: an allergy is an AllergyIntolerance, its category and severity on
 * R4's codes, 'Other' in our extension.
 */
import type { AllergyIntolerance } from '@medplum/fhirtypes';
import {
  SYSTEM,
  UNKNOWN_CONCEPT,
  calendarDate,
  codedConcept,
  codesOf,
  kinExtension,
  kinExtensions,
  noteText,
  notes,
  textConcept,
  textOf,
} from '../fhir-elements';
import type { FhirRows } from '../fhir-source';
import { SKIP, absentStatement, one, type MapResult, type MappingContext } from './mapping';

const ALLERGY_CATEGORY = {
  Food: 'food',
  Medication: 'medication',
  Environment: 'environment',
} as const;

export function allergyResource(
  allergy: FhirRows['allergy'],
  context: MappingContext,
): AllergyIntolerance {
  const category = allergy.category && allergy.category !== 'Other' ? allergy.category : null;
  const hasReaction = allergy.reaction !== null || allergy.severity !== null;
  return {
    resourceType: 'AllergyIntolerance',
    id: allergy.id,
    // R4's categories have no 'other' (biologic is not the same thing): ours says it.
    extension: kinExtensions({ 'allergy-category': allergy.category === 'Other' ? 'Other' : null }),
    clinicalStatus: codedConcept(
      SYSTEM.allergyClinical,
      allergy.status.toLowerCase(),
      allergy.status,
    ),
    category: category ? [ALLERGY_CATEGORY[category]] : undefined,
    code: { text: allergy.substance },
    patient: context.patient,
    recordedDate: allergy.noted_date ?? undefined,
    note: notes(allergy.notes),
    reaction: hasReaction
      ? [
          {
            // A reaction needs a manifestation; a severity alone says nothing of it.
            manifestation: [textConcept(allergy.reaction) ?? UNKNOWN_CONCEPT],
            severity: allergy.severity
              ? (allergy.severity.toLowerCase() as 'mild' | 'moderate' | 'severe')
              : undefined,
          },
        ]
      : undefined,
  };
}

// ---- import ---------------------------------------------------------------------------

const ALLERGY_CATEGORY_OF_CODE = {
  food: 'Food',
  medication: 'Medication',
  environment: 'Environment',
  biologic: 'Other',
} as const;

export function allergyRecord(allergy: AllergyIntolerance): MapResult {
  const absent = absentStatement(allergy.code);
  if (absent) return absent;
  const verification = codesOf(allergy.verificationStatus);
  if (verification.includes('refuted') || verification.includes('entered-in-error')) return SKIP;
  const substance = textOf(allergy.code) ?? textOf(allergy.reaction?.[0]?.substance);
  if (!substance) return SKIP;
  const reactions = (allergy.reaction ?? []).flatMap((reaction) =>
    reaction.manifestation.map(textOf).filter((text): text is string => text !== null),
  );
  const severity = allergy.reaction?.find((reaction) => reaction.severity)?.severity;
  const status = codesOf(allergy.clinicalStatus, SYSTEM.allergyClinical)[0];
  return one('allergy', {
    substance,
    reaction: reactions.join(', ') || null,
    severity: severity ? (`${severity[0]?.toUpperCase()}${severity.slice(1)}` as 'Mild') : null,
    category:
      allergy.category?.map((category) => ALLERGY_CATEGORY_OF_CODE[category])[0] ??
      (kinExtension(allergy, 'allergy-category') === 'Other' ? 'Other' : null),
    status: status === 'inactive' ? 'Inactive' : status === 'resolved' ? 'Resolved' : 'Active',
    noted_date: calendarDate(allergy.recordedDate) ?? calendarDate(allergy.onsetDateTime),
    notes: noteText(allergy.note),
  });
}
