/**
 * The one table from each record type to its mapping (one module per type, beside this
 * one, with both directions): out, the resources a record becomes; in, the resource types
 * read and the mapping that reads each. The callers ($everything, the import) go through
 * these tables; the table in docs/decisions/0007-fhir-mapping.md is checked against them.
 */
import type { Practitioner, PractitionerRole, Resource, ResourceType } from '@medplum/fhirtypes';
import type { FhirRecordType, FhirRows } from '../fhir-source';
import { allergyRecord, allergyResource } from './allergies';
import { conditionRecord, conditionResource, familyHistoryRecords } from './conditions';
import {
  contactResources,
  organizationRecord,
  practitionerRecord,
  practitionerRoleRecord,
} from './contacts';
import { coverageRecord, insuranceResources } from './insurance';
import { isLaboratory, labObservationRecord, labResultResource } from './lab-results';
import type { ImportContext, MapResult, MappingContext } from './mapping';
import { SKIP } from './mapping';
import {
  medicationRequestRecord,
  medicationResource,
  medicationStatementRecord,
} from './medications';
import { documentRecord, noteResource } from './notes';
import { immunizationRecord, recommendationRecords, shotResource } from './shots';
import { isSymptomObservation, symptomObservationRecord, symptomResource } from './symptoms';
import { appointmentRecord, encounterRecord, visitResource } from './visits';
import { vitalResources } from './vitals';

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
  // before (fhir-import.ts, with vitals.ts), and other Observations are not read.
  Observation: (observation) =>
    isLaboratory(observation)
      ? labObservationRecord(observation)
      : isSymptomObservation(observation)
        ? symptomObservationRecord(observation)
        : SKIP,
};
