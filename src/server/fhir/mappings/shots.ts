/**
 * Shots both ways. Out: a shot given is an Immunization, one to come an
 * ImmunizationRecommendation (due), and an overdue dose of the vaccine schedule a
 * recommendation tagged computed. In: a completed Immunization, and each dated, due
 * recommendation that was not computed, is a shot.
 */
import type {
  CodeableConcept,
  Immunization,
  ImmunizationRecommendation,
  Location,
} from '@medplum/fhirtypes';
import { KIN_COMPUTED_TAG, isComputed } from '../../../shared/fhir-extensions';
import { isShotGiven } from '../../../shared/records/shots';
import { cvxNames } from '../../../shared/vaccines/vaccines';
import {
  SYSTEM,
  UNKNOWN,
  calendarDate,
  codedConcept,
  codesOf,
  derivedId,
  kinExtension,
  kinExtensions,
  namedReference,
  noteText,
  notes,
  textOf,
} from '../fhir-elements';
import type { FhirRows } from '../fhir-source';
import {
  SKIP,
  absentStatement,
  displayOf,
  one,
  type ImportContext,
  type MapResult,
  type MappedRecord,
  type MappingContext,
  type WithAbsent,
} from './mapping';

/** LOINC's 'Date vaccine due', the criterion that dates a recommendation. */
const DATE_VACCINE_DUE = codedConcept(SYSTEM.loinc, '30980-7', 'Date vaccine due');

/** A dose of the owner's vaccine schedule that is overdue, as the share link carries it. */
export interface OverdueDose {
  vaccine: string;
  dose: number;
  of: number;
  due: string;
  cvx: string;
}

/**
 * An overdue dose as a recommendation tagged computed (KIN_COMPUTED_TAG): the share viewer
 * lists it, the import skips it (it is advice from the schedule, not a shot to come).
 */
export function overdueDoseResource(
  personId: string,
  dose: OverdueDose,
  context: MappingContext,
): ImmunizationRecommendation {
  return {
    resourceType: 'ImmunizationRecommendation',
    id: derivedId(personId, 'overdue', dose.vaccine, String(dose.dose)),
    meta: { tag: [{ ...KIN_COMPUTED_TAG, display: 'Computed from the vaccine schedule' }] },
    patient: context.patient,
    date: context.now,
    recommendation: [
      {
        vaccineCode: [
          codedConcept(SYSTEM.cvx, dose.cvx, cvxNames.get(dose.cvx) ?? dose.vaccine, dose.vaccine),
        ],
        forecastStatus: codedConcept(SYSTEM.recommendationStatus, 'overdue', 'Overdue'),
        dateCriterion: [{ code: DATE_VACCINE_DUE, value: dose.due }],
        doseNumberPositiveInt: dose.dose,
        seriesDosesPositiveInt: dose.of,
      },
    ],
  };
}

/**
 * A shot given (isShotGiven: dated today or earlier) is a completed Immunization; one dated
 * after today has not been given: it is due (ImmunizationRecommendation), as the shots list
 * shows it under 'Upcoming'. A shot without a date was given at a time the user does not
 * know: an Immunization whose date is marked unknown.
 */
export function shotResource(
  shot: FhirRows['shot'],
  context: MappingContext,
): WithAbsent<Immunization, 'occurrenceDateTime'> | ImmunizationRecommendation {
  // The vaccine's CVX code, when the shot has one; the shot's name stays the concept's text.
  const vaccine = shot.vaccine_code
    ? codedConcept(
        SYSTEM.cvx,
        shot.vaccine_code,
        cvxNames.get(shot.vaccine_code) ?? shot.vaccine_code,
        shot.shot_name,
      )
    : { text: shot.shot_name };
  const due = isShotGiven(shot.date_administered, context.today) ? null : shot.date_administered;
  if (due !== null) {
    return {
      resourceType: 'ImmunizationRecommendation',
      id: shot.id,
      extension: kinExtensions({ 'shot-location': shot.location }),
      patient: context.patient,
      date: shot.created_at,
      recommendation: [
        {
          vaccineCode: [vaccine],
          forecastStatus: codedConcept(SYSTEM.recommendationStatus, 'due', 'Due'),
          dateCriterion: [{ code: DATE_VACCINE_DUE, value: due }],
          description: shot.notes ?? undefined,
        },
      ],
    };
  }
  return {
    resourceType: 'Immunization',
    id: shot.id,
    status: 'completed',
    vaccineCode: vaccine,
    patient: context.patient,
    ...(shot.date_administered
      ? { occurrenceDateTime: shot.date_administered }
      : { _occurrenceDateTime: UNKNOWN }),
    location: namedReference<Location>('Location', shot.location),
    note: notes(shot.notes),
  };
}

// ---- import ---------------------------------------------------------------------------

/** The concept's CVX code, when it has one the product knows. */
function cvxOf(concept: CodeableConcept | undefined): string | null {
  return codesOf(concept, SYSTEM.cvx).find((code) => cvxNames.has(code)) ?? null;
}

export function immunizationRecord(immunization: Immunization, context: ImportContext): MapResult {
  const absent = absentStatement(immunization.vaccineCode);
  if (absent) return absent;
  if (immunization.status !== 'completed') return SKIP;
  const name = textOf(immunization.vaccineCode);
  if (!name) return SKIP;
  return one('shot', {
    shot_name: name,
    vaccine_code: cvxOf(immunization.vaccineCode),
    date_administered: calendarDate(immunization.occurrenceDateTime),
    location: displayOf(immunization.location, context),
    notes: noteText(immunization.note),
  });
}

const DATE_DUE_CODE = '30980-7';

/** Each dated recommendation that is due is a shot to come; undated or computed ones are not kept. */
export function recommendationRecords(recommendation: ImmunizationRecommendation): MapResult {
  // Computed from a schedule (a share link's overdue doses): advice, not a shot to come.
  if (isComputed(recommendation)) return SKIP;
  const location = kinExtension(recommendation, 'shot-location');
  const records = recommendation.recommendation.flatMap((item, index): MappedRecord[] => {
    const name = textOf(item.vaccineCode?.[0]) ?? textOf(item.targetDisease);
    const criterion =
      item.dateCriterion?.find((c) => codesOf(c.code, SYSTEM.loinc).includes(DATE_DUE_CODE)) ??
      item.dateCriterion?.[0];
    const date = calendarDate(criterion?.value);
    const due = codesOf(item.forecastStatus).some((code) => code === 'due' || code === 'overdue');
    if (!name || !date || !due) return [];
    return [
      {
        type: 'shot',
        part: index === 0 ? undefined : `recommendation-${index}`,
        values: {
          shot_name: name,
          vaccine_code: cvxOf(item.vaccineCode?.[0]),
          date_administered: date,
          location,
          notes: item.description ?? null,
        },
      },
    ];
  });
  return records.length > 0 ? records : SKIP;
}
