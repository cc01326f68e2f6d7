/**
 * FHIR R4 resources as record values: the reverse of fhir-resources.ts, one mapping per
 * resource type, all in this file. A mapping reads what we export and what other systems
 * commonly write (Synthea, IPS documents): the user-facing text of a concept first, then a
 * coding's display. It returns the record(s) a resource holds, or says to skip it (it holds
 * something we cannot keep) or to ignore it (it holds nothing: an IPS 'no information').
 */
import { isComputed } from '../../shared/fhir-extensions';
import { cvxNames } from '../../shared/vaccines/vaccines';
import type {
  AllergyIntolerance,
  Annotation,
  Appointment,
  CodeableConcept,
  ContactPoint,
  Coverage,
  DocumentReference,
  Dosage,
  Encounter,
  FamilyMemberHistory,
  HumanName,
  Immunization,
  ImmunizationRecommendation,
  MedicationRequest,
  MedicationStatement,
  Organization,
  Practitioner,
  PractitionerRole,
  Reference,
  Resource,
  ResourceType,
} from '@medplum/fhirtypes';
import { isCalendarDate, isTimestamp, toUtcTimestamp } from '../../shared/date-values';
import { CONTACT_TYPES } from '../../shared/records/contacts';
import { CONDITION_STATUSES } from '../../shared/records/conditions';
import { INSURANCE_TYPES } from '../../shared/records/insurance';
import { NOTE_TYPES } from '../../shared/records/notes';
import { MAX_DOSE_AMOUNT } from '../../shared/medication-supply';
import { SYSTEM, kinExtension } from './fhir-elements';
import { PERSON_CONTACT_TYPES, POLICY_NUMBER_LABEL } from './fhir-resources';
import { isLaboratory, labObservationRecord } from './fhir-lab-results';
import { isSymptomObservation, symptomObservationRecord } from './fhir-symptoms';
import type { FhirRecordType, FhirValues } from './fhir-source';

/** What the mappings may ask of the bundle they read. */
export interface ImportContext {
  /** The resource a reference points to in the bundle; resolving it marks it as used. */
  resolve(reference: Reference | undefined): Resource | undefined;
  /** The family member the records go to; null for the account holder. */
  familyMemberId: string | null;
  /**
   * Whether a resource is read as part of another record (a policy's insurer, the
   * prescription a medication statement is based on), and so is no record of its own.
   */
  isPartOfAnother(resource: Resource): boolean;
}

/** One record read from a resource; `part` tells apart several from one resource. */
export interface MappedRecord<K extends FhirRecordType = FhirRecordType> {
  type: K;
  values: Partial<FhirValues[K]>;
  part?: string;
}

export const SKIP = 'skip';
export const IGNORE = 'ignore';
export type MapResult = MappedRecord[] | typeof SKIP | typeof IGNORE;

const one = <K extends FhirRecordType>(type: K, values: Partial<FhirValues[K]>): MapResult => [
  { type, values } as MappedRecord,
];

// ---- reading shared shapes ------------------------------------------------------------

/** The user-facing words of a concept: its text, else a coding's display. */
export function textOf(concept: CodeableConcept | undefined): string | null {
  return concept?.text ?? concept?.coding?.find((coding) => coding.display)?.display ?? null;
}

function codesOf(concept: CodeableConcept | undefined, system?: string): string[] {
  return (concept?.coding ?? [])
    .filter((coding) => !system || coding.system === system)
    .map((coding) => coding.code ?? '');
}

function humanName(names: HumanName[] | undefined): string | null {
  const [name] = names ?? [];
  if (!name) return null;
  const parts = [
    ...(name.prefix ?? []),
    ...(name.given ?? []),
    name.family,
    ...(name.suffix ?? []),
  ];
  return name.text ?? (parts.filter(Boolean).join(' ') || null);
}

