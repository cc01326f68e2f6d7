/**
 * Telling an R4 Bundle from an older (DSTU2, STU3) or newer (R5) one. A Bundle does not
 * say which version it is, so its resources are read for shapes that only one version
 * writes: resource types that exist in one version only, and elements whose name or kind
 * changed between versions. One such shape is enough to refuse; none means R4 (or R4B,
 * which writes these resources the R4 way).
 */
import { key, tr } from '../../shared/i18n/translate';
import { isObject } from './fhir-elements';

type Json = Record<string, unknown>;

export type FhirVersion = 'DSTU2' | 'STU3' | 'R5';

export interface VersionEvidence {
  version: FhirVersion;
  /** What gave it away, in words a user can read after 'its …' (in the language in force). */
  evidence: string;
}

/** Resource types that R4 does not have, by the version that does. */
const FOREIGN_TYPES: Record<string, FhirVersion> = {
  // Removed before R4 (DSTU2).
  Conformance: 'DSTU2',
  DiagnosticOrder: 'DSTU2',
  MedicationOrder: 'DSTU2',
  Order: 'DSTU2',
  OrderResponse: 'DSTU2',
  DeviceUseRequest: 'DSTU2',
  // Removed in R4 (STU3).
  BodySite: 'STU3',
  DataElement: 'STU3',
  DeviceComponent: 'STU3',
  EligibilityRequest: 'STU3',
  EligibilityResponse: 'STU3',
  ExpansionProfile: 'STU3',
  ImagingManifest: 'STU3',
  ProcedureRequest: 'STU3',
  ProcessRequest: 'STU3',
  ProcessResponse: 'STU3',
  ReferralRequest: 'STU3',
  Sequence: 'STU3',
  ServiceDefinition: 'STU3',
  // New in R5.
  ActorDefinition: 'R5',
  ArtifactAssessment: 'R5',
  ConditionDefinition: 'R5',
  DeviceDispense: 'R5',
  DeviceUsage: 'R5',
  EncounterHistory: 'R5',
  FormularyItem: 'R5',
  GenomicStudy: 'R5',
  ImagingSelection: 'R5',
  InventoryItem: 'R5',
  InventoryReport: 'R5',
  NutritionIntake: 'R5',
  Permission: 'R5',
  RequestOrchestration: 'R5',
  Requirements: 'R5',
  TestPlan: 'R5',
  Transport: 'R5',
};

