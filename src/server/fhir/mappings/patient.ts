/**
 * The person a bundle is about as its Patient. Only out: in, the Patient is the frame of
 * the bundle, and its records go to the person the user chose.
 */
import type { Patient } from '@medplum/fhirtypes';
import { UNKNOWN } from '../fhir-elements';
import type { FhirPerson } from '../fhir-source';
import type { WithAbsent } from './mapping';

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
