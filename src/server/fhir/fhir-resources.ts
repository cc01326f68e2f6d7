/**
 * Records as FHIR R4 resources: one mapping per record type, all in this file, so that the
 * table in docs/decisions/0007-fhir-mapping.md can be checked against one place. A mapping
 * never invents a clinical code: what the user typed goes in `.text`, and a standard code
 * is added only where one of our choices means exactly that code.
 */
import { KIN_COMPUTED_TAG } from '../../shared/fhir-extensions';
import { isShotGiven } from '../../shared/records/shots';
import { cvxNames } from '../../shared/vaccines/vaccines';
import { displayFileName, displayTypeOf } from '../../shared/documents';
import type {
  AllergyIntolerance,
  Appointment,
  CareTeam,
  CodeableConcept,
  Condition,
  ContactPoint,
  Coverage,
  DocumentReference,
  Dosage,
  Element,
  Encounter,
  FamilyMemberHistory,
  Immunization,
  Location,
  ImmunizationRecommendation,
  MedicationAdministration,
  MedicationRequest,
  MedicationStatement,
  Organization,
  Patient,
  Practitioner,
  PractitionerRole,
  Reference,
  Resource,
  TimingRepeat,
} from '@medplum/fhirtypes';
import {
  SYSTEM,
  UNKNOWN,
  UNKNOWN_CONCEPT,
  codedConcept,
  derivedId,
  kinExtensions,
  listOf,
  namedReference,
  notes,
  period,
  referenceTo,
  textConcept,
} from './fhir-elements';
import { labResultResource } from './fhir-lab-results';
import type {
  DocumentWithFile,
  DoseRow,
  FhirClock,
  FhirPerson,
  FhirRecordType,
  FhirRows,
} from './fhir-source';
import { vitalResources } from './fhir-vitals';
import { symptomResource } from './fhir-symptoms';

/** What every mapping needs besides its row: the present and the patient it is about. */
export interface MappingContext extends FhirClock {
  patient: Reference<Patient>;
}

/** A primitive may carry the data-absent marker in its `_name` twin. */
type WithAbsent<R, K extends string> = R & { [P in `_${K}`]?: Element };

export function patientResource(person: FhirPerson): WithAbsent<Patient, 'birthDate'> {
  return {
    resourceType: 'Patient',
    id: person.id,
    name: [{ text: person.name }],
    telecom: person.email ? [{ system: 'email', value: person.email }] : undefined,
    // The IPS asks for a birth date; the account holder's is not kept, so say it is unknown.
    ...(person.date_of_birth ? { birthDate: person.date_of_birth } : { _birthDate: UNKNOWN }),
  };
}

/** A visit before now happened (Encounter); one from now on is booked (Appointment). */
export function visitResource(
  visit: FhirRows['visit'],
  context: MappingContext,
): Encounter | WithAbsent<Appointment, 'end'> {
  const doctor = namedReference<Practitioner>('Practitioner', visit.doctor_name);
  const office = namedReference<Location>('Location', visit.office_name);
  if (Date.parse(visit.visit_date) < Date.parse(context.now)) {
    return {
      resourceType: 'Encounter',
      id: visit.id,
      extension: kinExtensions({ 'visit-frequency': visit.frequency, 'visit-notes': visit.notes }),
      status: 'finished',
      // R4 requires a class; the user never says which, so it is the null flavour 'unknown'.
      class: { system: SYSTEM.nullFlavor, code: 'UNK', display: 'unknown' },
      subject: context.patient,
      participant: doctor ? [{ individual: doctor }] : undefined,
      period: { start: visit.visit_date },
      reasonCode: listOf(textConcept(visit.visit_name)),
      location: office ? [{ location: office }] : undefined,
    };
  }
  return {
    resourceType: 'Appointment',
    id: visit.id,
    extension: kinExtensions({ 'visit-frequency': visit.frequency }),
    status: 'booked',
    description: visit.visit_name,
    start: visit.visit_date,
    // A booked appointment needs an end (app-2, app-3); how long it lasts is not known.
    _end: UNKNOWN,
    comment: visit.notes ?? undefined,
    participant: [
      { actor: context.patient, status: 'accepted' as const },
      ...[doctor, office].flatMap((actor) =>
        actor ? [{ actor, status: 'accepted' as const }] : [],
      ),
    ],
  };
}

const WHEN_OF_TIME = {
  time_morning: 'MORN',
  time_noon: 'NOON',
  time_evening: 'EVE',
  time_night: 'NIGHT',
} as const;

