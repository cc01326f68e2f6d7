/**
 * A shot's vaccine travels as Immunization.vaccineCode with the CVX system both ways: the
 * export writes the code (the shot's name stays the concept's text), the import reads it.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle, Immunization } from '@medplum/fhirtypes';
import { importFhirBundle } from './fhir-import';
import { expectStatus } from '../test/family-records';
import { signedUpClient, useTestServer } from '../test/harness';

const server = useTestServer();
const CVX = 'http://hl7.org/fhir/sid/cvx';

describe('a shot’s CVX code in FHIR', () => {
  it('is exported as Immunization.vaccineCode in the CVX system', async () => {
    const { client } = await signedUpClient(server);
    const member = await expectStatus(
      client.post<{ id: string }>('/api/family-members', { name: 'Ava' }),
    );
    await expectStatus(
      client.post('/api/shots', {
        shot_name: 'MMR at the clinic',
        vaccine_code: '03',
        date_administered: '2024-05-01',
        family_member_id: member.id,
      }),
    );
    const bundle = await expectStatus(
      client.get<Bundle>(`/api/fhir/Patient/${member.id}/$everything`),
      200,
    );
    const immunization = bundle.entry
      ?.map((entry) => entry.resource)
      .find((resource): resource is Immunization => resource?.resourceType === 'Immunization');
    expect(immunization?.vaccineCode).toEqual({
      coding: [{ system: CVX, code: '03', display: 'MMR' }],
      text: 'MMR at the clinic',
    });
  });

  it('is read back from an imported Immunization', () => {
    const result = importFhirBundle(
      {
        resourceType: 'Bundle',
        type: 'collection',
        entry: [
          {
            resource: {
              resourceType: 'Immunization',
              status: 'completed',
              vaccineCode: { coding: [{ system: CVX, code: '110', display: 'DTaP-Hep B-IPV' }] },
              patient: { reference: 'Patient/p' },
              occurrenceDateTime: '2024-02-01',
            },
          },
        ],
      },
      { familyMemberId: null },
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.records.shot[0]?.values).toMatchObject({
      shot_name: 'DTaP-Hep B-IPV',
      vaccine_code: '110',
      date_administered: '2024-02-01',
    });
  });
});
