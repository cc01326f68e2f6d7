/**
 * Mia Rivera's records at the tests' patient portal (test/smart-server.ts): the Synthea
 * patient kept in fhir/fixtures (see its README), renamed and moved in time so that she was
 * born on 6 November 2019, with what she had until she was six (everything but the
 * surveys), and what Synthea does not make added by hand: two allergies, a medicine she
 * takes, her insurance and a visit summary as a PDF document. References point at
 * `{Type}/{id}`, as a FHIR server answers them.
 */
import { randomUUID } from 'node:crypto';
import type {
  AllergyIntolerance,
  Binary,
  Bundle,
  Coverage,
  DocumentReference,
  MedicationStatement,
  Observation,
  Organization,
  Patient,
  Resource,
} from '@medplum/fhirtypes';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import synthea from '../fhir/fixtures/synthea-r4-luna60.json' with { type: 'json' };

export const MIA_BIRTH_DATE = '2019-11-06';
const SYNTHEA_BIRTH_DATE = '2008-11-06';
/** The last day of Synthea's history kept (her sixth birthday, as Mia). */
const KEPT_UNTIL = '2014-11-06';
/** The resource types a portal offers, of those Synthea makes. */
const KEPT_TYPES = new Set([
  'Patient',
  'Organization',
  'Practitioner',
  'Encounter',
  'Condition',
  'MedicationRequest',
  'Immunization',
  'Observation',
  'Procedure',
]);

const DAY_MS = 24 * 60 * 60 * 1000;
const SHIFT_DAYS = Math.round(
  (Date.parse(MIA_BIRTH_DATE) - Date.parse(SYNTHEA_BIRTH_DATE)) / DAY_MS,
);
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+(?:Z|[+-]\d{2}:\d{2}))?$/;

/** A date or date-time moved by SHIFT_DAYS, its time of day and offset kept. */
function shifted(value: string): string {
  const match = DATE_TIME.exec(value);
  if (!match) return value;
  const day = new Date(Date.parse(match[1]!) + SHIFT_DAYS * DAY_MS).toISOString().slice(0, 10);
  return day + (match[2] ?? '');
}

/** Every date in a resource moved, and every `urn:uuid:` reference made `{Type}/{id}`. */
function rewritten(value: unknown, references: Map<string, string>): unknown {
  if (typeof value === 'string') return references.get(value) ?? shifted(value);
  if (Array.isArray(value)) return value.map((item) => rewritten(item, references));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, rewritten(item, references)]),
    );
  }
  return value;
}

/** When a resource happened (Synthea's date), to keep only what came before KEPT_UNTIL. */
function happenedOn(resource: Record<string, unknown>): string | undefined {
  const period = (key: string) => (resource[key] as { start?: string } | undefined)?.start;
  const found = [
    resource.effectiveDateTime,
    resource.occurrenceDateTime,
    resource.onsetDateTime,
    resource.authoredOn,
    resource.performedDateTime,
    period('period'),
    period('performedPeriod'),
  ].find((candidate) => typeof candidate === 'string');
  return found as string | undefined;
}

function isSurvey(resource: Record<string, unknown>): boolean {
  if (resource.resourceType !== 'Observation') return false;
  const categories = (resource as unknown as Observation).category ?? [];
  const codes = categories.flatMap((category) => category.coding ?? []).map((c) => c.code);
  return codes.length === 0 || codes.includes('survey');
}

function syntheaResources(): Resource[] {
  const bundle = synthea as unknown as Bundle;
  const entries = (bundle.entry ?? []).flatMap((entry) =>
    entry.resource && entry.fullUrl ? [{ fullUrl: entry.fullUrl, resource: entry.resource }] : [],
  );
  const references = new Map(
    entries.map(({ fullUrl, resource }) => [fullUrl, `${resource.resourceType}/${resource.id}`]),
  );
  return entries
    .map(({ resource }) => resource as unknown as Record<string, unknown>)
    .filter((resource) => KEPT_TYPES.has(String(resource.resourceType)))
    .filter((resource) => !isSurvey(resource))
    .filter((resource) => (happenedOn(resource) ?? '') <= KEPT_UNTIL)
    .map((resource) => withoutMissingMedication(resource))
    .map((resource) => rewritten(resource, references) as Resource);
}

/** One Synthea prescription names a Medication the file lacks: it is named by text instead. */
function withoutMissingMedication(resource: Record<string, unknown>): Record<string, unknown> {
  const { medicationReference, ...rest } = resource as {
    medicationReference?: { display?: string };
  };
  if (!medicationReference) return resource;
  return { ...rest, medicationCodeableConcept: { text: medicationReference.display } };
}

function renamed(patient: Patient): Patient {
  return {
    ...patient,
    name: [{ use: 'official', family: 'Rivera', given: ['Mia'] }],
    extension: patient.extension?.filter(
      (extension) => !extension.url.endsWith('mothersMaidenName'),
    ),
  };
}

/** A one-page PDF: the visit summary the portal keeps as a document. */
async function visitSummaryPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('Visit summary');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  const lines = [
    'Riverside Health - Visit summary',
    'Patient: Mia Rivera, born 2019-11-06',
    'Visit: well child check, 2025-08-28',
    'Growth and development on track. Next visit in one year.',
  ];
  lines.forEach((line, index) => {
    page.drawText(line, { x: 56, y: 720 - index * 24, size: index === 0 ? 16 : 12, font });
  });
  return pdf.save();
}