const REPEAT_OF_FREQUENCY: Record<string, TimingRepeat> = {
  Daily: { frequency: 1, period: 1, periodUnit: 'd' },
  'Twice Daily': { frequency: 2, period: 1, periodUnit: 'd' },
  Weekly: { frequency: 1, period: 1, periodUnit: 'wk' },
};

/** How a medication is taken: its dosage text, times of day and frequency. */
function dosageOf(medication: FhirRows['medication']): Dosage | undefined {
  const when = (Object.keys(WHEN_OF_TIME) as (keyof typeof WHEN_OF_TIME)[])
    .filter((field) => medication[field])
    .map((field) => WHEN_OF_TIME[field]);
  const repeat: TimingRepeat = {
    ...(medication.frequency ? REPEAT_OF_FREQUENCY[medication.frequency] : {}),
    ...(when.length > 0 ? { when } : {}),
  };
  // What a dose takes from the supply, said where a supply is kept (else it is 1, and no news).
  const amount =
    medication.quantity_on_hand !== null && medication.dose_amount !== null
      ? medication.dose_amount
      : undefined;
  const dosage: Dosage = {
    text: medication.dosage ?? undefined,
    timing: Object.keys(repeat).length > 0 ? { repeat } : undefined,
    doseAndRate: amount === undefined ? undefined : [{ doseQuantity: { value: amount } }],
    asNeededBoolean: medication.frequency === 'As Needed' ? true : undefined,
  };
  return Object.values(dosage).some((value) => value !== undefined) ? dosage : undefined;
}

/** Current as the medication list has it: not ended before today; 'intended' until started. */
function medicationStatus(medication: FhirRows['medication'], today: string) {
  if (medication.end_date !== null && medication.end_date < today) return 'completed';
  if (medication.start_date !== null && medication.start_date > today) return 'intended';
  return 'active';
}

/**
 * What the prescription still allows, as FHIR's dispense request: the pack a refill brings
 * (the last 'Refilled'), the refills left and when the prescription ends (decision 0061).
 */
function dispenseRequestOf(
  medication: FhirRows['medication'] & { pack_size?: number | null },
): MedicationRequest['dispenseRequest'] {
  const request = {
    quantity:
      typeof medication.pack_size === 'number' ? { value: medication.pack_size } : undefined,
    numberOfRepeatsAllowed: medication.refills_left ?? undefined,
    validityPeriod: medication.prescription_ends
      ? { end: medication.prescription_ends }
      : undefined,
  };
  return Object.values(request).some((value) => value !== undefined) ? request : undefined;
}

export function medicationResource(
  medication: FhirRows['medication'],
  context: MappingContext,
): MedicationStatement {
  const name = { text: medication.medication_name };
  const dispenseRequest = dispenseRequestOf(medication);
  // The prescriber and what is left to dispense belong to the prescription, not to the
  // statement of taking it.
  const prescription: MedicationRequest | undefined =
    medication.prescribed_doctor || dispenseRequest
      ? {
          resourceType: 'MedicationRequest',
          id: 'prescription',
          status: 'unknown',
          intent: 'order',
          medicationCodeableConcept: name,
          subject: context.patient,
          requester: medication.prescribed_doctor
            ? { type: 'Practitioner', display: medication.prescribed_doctor }
            : undefined,
          dispenseRequest,
        }
      : undefined;
  return {
    resourceType: 'MedicationStatement',
    id: medication.id,
    contained: listOf(prescription),
    basedOn: prescription ? [{ reference: '#prescription' }] : undefined,
    // What is on hand has no home in R4: it travels as one of our extensions.
    extension: kinExtensions({
      'medication-quantity-on-hand':
        medication.quantity_on_hand === null ? null : String(medication.quantity_on_hand),
    }),
    status: medicationStatus(medication, context.today),
    medicationCodeableConcept: name,
    subject: context.patient,
    effectivePeriod: period(medication.start_date, medication.end_date),
    reasonCode: listOf(textConcept(medication.condition)),
    note: notes(medication.notes),
    dosage: listOf(dosageOf(medication)),
  };
}

/**
 * A dose of the log: taken, a completed MedicationAdministration at the moment it was
 * marked, pointing to its medication's statement as supporting information; skipped, a
 * MedicationStatement 'not-taken' (status reason 'Skipped') on the day it was due, part of
 * its medication's statement. Each says which dose it was in a note.
 */
