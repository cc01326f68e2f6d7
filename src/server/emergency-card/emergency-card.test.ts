/**
 * The emergency card over the API: GET /api/persons/{personId}/emergency-card holds the
 * person's current essentials only, reaches whoever may read the person (a Viewer too) and no
 * one else; its link's bundle (`$everything?scope=emergency-card`) holds the same records and
 * nothing more; and only a card's link may last a year.
 */
import { randomBytes } from 'node:crypto';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { CompactEncrypt } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  EMERGENCY_CARD_EXPIRY_DAYS,
  EMERGENCY_CARD_SCOPE,
  emergencyCardLabel,
  type EmergencyCard,
} from '../../shared/emergency-card';
import { definitionsByType } from '../../shared/records';
import type { RecordType } from '../../shared/records/definition';
import type { CreatedShareLink, ShareLinkSummary } from '../../shared/share-links';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { shareAndAccept } from '../test/grant-acceptance';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';
import { writeManyRecords } from '../test/many-records';
import { ROWS_PER_SECTION } from '../../shared/person-summary';

const server = useTestServer();
const TODAY = '2026-06-15';

/** Leo's records: on his card today, and what it leaves out (ended, later, resolved, past). */
const LEOS: [RecordType, Record<string, unknown>][] = [
  ['allergy', { substance: 'Peanuts', reaction: 'Anaphylaxis', severity: 'Severe' }],
  ['allergy', { substance: 'Amoxicillin', reaction: 'Rash', severity: 'Mild' }],
  ['allergy', { substance: 'Dust', severity: 'Moderate', status: 'Resolved' }],
  ['medication', { medication_name: 'Albuterol', dosage: '2 puffs', frequency: 'Twice Daily' }],
  ['medication', { medication_name: 'Cefdinir', start_date: '2026-01-10', end_date: '2026-01-20' }],
  ['medication', { medication_name: 'Later Drug', start_date: '2026-09-01' }],
  ['condition', { condition_name: 'Asthma', status: 'Chronic' }],
  ['condition', { condition_name: 'Ear infection', status: 'Resolved' }],
  ['condition', { condition_name: 'Diabetes', is_family_history: true, relation: 'Grandmother' }],
  ['insurance', { provider_name: 'KidsCare', policy_number: 'KC-4711', group_number: 'GRP-88' }],
  ['insurance', { provider_name: 'OldCare', status: 'past' }],
  ['shot', { shot_name: 'MMR', date_administered: '2018-05-01' }],
  ['visit', { visit_name: 'Asthma review', visit_date: '2030-03-04T09:30:00.000Z' }],
];

async function family() {
  const maria = await signedUpClient(server, 'Maria Garcia');
  const leo = await expectStatus(
    maria.client.post<{ id: string }>('/api/family-members', {
      name: 'Leo Garcia',
      date_of_birth: '2017-04-12',
      color: '#3b82f6',
    }),
  );
  for (const [type, values] of LEOS) {
    await expectStatus(
      maria.client.post(
        `/api/${definitionsByType[type].path}`,
        sampleRecord(type, { ...values, family_member_id: leo.id }),
      ),
    );
  }
  await expectStatus(
    maria.client.post(
      '/api/contacts',
      sampleRecord('contact', {
        contact_name: 'Dr. Amara Okafor',
        contact_type: 'Doctor',
        phone_number: '+1 555 0199',
        person_ids: [leo.id],
      }),
    ),
  );
  const session = await maria.client.get<{ user: { id: string } }>('/api/auth/get-session');
  return { ...maria, userId: session.body.user.id, leoId: leo.id };
}

const cardOf = (client: TestClient, personId: string) =>
  client.get<EmergencyCard>(`/api/persons/${personId}/emergency-card?today=${TODAY}`);

