/**
 * Patient/$summary: an International Patient Summary (IPS) document Bundle of one person.
 * The Composition comes first and lists its sections; each section has a narrative and
 * references to its entries. Only what a clinician needs now is read into memory (current
 * medications, allergies, conditions, shots, upcoming visits), never the whole history.
 *
 *   medications (10160-0)        medications not ended before today
 *   allergies (48765-2)          every allergy, with its status
 *   problems (11450-4)           own conditions Active, Chronic, Under Treatment or unstated
 *   immunizations (11369-6)      shots given (dated today or earlier, or undated)
 *   results (30954-2)            lab results of the last twelve months, out of range first
 *   past illness (11348-0)       own conditions Resolved
 *   family history (10157-6)     family-history conditions
 *   plan of care (18776-5)       upcoming visits and shots dated after today
 *
 * The first three are required: an empty one holds the IPS 'no information' entry. The
 * others appear only when they have entries. Past visits, past medications, notes,
 * insurance and contacts are in $everything, not here.
 */
import type {
  Bundle,
  CompositionSection,
  Device,
  Patient,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import {
  SYSTEM,
  codedConcept,
  derivedId,
  escapeXhtml,
  fullUrlOf,
  narrative,
  narrativeList,
  referenceTo,
} from './fhir-elements';
import { allergyResource } from './mappings/allergies';
import { conditionResource } from './mappings/conditions';
import { isRecentLabResult, labResultLine, labResultResource } from './mappings/lab-results';
import type { MappingContext } from './mappings/mapping';
import { medicationResource } from './mappings/medications';
import { patientResource } from './mappings/patient';
import { shotResource } from './mappings/shots';
import { visitResource } from './mappings/visits';
import { VITAL_SIGNS_SECTION, latestVitalSigns } from './mappings/vitals';
import { readRows } from './fhir-source';
import { outOfRangeFirst } from '../../shared/labs/lab-flag';
import type { FhirClock, FhirRows, FhirSource } from './fhir-source';

/** The app that writes the summary is its author: no clinician has attested it. */
export const AUTHOR_DEVICE: Device = {
  resourceType: 'Device',
  id: derivedId('kin-health', 'device'),
  deviceName: [{ name: 'Kin Health', type: 'user-friendly-name' }],
};

interface SectionSpec {
  title: string;
  code: string;
  display: string;
  /** The IPS 'no information' entry of a required section. */
  absent?: {
    code: string;
    display: string;
    resource: (id: string, patient: Reference<Patient>) => Resource;
  };
}

const SECTIONS = {
  medications: {
    title: 'Medication Summary',
    code: '10160-0',
    display: 'History of Medication use Narrative',
    absent: {
      code: 'no-medication-info',
      display: 'No information about medications',
      resource: (id, patient) => ({
        resourceType: 'MedicationStatement',
        id,
        status: 'unknown',
        medicationCodeableConcept: absentConcept(
          'no-medication-info',
          'No information about medications',
        ),
        subject: patient,
      }),
    },
  },
  allergies: {
    title: 'Allergies and Intolerances',
    code: '48765-2',
    display: 'Allergies and adverse reactions Document',
    absent: {
      code: 'no-allergy-info',
      display: 'No information about allergies',
      resource: (id, patient) => ({
        resourceType: 'AllergyIntolerance',
        id,
        // R4 requires a clinical status (ait-1); IPS generators use 'active' here.
        clinicalStatus: codedConcept(SYSTEM.allergyClinical, 'active', 'Active'),
        code: absentConcept('no-allergy-info', 'No information about allergies'),
        patient,
      }),
    },
  },
  problems: {
    title: 'Problem List',
    code: '11450-4',
    display: 'Problem list - Reported',
    absent: {
      code: 'no-problem-info',
      display: 'No information about problems',
      resource: (id, patient) => ({
        resourceType: 'Condition',
        id,
        code: absentConcept('no-problem-info', 'No information about problems'),
        subject: patient,
      }),
    },
  },
  immunizations: {
    title: 'Immunizations',
    code: '11369-6',
    display: 'History of Immunization Narrative',
  },
  results: {
    title: 'Results',
    code: '30954-2',
    display: 'Relevant diagnostic tests/laboratory data Narrative',
  },
  pastIllness: {
    title: 'History of Past Illness',
    code: '11348-0',
    display: 'History of Past illness Narrative',
  },
  familyHistory: {
    title: 'Family History',
    code: '10157-6',
    display: 'History of family member diseases Narrative',
  },
  planOfCare: {
    title: 'Plan of Care',
    code: '18776-5',
    display: 'Plan of care note',
  },
  vitalSigns: {
    title: 'Vital Signs',
    code: VITAL_SIGNS_SECTION.code,
    display: 'Vital signs',
  },
} satisfies Record<string, SectionSpec>;

type SectionName = keyof typeof SECTIONS;

function absentConcept(code: string, display: string) {
  return codedConcept(SYSTEM.absentUnknown, code, display, display);
}

interface SectionEntry {
  resource: Resource;
  line: string;
}

const joined = (...parts: (string | null | undefined | false)[]) =>
  parts.filter((part): part is string => Boolean(part)).join(', ');

function medicationLine(medication: FhirRows['medication']): string {
  const times = [
    medication.time_morning && 'morning',
    medication.time_noon && 'noon',
    medication.time_evening && 'evening',
    medication.time_night && 'night',
  ].filter(Boolean);
  return joined(
    medication.medication_name,
    medication.dosage,
    medication.frequency,
    times.length > 0 && times.join(' and '),
    medication.start_date && `since ${medication.start_date}`,
    medication.end_date && `until ${medication.end_date}`,
  );
}

function allergyLine(allergy: FhirRows['allergy']): string {
  return joined(
    allergy.substance,
    allergy.reaction,
    allergy.severity?.toLowerCase(),
    allergy.status.toLowerCase(),
  );
}

function conditionLine(condition: FhirRows['condition']): string {
  const name = condition.is_family_history
    ? `${condition.relation ?? 'Family member'}: ${condition.condition_name}`
    : condition.condition_name;
  return joined(
    name,
    condition.status?.toLowerCase(),
    condition.diagnosis_date && `diagnosed ${condition.diagnosis_date}`,
  );
}

/** Which section a condition belongs in: its own problems, past illness or the family's. */
function conditionSection(condition: FhirRows['condition']): SectionName {
  if (condition.is_family_history) return 'familyHistory';
  return condition.status === 'Resolved' ? 'pastIllness' : 'problems';
}

/** Reads what the summary shows, section by section, keeping only those rows. */
async function collectSections(source: FhirSource, context: MappingContext) {
  const sections: Record<SectionName, SectionEntry[]> = {
    medications: [],
    allergies: [],
    problems: [],
    immunizations: [],
    results: [],
    pastIllness: [],
    familyHistory: [],
    planOfCare: [],
    vitalSigns: [],
  };
  for await (const medication of readRows(source, 'medication')) {
    if (medication.end_date === null || medication.end_date >= context.today) {
      const resource = medicationResource(medication, context);
      sections.medications.push({ resource, line: medicationLine(medication) });
    }
  }
  for await (const allergy of readRows(source, 'allergy')) {
    sections.allergies.push({
      resource: allergyResource(allergy, context),
      line: allergyLine(allergy),
    });
  }
  for await (const condition of readRows(source, 'condition')) {
    sections[conditionSection(condition)].push({
      resource: conditionResource(condition, context),
      line: conditionLine(condition),
    });
  }
  for await (const shot of readRows(source, 'shot')) {
    const resource = shotResource(shot, context);
    const due = resource.resourceType === 'ImmunizationRecommendation';
    sections[due ? 'planOfCare' : 'immunizations'].push({
      resource,
      line: joined(
        shot.shot_name,
        due ? `due ${shot.date_administered}` : (shot.date_administered ?? 'date unknown'),
        shot.location,
      ),
    });
  }
  const labs: FhirRows['lab_result'][] = [];
  for await (const lab of readRows(source, 'lab_result')) {
    if (isRecentLabResult(lab, context.today)) labs.push(lab);
  }
  // Out of range first, each group newest first.
  labs.sort((x, y) => y.collected_date.localeCompare(x.collected_date)).sort(outOfRangeFirst);
  for (const lab of labs) {
    sections.results.push({ resource: labResultResource(lab, context), line: labResultLine(lab) });
  }
  for await (const visit of readRows(source, 'visit')) {
    const resource = visitResource(visit, context);
    if (resource.resourceType === 'Appointment') {
      sections.planOfCare.push({
        resource,
        line: joined(
          visit.visit_name,
          visit.visit_date,
          visit.doctor_name && `with ${visit.doctor_name}`,
          visit.office_name,
        ),
      });
    }
  }
  const vitals: FhirRows['vital'][] = [];
  for await (const row of readRows(source, 'vital')) vitals.push(row);
  sections.vitalSigns.push(...latestVitalSigns(vitals, context));
  return sections;
}

/** The summary document of one person, as it stands at `clock`. */
export async function buildPatientSummary(source: FhirSource, clock: FhirClock): Promise<Bundle> {
  const { person } = source;
  const patient = referenceTo<Patient>(person.id);
  const context: MappingContext = { ...clock, patient };
  const collected = await collectSections(source, context);

  const sections: CompositionSection[] = [];
  const resources: Resource[] = [];
  for (const [name, spec] of Object.entries(SECTIONS) as [SectionName, SectionSpec][]) {
    let entries = collected[name];
    if (entries.length === 0) {
      if (!spec.absent) continue;
      const resource = spec.absent.resource(derivedId(person.id, spec.absent.code), patient);
      entries = [{ resource, line: `${spec.absent.display}.` }];
    }
    sections.push({
      title: spec.title,
      code: codedConcept(SYSTEM.loinc, spec.code, spec.display),
      text: narrative(narrativeList(entries.map((entry) => entry.line))),
      entry: entries.map((entry) => referenceTo(entry.resource.id ?? '')),
    });
    resources.push(...entries.map((entry) => entry.resource));
  }

  const documentId = derivedId(person.id, 'summary', clock.now);
  const title = `International Patient Summary of ${person.name}`;
  const composition: Resource = {
    resourceType: 'Composition',
    id: documentId,
    identifier: { system: SYSTEM.uri, value: `urn:uuid:${documentId}` },
    status: 'final',
    type: codedConcept(SYSTEM.loinc, '60591-5', 'Patient summary Document'),
    subject: patient,
    date: clock.now,
    author: [referenceTo(AUTHOR_DEVICE.id ?? '')],
    title,
    text: narrative(
      `<p>${escapeXhtml(title)}, written by Kin Health on ${escapeXhtml(clock.now)} from the ` +
        `records the family keeps. Sections: ${escapeXhtml(sections.map((s) => s.title).join(', '))}.</p>`,
    ),
    section: sections,
  };
  const entries = [composition, patientResource(person), AUTHOR_DEVICE, ...resources];
  return {
    resourceType: 'Bundle',
    id: derivedId(person.id, 'summary-bundle', clock.now),
    identifier: { system: SYSTEM.uri, value: `urn:uuid:${documentId}` },
    type: 'document',
    timestamp: clock.now,
    entry: entries.map((resource) => ({ fullUrl: fullUrlOf(resource.id ?? ''), resource })),
  };
}