export function doseResource(
  dose: DoseRow,
  medicationName: string,
  context: MappingContext,
): MedicationAdministration | MedicationStatement {
  const which = { text: `${dose.slot} dose of ${dose.day}` };
  if (dose.status === 'taken') {
    return {
      resourceType: 'MedicationAdministration',
      id: dose.id,
      status: 'completed',
      medicationCodeableConcept: { text: medicationName },
      subject: context.patient,
      effectiveDateTime: dose.marked_at,
      supportingInformation: [referenceTo(dose.medication_id)],
      note: [which],
    };
  }
  return {
    resourceType: 'MedicationStatement',
    id: dose.id,
    status: 'not-taken',
    statusReason: [{ text: 'Skipped' }],
    medicationCodeableConcept: { text: medicationName },
    subject: context.patient,
    effectiveDateTime: dose.day,
    dateAsserted: dose.marked_at,
    partOf: [referenceTo(dose.medication_id)],
    note: [which],
  };
}

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

export const NOTE_CONTENT_TYPE = 'text/plain; charset=utf-8';

export function noteResource(note: FhirRows['note'], context: MappingContext): DocumentReference {
  return {
    resourceType: 'DocumentReference',
    id: note.id,
    status: 'current',
    type: textConcept(note.note_type),
    subject: context.patient,
    description: note.title,
    content: [
      {
        attachment: {
          contentType: NOTE_CONTENT_TYPE,
          title: note.title,
          data: note.content ? Buffer.from(note.content, 'utf8').toString('base64') : undefined,
        },
      },
    ],
    context: note.note_date ? { period: { start: note.note_date } } : undefined,
  };
}

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

/** Insurance types that are exactly a v3 ActCode policy type; the others stay text. */
const POLICY_CODE: Record<string, [string, string]> = {
  Medical: ['HIP', 'health insurance plan policy'],
  Dental: ['DENTAL', 'dental care policy'],
  Vision: ['VISPOL', 'vision care policy'],
};

export const POLICY_NUMBER_LABEL = 'Policy Number';

/** A policy is a Coverage; its insurer, which R4 requires as payor, an Organization. */
export function insuranceResources(
  insurance: FhirRows['insurance'],
  context: MappingContext,
): [Coverage, Organization] {
  const payorId = derivedId(insurance.id, 'payor');
  const policyCode = POLICY_CODE[insurance.insurance_type];
  const type: CodeableConcept = policyCode
    ? codedConcept(SYSTEM.actCode, policyCode[0], policyCode[1], insurance.insurance_type)
    : { text: insurance.insurance_type };
  return [
    {
      resourceType: 'Coverage',
      id: insurance.id,
      extension: kinExtensions({
        'insurance-deductible': insurance.deductible,
        'insurance-copay': insurance.copay,
        'insurance-coverage-details': insurance.coverage_details,
      }),
      identifier: insurance.policy_number
        ? [{ type: { text: POLICY_NUMBER_LABEL }, value: insurance.policy_number }]
        : undefined,
      status: insurance.status === 'past' ? 'cancelled' : 'active',
      type,
      beneficiary: context.patient,
      period: period(insurance.effective_date, insurance.expiry_date),
      payor: [referenceTo(payorId)],
      class: insurance.group_number
        ? [
            {
              type: codedConcept(SYSTEM.coverageClass, 'group', 'Group'),
              value: insurance.group_number,
            },
          ]
        : undefined,
    },
    {
      resourceType: 'Organization',
      id: payorId,
      type: [codedConcept(SYSTEM.organizationType, 'ins', 'Insurance Company')],
      name: insurance.provider_name,
    },
  ];
}

/** Contact types that are people; the others (pharmacy, hospital, other) are organisations. */
export const PERSON_CONTACT_TYPES: readonly string[] = ['Doctor', 'Nurse', 'Specialist'];

const ROLE_CODE: Record<string, string> = { Doctor: 'doctor', Nurse: 'nurse' };

function telecomOf(contact: FhirRows['contact']): ContactPoint[] | undefined {
  const telecom: ContactPoint[] = [];
  if (contact.phone_number) telecom.push({ system: 'phone', value: contact.phone_number });
  if (contact.email) telecom.push({ system: 'email', value: contact.email });
  return telecom.length > 0 ? telecom : undefined;
}