/** What a resource is called, for a field that holds a name (doctor, office, insurer). */
function nameOf(resource: Resource | undefined): string | null {
  switch (resource?.resourceType) {
    case 'Practitioner':
    case 'Patient':
    case 'RelatedPerson':
      return humanName(resource.name);
    case 'Organization':
    case 'Location':
    case 'HealthcareService':
      return resource.name ?? null;
    case 'Medication':
      return textOf(resource.code);
    case 'Condition':
      return textOf(resource.code);
    case 'PractitionerRole':
      return resource.practitioner?.display ?? null;
    default:
      return null;
  }
}

function displayOf(reference: Reference | undefined, context: ImportContext): string | null {
  if (!reference) return null;
  return reference.display ?? nameOf(context.resolve(reference));
}

/** The resource type a reference points at, from its type, its target, or its text. */
function targetType(reference: Reference | undefined, context: ImportContext): string | null {
  if (!reference) return null;
  return (
    reference.type ??
    context.resolve(reference)?.resourceType ??
    /(?:^|\/)([A-Z][A-Za-z]+)\/[^/]+$/.exec(reference.reference ?? '')?.[1] ??
    null
  );
}

/** A FHIR date or dateTime as a calendar date; partial dates (a year, a month) are dropped. */
export function calendarDate(value: string | undefined): string | null {
  const day = value?.slice(0, 10);
  return day && /^\d{4}-\d{2}-\d{2}$/.test(day) && isCalendarDate(day) ? day : null;
}

/** A FHIR dateTime as a UTC timestamp; a bare date is taken at noon UTC, to keep its day. */
export function timestampOf(value: string | undefined): string | null {
  if (!value) return null;
  if (isTimestamp(value)) return toUtcTimestamp(value);
  const day = calendarDate(value);
  return day && value.length === 10 ? `${day}T12:00:00.000Z` : null;
}

function noteText(...lists: (Annotation[] | undefined)[]): string | null {
  const texts = lists.flatMap((list) => list ?? []).map((annotation) => annotation.text);
  return texts.filter(Boolean).join('\n\n') || null;
}

function telecom(points: ContactPoint[] | undefined, system: 'phone' | 'email'): string | null {
  return points?.find((point) => point.system === system && point.value)?.value ?? null;
}

/** SNOMED findings that say 'none known' (of allergies, problems, medications, shots). */
const NONE_KNOWN_SNOMED = new Set([
  '716186003',
  '409137002',
  '428607008',
  '429625007',
  '160245001',
  '787481004',
  '787482006',
]);

/**
 * An IPS absent/unknown statement in place of a record: 'no information' says nothing and
 * is ignored; 'no known …' asserts something we cannot keep, and is skipped.
 */
function absentStatement(concept: CodeableConcept | undefined): MapResult | null {
  for (const coding of concept?.coding ?? []) {
    if (coding.system === SYSTEM.absentUnknown) {
      return coding.code?.endsWith('-info') ? IGNORE : SKIP;
    }
    if (coding.system === SYSTEM.snomed && NONE_KNOWN_SNOMED.has(coding.code ?? '')) return SKIP;
  }
  return null;
}

const pick = <T extends string>(choices: readonly T[], text: string | null | undefined): T | null =>
  choices.find((choice) => choice.toLowerCase() === text?.trim().toLowerCase()) ?? null;

// ---- one mapping per resource type ----------------------------------------------------

function encounterRecord(encounter: Encounter, context: ImportContext): MapResult {
  if (encounter.status === 'cancelled' || encounter.status === 'entered-in-error') return SKIP;
  const visitDate = timestampOf(encounter.period?.start) ?? timestampOf(encounter.period?.end);
  if (!visitDate) return SKIP;
  const doctor = encounter.participant?.find((p) => displayOf(p.individual, context));
  return one('visit', {
    visit_name:
      textOf(encounter.reasonCode?.[0]) ??
      textOf(encounter.type?.[0]) ??
      textOf(encounter.serviceType) ??
      'Visit',
    doctor_name: displayOf(doctor?.individual, context),
    visit_date: visitDate,
    frequency: kinExtension(encounter, 'visit-frequency'),
    office_name:
      displayOf(encounter.location?.[0]?.location, context) ??
      displayOf(encounter.serviceProvider, context),
    notes: kinExtension(encounter, 'visit-notes'),
  });
}