/** What Synthea does not make: allergies, a medicine taken, the insurance, a document. */
async function addedByHand(patientId: string): Promise<Resource[]> {
  const patient = { reference: `Patient/${patientId}`, display: 'Mia Rivera' };
  const allergy = (
    id: string,
    code: string,
    text: string,
    category: 'food' | 'medication',
    reaction: string,
  ): AllergyIntolerance => ({
    resourceType: 'AllergyIntolerance',
    id,
    clinicalStatus: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
          code: 'active',
        },
      ],
    },
    verificationStatus: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification',
          code: 'confirmed',
        },
      ],
    },
    type: 'allergy',
    category: [category],
    criticality: 'high',
    code: { coding: [{ system: 'http://snomed.info/sct', code, display: text }], text },
    patient,
    recordedDate: '2021-05-14',
    reaction: [{ manifestation: [{ text: reaction }], severity: 'moderate' }],
  });
  const payor: Organization = {
    resourceType: 'Organization',
    id: 'riverside-payor-bcbs',
    name: 'Blue Cross Blue Shield of Massachusetts',
    type: [
      {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'pay' },
        ],
      },
    ],
  };
  const coverage: Coverage = {
    resourceType: 'Coverage',
    id: 'mia-coverage-bcbs',
    status: 'active',
    subscriberId: 'XJH448812907',
    beneficiary: patient,
    relationship: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship',
          code: 'child',
        },
      ],
    },
    period: { start: '2024-01-01' },
    payor: [{ reference: 'Organization/riverside-payor-bcbs', display: payor.name }],
    class: [
      {
        type: {
          coding: [
            { system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'group' },
          ],
        },
        value: 'G-20931',
        name: 'Family PPO',
      },
    ],
  };
  const medicine: MedicationStatement = {
    resourceType: 'MedicationStatement',
    id: 'mia-cetirizine',
    status: 'active',
    medicationCodeableConcept: {
      coding: [
        {
          system: 'http://www.nlm.nih.gov/research/umls/rxnorm',
          code: '1014678',
          display: 'cetirizine hydrochloride 1 MG/ML Oral Solution',
        },
      ],
      text: 'Cetirizine 1 mg/mL oral solution',
    },
    subject: patient,
    effectivePeriod: { start: '2024-04-02' },
    dosage: [{ text: '5 mL by mouth once a day in spring' }],
  };
  const pdf = await visitSummaryPdf();
  const binary: Binary = {
    resourceType: 'Binary',
    id: 'mia-visit-summary-pdf',
    contentType: 'application/pdf',
    data: Buffer.from(pdf).toString('base64'),
  };
  const document: DocumentReference = {
    resourceType: 'DocumentReference',
    id: 'mia-visit-summary',
    status: 'current',
    type: {
      coding: [{ system: 'http://loinc.org', code: '34133-9', display: 'Summary of episode note' }],
      text: 'Visit summary',
    },
    category: [
      {
        coding: [
          {
            system: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category',
            code: 'clinical-note',
          },
        ],
      },
    ],
    subject: patient,
    date: '2025-08-28T10:30:00Z',
    description: 'Visit summary',
    content: [
      {
        attachment: {
          contentType: 'application/pdf',
          url: `Binary/${binary.id}`,
          size: pdf.length,
          title: 'Visit summary.pdf',
          creation: '2025-08-28T10:30:00Z',
        },
      },
    ],
  };
  return [
    allergy('mia-allergy-peanut', '91935009', 'Allergy to peanuts', 'food', 'Hives'),
    allergy('mia-allergy-penicillin', '91936005', 'Allergy to penicillin', 'medication', 'Rash'),
    medicine,
    payor,
    coverage,
    binary,
    document,
  ];
}

/** Mia's records at the portal, her Patient first. */
export async function miaPortalRecords(): Promise<Resource[]> {
  const resources = syntheaResources();
  const patient = resources.find(
    (resource): resource is Patient => resource.resourceType === 'Patient',
  );
  if (!patient?.id) throw new Error('the Synthea fixture has no patient');
  const others = resources.filter((resource) => resource !== patient);
  return [renamed(patient), ...others, ...(await addedByHand(patient.id))];
}

/** A new laboratory result for a patient, made now: what arrives on the next sync. */
export function newLabResult(patientId: string): Observation {
  return {
    resourceType: 'Observation',
    id: randomUUID(),
    status: 'final',
    category: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/observation-category',
            code: 'laboratory',
            display: 'Laboratory',
          },
        ],
      },
    ],
    code: {
      coding: [
        { system: 'http://loinc.org', code: '718-7', display: 'Hemoglobin [Mass/volume] in Blood' },
      ],
      text: 'Hemoglobin',
    },
    subject: { reference: `Patient/${patientId}` },
    effectiveDateTime: new Date().toISOString(),
    issued: new Date().toISOString(),
    valueQuantity: { value: 12.8, unit: 'g/dL', system: 'http://unitsofmeasure.org', code: 'g/dL' },
  };
}