/** A person contact is a Practitioner and their role; any other contact an Organization. */
export function contactResources(
  contact: FhirRows['contact'],
): [Practitioner, PractitionerRole] | [Organization] {
  const telecom = telecomOf(contact);
  const address = contact.address ? [{ text: contact.address }] : undefined;
  if (!PERSON_CONTACT_TYPES.includes(contact.contact_type)) {
    return [
      {
        resourceType: 'Organization',
        id: contact.id,
        extension: kinExtensions({
          'contact-specialty': contact.specialty,
          'contact-notes': contact.notes,
        }),
        type: [{ text: contact.contact_type }],
        name: contact.contact_name,
        telecom,
        address,
      },
    ];
  }
  const roleCode = ROLE_CODE[contact.contact_type];
  return [
    {
      resourceType: 'Practitioner',
      id: contact.id,
      extension: kinExtensions({ 'contact-notes': contact.notes }),
      name: [{ text: contact.contact_name }],
      telecom,
      address,
    },
    {
      resourceType: 'PractitionerRole',
      id: derivedId(contact.id, 'role'),
      practitioner: referenceTo(contact.id),
      code: [
        roleCode
          ? codedConcept(
              SYSTEM.practitionerRole,
              roleCode,
              contact.contact_type,
              contact.contact_type,
            )
          : { text: contact.contact_type },
      ],
      specialty: listOf(textConcept(contact.specialty)),
    },
  ];
}

export interface CareTeamMember {
  id: string;
  contactType: string;
}

/** The contacts that care for one person, as their care team. */
export function careTeamResource(
  personId: string,
  members: readonly CareTeamMember[],
  context: MappingContext,
): CareTeam | undefined {
  if (members.length === 0) return undefined;
  return {
    resourceType: 'CareTeam',
    id: derivedId(personId, 'care-team'),
    status: 'active',
    name: 'Care team',
    subject: context.patient,
    participant: members.map((member) => ({
      role: [{ text: member.contactType }],
      member: referenceTo(member.id),
    })),
  };
}

/** Each record type's mapping, as one list of resources per record. */
export const recordResources: {
  [K in FhirRecordType]: (row: FhirRows[K], context: MappingContext) => Resource[];
} = {
  visit: (row, context) => [visitResource(row, context)],
  medication: (row, context) => [medicationResource(row, context)],
  shot: (row, context) => [shotResource(row, context)],
  note: (row, context) => [noteResource(row, context)],
  condition: (row, context) => [conditionResource(row, context)],
  allergy: (row, context) => [allergyResource(row, context)],
  lab_result: (row, context) => [labResultResource(row, context)],
  insurance: (row, context) => insuranceResources(row, context),
  vital: (row, context) => vitalResources(row, context),
  symptom: (row, context) => [symptomResource(row, context)],
  contact: (row) => contactResources(row),
};

/** LOINC document kinds for the Document Types that have one (Other has none). */
export const DOCUMENT_TYPE_LOINC: Readonly<Record<string, { code: string; display: string }>> = {
  'Lab Report': { code: '11502-2', display: 'Laboratory report' },
  Letter: { code: '51852-2', display: 'Letter' },
  Referral: { code: '57133-1', display: 'Referral note' },
  Imaging: { code: '18748-4', display: 'Diagnostic imaging study' },
  'Insurance Card': { code: '64290-0', display: 'Health insurance card' },
  Prescription: { code: '57833-6', display: 'Prescription for medication' },
};

/**
 * A document as a DocumentReference: its type (LOINC where there is one, and the app's own
 * word), its date, the records it is attached to (context.related: `relatedIds`, the ids of
 * the records' resources in the bundle, the first where a record is several, as a vitals
 * entry is), and the file as the attachment; a HEIC photo's JPEG, the copy a browser
 * shows, as a second one. The `data` of each is given by the caller: the bundle writes the
 * base64 itself, as it reads the file.
 */
export function documentReferenceResource(
  document: DocumentWithFile,
  attachment: { data: string; displayData?: string },
  context: MappingContext,
  relatedIds: readonly string[] = document.record_ids,
): DocumentReference {
  const loinc = DOCUMENT_TYPE_LOINC[document.document_type];
  const creation = document.document_date ? { creation: document.document_date } : {};
  return {
    resourceType: 'DocumentReference',
    id: document.id,
    status: 'current',
    type: {
      ...(loinc ? { coding: [{ system: 'http://loinc.org', ...loinc }] } : {}),
      text: document.document_type,
    },
    subject: context.patient,
    date: document.created_at,
    description: document.title,
    content: [
      {
        attachment: {
          contentType: document.mime_type,
          data: attachment.data,
          title: document.file_name,
          size: document.size_bytes,
          ...creation,
        },
      },
      ...(document.display && attachment.displayData !== undefined
        ? [
            {
              attachment: {
                contentType: displayTypeOf(document.mime_type).type,
                data: attachment.displayData,
                title: displayFileName(document.file_name, document.mime_type),
                size: document.display.size_bytes,
                ...creation,
              },
            },
          ]
        : []),
    ],
    ...(relatedIds.length > 0
      ? { context: { related: relatedIds.map((id) => referenceTo(id)) } }
      : {}),
  };
}