function appointmentRecord(appointment: Appointment, context: ImportContext): MapResult {
  if (['cancelled', 'noshow', 'entered-in-error'].includes(appointment.status)) return SKIP;
  const visitDate = timestampOf(appointment.start);
  if (!visitDate) return SKIP;
  const actorOf = (types: string[]) =>
    appointment.participant
      .map((participant) => participant.actor)
      .find((actor) => types.includes(targetType(actor, context) ?? ''));
  return one('visit', {
    visit_name:
      appointment.description ??
      textOf(appointment.reasonCode?.[0]) ??
      textOf(appointment.serviceType?.[0]) ??
      textOf(appointment.appointmentType) ??
      'Appointment',
    doctor_name: displayOf(actorOf(['Practitioner', 'PractitionerRole']), context),
    visit_date: visitDate,
    frequency: kinExtension(appointment, 'visit-frequency'),
    office_name: displayOf(actorOf(['Location', 'HealthcareService']), context),
    notes: appointment.comment ?? null,
  });
}

const TIME_OF_WHEN: [RegExp, 'time_morning' | 'time_noon' | 'time_evening' | 'time_night'][] = [
  [/^MORN/, 'time_morning'],
  [/^NOON$/, 'time_noon'],
  [/^EVE/, 'time_evening'],
  [/^NIGHT$/, 'time_night'],
];

/** How a medication is taken, from a Dosage: our frequencies only where they match exactly. */
function dosageValues(dosage: Dosage | undefined): Partial<FhirValues['medication']> {
  const repeat = dosage?.timing?.repeat;
  const times = Object.fromEntries(
    TIME_OF_WHEN.map(([pattern, field]) => [
      field,
      (repeat?.when ?? []).some((when) => pattern.test(when)),
    ]),
  );
  const every = `${repeat?.frequency ?? ''}/${repeat?.period ?? ''}${repeat?.periodUnit ?? ''}`;
  const frequency =
    dosage?.asNeededBoolean || dosage?.asNeededCodeableConcept
      ? 'As Needed'
      : (({ '1/1d': 'Daily', '2/1d': 'Twice Daily', '1/1wk': 'Weekly' } as const)[every] ?? null);
  const amount = doseCount(dosage?.doseAndRate?.[0]?.doseQuantity);
  return {
    dosage: dosage?.text ?? null,
    frequency,
    ...times,
    ...(amount === null ? {} : { dose_amount: amount }),
  };
}

/**
 * A dose as a count of what the supply is counted in (2 tablets, 1 puff): a quantity with no
 * unit, or a UCUM count ('1', '{tbl}'). A dose in mg or IU is the strength, not what it
 * takes from the pack, and is left for the dosage text.
 */
function doseCount(quantity: { value?: number; code?: string; unit?: string } | undefined) {
  const value = quantity?.value;
  if (typeof value !== 'number' || value <= 0 || value > MAX_DOSE_AMOUNT) return null;
  const code = quantity?.code ?? (quantity?.unit ? undefined : '1');
  return code === '1' || (code !== undefined && /^\{[^}]*\}$/.test(code)) ? value : null;
}

/**
 * What a prescription still allows: the refills left and when it ends. What is on hand is
 * read only from our own extension: a portal's dispensed quantity says what was handed out
 * once, not what is left, and a forecast from it would be a date no one can justify.
 */
function supplyValues(
  request: MedicationRequest | undefined,
  statement?: MedicationStatement,
): Partial<FhirValues['medication']> {
  const dispense = request?.dispenseRequest;
  const onHand = statement
    ? Number(kinExtension(statement, 'medication-quantity-on-hand') ?? NaN)
    : NaN;
  return {
    refills_left: dispense?.numberOfRepeatsAllowed ?? null,
    prescription_ends: calendarDate(dispense?.validityPeriod?.end),
    quantity_on_hand: Number.isFinite(onHand) ? onHand : null,
  };
}