/** Element shapes that tell a version apart, per resource type. */
const SHAPES: Record<string, [FhirVersion, string, (resource: Json) => boolean][]> = {
  Condition: [
    [
      'STU3',
      key('Condition has clinicalStatus as a plain code'),
      (r) => typeof r.clinicalStatus === 'string',
    ],
    [
      'STU3',
      key('Condition has verificationStatus as a plain code'),
      (r) => typeof r.verificationStatus === 'string',
    ],
    ['STU3', key('Condition has an assertedDate'), (r) => 'assertedDate' in r],
    ['STU3', key('Condition has a context'), (r) => 'context' in r],
    ['DSTU2', key('Condition names its patient in "patient"'), (r) => 'patient' in r],
    ['R5', key('Condition has participants'), (r) => 'participant' in r],
  ],
  AllergyIntolerance: [
    [
      'STU3',
      key('AllergyIntolerance has clinicalStatus as a plain code'),
      (r) => typeof r.clinicalStatus === 'string',
    ],
    [
      'STU3',
      key('AllergyIntolerance has verificationStatus as a plain code'),
      (r) => typeof r.verificationStatus === 'string',
    ],
    ['R5', key('AllergyIntolerance has its type as a concept'), (r) => isObject(r.type)],
    ['R5', key('AllergyIntolerance has participants'), (r) => 'participant' in r],
  ],
  Immunization: [
    ['STU3', key('Immunization has "notGiven"'), (r) => 'notGiven' in r],
    ['STU3', key('Immunization is dated by "date"'), (r) => 'date' in r],
    ['DSTU2', key('Immunization has "wasNotGiven"'), (r) => 'wasNotGiven' in r],
    ['R5', key('Immunization has a "reason" list'), (r) => 'reason' in r],
  ],
  MedicationStatement: [
    ['STU3', key('MedicationStatement has "taken"'), (r) => 'taken' in r],
    [
      'R5',
      key('MedicationStatement names its medication in "medication"'),
      (r) => isObject(r.medication),
    ],
  ],
  MedicationRequest: [
    ['STU3', key('MedicationRequest has a context'), (r) => 'context' in r],
    [
      'R5',
      key('MedicationRequest names its medication in "medication"'),
      (r) => isObject(r.medication),
    ],
  ],
  Encounter: [
    ['DSTU2', key('Encounter has its class as a plain code'), (r) => typeof r.class === 'string'],
    ['R5', key('Encounter has a list of classes'), (r) => Array.isArray(r.class)],
    ['R5', key('Encounter has an actualPeriod'), (r) => 'actualPeriod' in r],
  ],
  Coverage: [['R5', key('Coverage has a "kind"'), (r) => 'kind' in r]],
  Composition: [
    [
      'R5',
      key('Composition attester has its mode as a concept'),
      (r) => Array.isArray(r.attester) && r.attester.some((a) => isObject(a) && isObject(a.mode)),
    ],
  ],
  DocumentReference: [
    ['STU3', key('DocumentReference has "indexed"'), (r) => 'indexed' in r],
    ['R5', key('DocumentReference has "version"'), (r) => 'version' in r],
  ],
};

/**
 * Signs that a Bundle is not R4, gathered as its parts are read (the bundle's own elements,
 * then each entry, in order): a whole file need not be in memory to be judged. Shapes shared
 * by DSTU2 and STU3 (plain-code statuses) are written as STU3's, so every entry is read and
 * a sign only DSTU2 has wins over them.
 */
export class VersionEvidenceReading {
  private readonly found = new Map<FhirVersion, string>();

  // Each sign in the language in force: the elements' and types' names are FHIR's own.
  private note(version: FhirVersion, evidence: string) {
    if (!this.found.has(version)) this.found.set(version, evidence);
  }

  /** The bundle's own elements (its entries aside): their signs come first, read before or after. */
  readBundle(bundle: Json) {
    if ('issues' in bundle) this.found.set('R5', tr('Bundle has "issues"'));
    if ('base' in bundle) this.found.set('DSTU2', tr('Bundle has a "base"'));
  }

  /** One entry, as the file writes it. */
  readEntry(entry: unknown) {
    if (this.found.has('DSTU2') || !isObject(entry)) return;
    if ('base' in entry) this.note('DSTU2', tr('entries have a "base"'));
    const resource = entry.resource;
    if (!isObject(resource) || typeof resource.resourceType !== 'string') return;
    const type = resource.resourceType;
    const foreign = FOREIGN_TYPES[type];
    if (foreign) this.note(foreign, tr('resource type {type} is not in R4', { type }));
    for (const [version, evidence, test] of SHAPES[type] ?? []) {
      if (test(resource)) this.note(version, tr(evidence));
    }
  }

  /** The version the signs point to, or null when the Bundle reads as R4. */
  evidence(): VersionEvidence | null {
    const version = (['DSTU2', 'STU3', 'R5'] as const).find((v) => this.found.has(v));
    return version ? { version, evidence: this.found.get(version) ?? '' } : null;
  }
}

/** A sign that a Bundle (its own elements and its entries) is not R4, or null when it reads as R4. */
export function nonR4Evidence(bundle: Json, entries: readonly unknown[]): VersionEvidence | null {
  const reading = new VersionEvidenceReading();
  reading.readBundle(bundle);
  for (const entry of entries) reading.readEntry(entry);
  return reading.evidence();
}