describe('GET /api/persons/{personId}/emergency-card', () => {
  it('holds the person’s current essentials: allergies by severity, medications of today, conditions, contacts, insurance', async () => {
    const { client, leoId } = await family();
    const card = await expectStatus(cardOf(client, leoId), 200);
    expect(card).toEqual({
      person: { id: leoId, name: 'Leo Garcia', date_of_birth: '2017-04-12' },
      today: TODAY,
      allergies: [
        { substance: 'Peanuts', reaction: 'Anaphylaxis', severity: 'Severe' },
        { substance: 'Amoxicillin', reaction: 'Rash', severity: 'Mild' },
      ],
      medications: [
        expect.objectContaining({
          medication_name: 'Albuterol',
          dosage: '2 puffs',
          frequency: 'Twice Daily',
        }),
      ],
      conditions: [{ condition_name: 'Asthma', status: 'Chronic' }],
      emergency_contacts: [
        { contact_name: 'Dr. Amara Okafor', contact_type: 'Doctor', phone_number: '+1 555 0199' },
      ],
      insurance: [
        expect.objectContaining({
          provider_name: 'KidsCare',
          policy_number: 'KC-4711',
          group_number: 'GRP-88',
        }),
      ],
      not_shown: {},
    });
  });

  it('shows at most 1,000 of a kind, the most severe allergies first, and says how many more', async () => {
    const { client, leoId, userId } = await family();
    const owner = { userId, memberId: leoId };
    const numbered = (name: string, count: number) =>
      Array.from({ length: count }, (_, i) => `${name} ${String(i + 1).padStart(4, '0')}`);
    // A thousand mild allergies whose names come before Peanuts, and a thousand resolved
    // conditions whose names come before Asthma: read in the summary's order alone, the
    // severe allergy and the current condition would be the ones left out.
    await writeManyRecords(
      server.db,
      'allergies',
      owner,
      numbered('Allergen', ROWS_PER_SECTION).map((substance) => ({
        substance,
        severity: 'Mild',
        status: 'Active',
      })),
    );
    await writeManyRecords(
      server.db,
      'conditions',
      owner,
      numbered('Aaa old illness', ROWS_PER_SECTION + 1).map((condition_name) => ({
        condition_name,
        status: 'Resolved',
        is_family_history: 0,
      })),
    );
    const card = await expectStatus(cardOf(client, leoId), 200);
    expect(card.allergies).toHaveLength(ROWS_PER_SECTION);
    expect(card.allergies[0]).toEqual({
      substance: 'Peanuts',
      reaction: 'Anaphylaxis',
      severity: 'Severe',
    });
    // 1,002 active (the Resolved one is not on the card): Peanuts and 999 mild ones shown.
    expect(card.not_shown).toEqual({ allergies: 2 });
    expect(card.conditions).toEqual([{ condition_name: 'Asthma', status: 'Chronic' }]);
  });

  it('reaches a Viewer of the person, and no stranger; no one signed out', async () => {
    const { client, leoId, userId } = await family();
    const grace = await signedUpClient(server, 'Grace Kim');
    await shareAndAccept(client, grace, leoId, 'viewer');
    const shared = await expectStatus(cardOf(grace.client, leoId), 200);
    expect(shared.allergies.map((allergy) => allergy.substance)).toEqual([
      'Peanuts',
      'Amoxicillin',
    ]);
    // Grace was given Leo, not Maria.
    expect((await cardOf(grace.client, userId)).status).toBe(404);
    const stranger = await signedUpClient(server, 'Sam Stranger');
    for (const personId of [leoId, userId, '0190d5e2-0000-7000-8000-000000000000', 'x']) {
      const response = await cardOf(stranger.client, personId);
      expect(response.status, personId).toBe(404);
      expect(response.body).toEqual({ message: 'Person not found' });
    }
    client.forgetCookies();
    expect((await cardOf(client, leoId)).status).toBe(401);
  });

  it('refuses a today that is not a date, naming it', async () => {
    const { client, leoId } = await family();
    const response = await client.get(`/api/persons/${leoId}/emergency-card?today=soon`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ field: 'today' });
  });
});

describe('the emergency card’s link', () => {
  it('bundles only the card’s records, whatever types are asked for', async () => {
    const { client, leoId } = await family();
    const bundle = await expectStatus(
      client.get<Bundle>(
        `/api/fhir/Patient/${leoId}/$everything?today=${TODAY}&types=shot,visit,allergy&vaccines=overdue&scope=${EMERGENCY_CARD_SCOPE}`,
      ),
      200,
    );
    const resources = (bundle.entry ?? []).map((entry) => entry.resource as Resource);
    const names = resources.map((resource) => JSON.stringify(resource)).join('\n');
    for (const present of ['Peanuts', 'Amoxicillin', 'Albuterol', 'Asthma', 'KidsCare', 'Okafor']) {
      expect(names, present).toContain(present);
    }
    for (const absent of [
      'Dust',
      'Cefdinir',
      'Later Drug',
      'Ear infection',
      'Diabetes',
      'OldCare',
      'MMR',
      'Asthma review',
    ]) {
      expect(names, absent).not.toContain(absent);
    }
    expect(
      resources.some((resource) => resource.resourceType === 'ImmunizationRecommendation'),
    ).toBe(false);
    const wrong = await client.get(`/api/fhir/Patient/${leoId}/$everything?scope=everything`);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ field: 'scope' });
  });

  it('may last a year, listed and revoked like any link; no other link may', async () => {
    const { client, leoId } = await family();
    const jwe = await new CompactEncrypt(new TextEncoder().encode('{}'))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(randomBytes(32));
    const link = (extra: Record<string, unknown>) =>
      client.post<CreatedShareLink>('/api/share-links', {
        person_id: leoId,
        expires_in_days: EMERGENCY_CARD_EXPIRY_DAYS,
        label: emergencyCardLabel('Leo Garcia'),
        jwe,
        ...extra,
      });
    const plain = await link({});
    expect(plain.status).toBe(400);
    expect(plain.body).toMatchObject({ field: 'expires_in_days' });
    expect((await link({ purpose: 'forever' })).status).toBe(400);

    const before = Date.now();
    const created = await expectStatus(link({ purpose: EMERGENCY_CARD_SCOPE }), 201);
    const yearMs = EMERGENCY_CARD_EXPIRY_DAYS * 24 * 60 * 60 * 1000;
    expect(created.exp * 1000).toBeGreaterThanOrEqual(Math.floor((before + yearMs) / 1000) * 1000);
    expect(created.exp * 1000).toBeLessThanOrEqual(Date.now() + yearMs);

    const listed = await expectStatus(client.get<ShareLinkSummary[]>('/api/share-links'), 200);
    expect(listed.map(({ id, label, revoked_at }) => ({ id, label, revoked_at }))).toEqual([
      { id: created.id, label: 'Emergency card of Leo Garcia', revoked_at: null },
    ]);
    expect((await client.delete(`/api/share-links/${created.id}`)).status).toBe(204);
    const after = await expectStatus(client.get<ShareLinkSummary[]>('/api/share-links'), 200);
    expect(after[0]?.revoked_at).not.toBeNull();
  });

  it('is made only by who may share the person: a Viewer without export may not', async () => {
    const { client, leoId } = await family();
    const grace = await signedUpClient(server, 'Grace Kim');
    await shareAndAccept(client, grace, leoId, 'viewer');
    const bundle = await grace.client.get(
      `/api/fhir/Patient/${leoId}/$everything?scope=${EMERGENCY_CARD_SCOPE}`,
    );
    expect(bundle.status).toBe(404);
  });
});