function medicationName(
  resource: MedicationStatement | MedicationRequest,
  context: ImportContext,
): string | null {
  return (
    textOf(resource.medicationCodeableConcept) ?? displayOf(resource.medicationReference, context)
  );
}

/** A finished medication with no end date ends, as far as we can tell, when it started. */
function endOf(finished: boolean, start: string | null, end: string | null): string | null {
  return end ?? (finished ? start : null);
}

function medicationStatementRecord(
  statement: MedicationStatement,
  context: ImportContext,
): MapResult {
  const absent = absentStatement(statement.medicationCodeableConcept);
  if (absent) return absent;
  if (statement.status === 'entered-in-error' || statement.status === 'not-taken') return SKIP;
  const name = medicationName(statement, context);
  if (!name) return SKIP;
  const prescription = statement.basedOn
    ?.map((reference) =>
      reference.reference?.startsWith('#')
        ? statement.contained?.find((c) => `#${c.id}` === reference.reference)
        : context.resolve(reference),
    )
    .find(
      (resource): resource is MedicationRequest => resource?.resourceType === 'MedicationRequest',
    );
  const start =
    calendarDate(statement.effectivePeriod?.start) ?? calendarDate(statement.effectiveDateTime);
  const finished = statement.status === 'completed' || statement.status === 'stopped';
  return one('medication', {
    medication_name: name,
    ...dosageValues(statement.dosage?.[0]),
    start_date: start,
    end_date: endOf(finished, start, calendarDate(statement.effectivePeriod?.end)),
    condition:
      textOf(statement.reasonCode?.[0]) ?? displayOf(statement.reasonReference?.[0], context),
    prescribed_doctor: displayOf(prescription?.requester, context),
    notes: noteText(statement.note),
    ...supplyValues(prescription, statement),
  });
}

function medicationRequestRecord(request: MedicationRequest, context: ImportContext): MapResult {
  if (context.isPartOfAnother(request)) return IGNORE;
  const absent = absentStatement(request.medicationCodeableConcept);
  if (absent) return absent;
  if (['entered-in-error', 'cancelled', 'draft'].includes(request.status)) return SKIP;
  const name = medicationName(request, context);
  if (!name) return SKIP;
  const start =
    calendarDate(request.dispenseRequest?.validityPeriod?.start) ??
    calendarDate(request.authoredOn);
  const finished = request.status === 'completed' || request.status === 'stopped';
  return one('medication', {
    medication_name: name,
    ...dosageValues(request.dosageInstruction?.[0]),
    start_date: start,
    end_date: endOf(finished, start, calendarDate(request.dispenseRequest?.validityPeriod?.end)),
    condition: textOf(request.reasonCode?.[0]) ?? displayOf(request.reasonReference?.[0], context),
    prescribed_doctor: displayOf(request.requester, context),
    notes: noteText(request.note),
    ...supplyValues(request),
  });
}

/** The concept's CVX code, when it has one the product knows. */
function cvxOf(concept: CodeableConcept | undefined): string | null {
  return codesOf(concept, SYSTEM.cvx).find((code) => cvxNames.has(code)) ?? null;
}

function immunizationRecord(immunization: Immunization, context: ImportContext): MapResult {
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
function recommendationRecords(recommendation: ImmunizationRecommendation): MapResult {
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

/** A DocumentReference of text only: a note. (One with a file is a document: fhir-documents.ts.) */
function documentRecord(document: DocumentReference): MapResult {
  if (document.status === 'entered-in-error') return SKIP;
  const attachments = document.content.map((content) => content.attachment);
  const text = attachments.find(
    (a) => a.data && /^text\/(plain|markdown)\b/i.test(a.contentType ?? ''),
  );
  const content = text?.data ? Buffer.from(text.data, 'base64').toString('utf8') : null;
  return one('note', {
    title: document.description ?? attachments[0]?.title ?? textOf(document.type) ?? 'Document',
    note_type: pick(NOTE_TYPES, textOf(document.type)),
    note_date: calendarDate(document.context?.period?.start) ?? calendarDate(document.date),
    content,
  });
}

const CONDITION_STATUS_OF_CODE: Record<string, 'Active' | 'Resolved'> = {
  active: 'Active',
  recurrence: 'Active',
  relapse: 'Active',
  inactive: 'Resolved',
  remission: 'Resolved',
  resolved: 'Resolved',
};

function conditionRecord(condition: Resource & { resourceType: 'Condition' }): MapResult {
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
function familyHistoryRecords(history: FamilyMemberHistory): MapResult {
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

const ALLERGY_CATEGORY = {
  food: 'Food',
  medication: 'Medication',
  environment: 'Environment',
  biologic: 'Other',
} as const;

function allergyRecord(allergy: AllergyIntolerance): MapResult {
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
      allergy.category?.map((category) => ALLERGY_CATEGORY[category])[0] ??
      (kinExtension(allergy, 'allergy-category') === 'Other' ? 'Other' : null),
    status: status === 'inactive' ? 'Inactive' : status === 'resolved' ? 'Resolved' : 'Active',
    noted_date: calendarDate(allergy.recordedDate) ?? calendarDate(allergy.onsetDateTime),
    notes: noteText(allergy.note),
  });
}

const INSURANCE_TYPE_OF_CODE: Record<string, (typeof INSURANCE_TYPES)[number]> = {
  HIP: 'Medical',
  DENTAL: 'Dental',
  VISPOL: 'Vision',
  DIS: 'Long-term Disability',
};

function coverageRecord(coverage: Coverage, context: ImportContext): MapResult {
  if (coverage.status === 'entered-in-error') return SKIP;
  const provider = coverage.payor.map((payor) => displayOf(payor, context)).find(Boolean);
  if (!provider) return SKIP;
  const type = coverage.type;
  const cost = (code: string) => {
    const found = coverage.costToBeneficiary?.find((c) => codesOf(c.type).includes(code));
    const amount = found?.valueMoney ?? found?.valueQuantity;
    if (amount?.value === undefined) return null;
    const unit =
      'currency' in amount ? amount.currency : 'unit' in amount ? amount.unit : undefined;
    return [amount.value, unit].filter((part) => part !== undefined).join(' ');
  };
  const policy =
    coverage.identifier?.find((identifier) => identifier.type?.text === POLICY_NUMBER_LABEL) ??
    coverage.identifier?.[0];
  return one('insurance', {
    insurance_type:
      pick(INSURANCE_TYPES, type?.text) ??
      codesOf(type, SYSTEM.actCode)
        .map((code) => INSURANCE_TYPE_OF_CODE[code])
        .find(Boolean) ??
      // No type at all: left out, so the schema gives its default.
      (type ? 'Other' : undefined),
    provider_name: provider,
    policy_number: policy?.value ?? coverage.subscriberId ?? null,
    group_number:
      coverage.class?.find((item) => codesOf(item.type).includes('group'))?.value ?? null,
    coverage_details: kinExtension(coverage, 'insurance-coverage-details'),
    deductible: kinExtension(coverage, 'insurance-deductible') ?? cost('deductible'),
    copay: kinExtension(coverage, 'insurance-copay') ?? cost('copay'),
    effective_date: calendarDate(coverage.period?.start),
    expiry_date: calendarDate(coverage.period?.end),
    status: coverage.status === 'cancelled' ? 'past' : 'current',
  });
}

function addressText(resource: Practitioner | Organization): string | null {
  const [address] = resource.address ?? [];
  if (!address) return null;
  const parts = [
    ...(address.line ?? []),
    address.city,
    address.state,
    address.postalCode,
    address.country,
  ];
  return address.text ?? (parts.filter(Boolean).join(', ') || null);
}

const CONTACT_TYPE_OF_ROLE: Record<string, (typeof CONTACT_TYPES)[number]> = {
  doctor: 'Doctor',
  nurse: 'Nurse',
};

/** A person's contact type, from their role: a doctor unless the role says otherwise. */
function personContactType(role: PractitionerRole | undefined) {
  const concept = role?.code?.[0];
  const named = pick(CONTACT_TYPES, concept?.text);
  if (named && PERSON_CONTACT_TYPES.includes(named)) return named;
  return (
    codesOf(concept, SYSTEM.practitionerRole)
      .map((code) => CONTACT_TYPE_OF_ROLE[code])
      .find(Boolean) ?? 'Doctor'
  );
}

function practitionerRecord(
  practitioner: Practitioner,
  role: PractitionerRole | undefined,
): MapResult {
  const name = humanName(practitioner.name);
  if (!name) return SKIP;
  return one('contact', {
    contact_name: name,
    contact_type: personContactType(role),
    specialty: textOf(role?.specialty?.[0]),
    phone_number: telecom(practitioner.telecom, 'phone') ?? telecom(role?.telecom, 'phone'),
    email: telecom(practitioner.telecom, 'email') ?? telecom(role?.telecom, 'email'),
    address: addressText(practitioner),
    notes: kinExtension(practitioner, 'contact-notes'),
  });
}

function organizationRecord(organization: Organization, context: ImportContext): MapResult {
  // An insurer is the provider of a policy, not a contact.
  if (context.isPartOfAnother(organization)) return IGNORE;
  if (!organization.name) return SKIP;
  return one('contact', {
    contact_name: organization.name,
    contact_type:
      organization.type
        ?.map((type) => pick(CONTACT_TYPES, type.text))
        .find((type) => type && !PERSON_CONTACT_TYPES.includes(type)) ?? 'Other',
    specialty: kinExtension(organization, 'contact-specialty'),
    phone_number: telecom(organization.telecom, 'phone'),
    email: telecom(organization.telecom, 'email'),
    address: addressText(organization),
    notes: kinExtension(organization, 'contact-notes'),
  });
}

/** A role is read with its practitioner; alone (its practitioner elsewhere), as a contact. */
function practitionerRoleRecord(role: PractitionerRole, context: ImportContext): MapResult {
  if (context.resolve(role.practitioner)?.resourceType === 'Practitioner') return IGNORE;
  const name = role.practitioner?.display;
  if (!name) return SKIP;
  return practitionerRecord({ resourceType: 'Practitioner', name: [{ text: name }] }, role);
}

type Mappers = {
  [T in ResourceType]?: (
    resource: Extract<Resource, { resourceType: T }>,
    context: ImportContext,
    roles: (practitioner: Practitioner) => PractitionerRole | undefined,
  ) => MapResult;
};

/** The resource types we read, each with its mapping. Any other type is skipped. */
export const resourceRecords: Mappers = {
  Encounter: encounterRecord,
  Appointment: appointmentRecord,
  MedicationStatement: medicationStatementRecord,
  MedicationRequest: medicationRequestRecord,
  Immunization: immunizationRecord,
  ImmunizationRecommendation: recommendationRecords,
  DocumentReference: documentRecord,
  Condition: conditionRecord,
  FamilyMemberHistory: familyHistoryRecords,
  AllergyIntolerance: allergyRecord,
  Coverage: coverageRecord,
  Practitioner: (practitioner, _context, roles) =>
    practitionerRecord(practitioner, roles(practitioner)),
  PractitionerRole: practitionerRoleRecord,
  Organization: organizationRecord,
  // Laboratory Observations are lab results, 'Symptom' ones symptoms; vital signs are read
  // before (fhir-import.ts), and other Observations are not read.
  Observation: (observation) =>
    isLaboratory(observation)
      ? labObservationRecord(observation)
      : isSymptomObservation(observation)
        ? symptomObservationRecord(observation)
        : SKIP,
};
