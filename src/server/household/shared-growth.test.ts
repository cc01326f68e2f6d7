/**
 * A child's growth chart for the other parent (issue 35): a child shared as Viewer comes to
 * the grantee with the date of birth and sex the chart needs, and the chart's reads (the
 * vitals list by person) answer that child's entries, through the access module's rules:
 * nothing of the owner's other persons, and nothing once access is removed.
 */
import { describe, expect, it } from 'vitest';
import type { GivenGrant, Household } from '../../shared/household';
import { sampleRecord } from '../test/factories';
import { expectStatus } from '../test/family-records';
import { acceptGrant } from '../test/grant-acceptance';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';

const server = useTestServer();

type VitalsPage = { items: { id: string; weight_kg: number | string | null }[] };

/** A vitals entry of one weight, for a member (or, with null, the account holder). */
const postWeight = (client: TestClient, memberId: string | null, day: string, kg: number) =>
  client.post<{ id: string }>(
    '/api/vitals',
    sampleRecord('vital', {
      measured_at: `${day}T09:00:00.000Z`,
      weight_kg: kg,
      height_cm: null,
      systolic_mmhg: null,
      diastolic_mmhg: null,
      family_member_id: memberId,
    }),
  );
const addWeight = (client: TestClient, memberId: string | null, day: string, kg: number) =>
  expectStatus(postWeight(client, memberId, day, kg));

/** The vitals of one person as the growth screen asks for them. */
const growthRead = (client: TestClient, personId: string) =>
  client.get<VitalsPage>(`/api/vitals?member=${personId}&limit=100&offset=0`);

describe('growth charts of a shared child', () => {
  it('reach the other parent, a Viewer, with the child’s date of birth, sex and measurements only', async () => {
    const owner = await signedUpClient(server, 'Olivia Owner');
    const other = await signedUpClient(server, 'Grace Grantee');
    const noa = await expectStatus(
      owner.client.post<{ id: string }>('/api/family-members', {
        name: 'Noa',
        date_of_birth: '2024-01-15',
        sex: 'female',
      }),
    );
    const ezra = await expectStatus(
      owner.client.post<{ id: string }>('/api/family-members', {
        name: 'Ezra',
        date_of_birth: '2022-05-01',
        sex: 'male',
      }),
    );
    const noaEntries = [
      await addWeight(owner.client, noa.id, '2024-04-15', 6.1),
      await addWeight(owner.client, noa.id, '2024-07-15', 7.6),
    ];
    await addWeight(owner.client, ezra.id, '2024-04-15', 12.2);
    await addWeight(owner.client, null, '2024-04-15', 70);

    // Before any grant, the child is no one of the other parent's.
    expect((await growthRead(other.client, noa.id)).body.items).toEqual([]);

    const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
      personId: noa.id,
      email: other.email,
      role: 'viewer',
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
    await acceptGrant(other.client, granted);

    const household = await other.client.get<Household>('/api/household');
    expect(household.status).toBe(200);
    expect(household.body.received).toEqual([
      expect.objectContaining({
        personId: noa.id,
        name: 'Noa',
        dateOfBirth: '2024-01-15',
        sex: 'female',
        role: 'viewer',
      }),
    ]);

    const read = await growthRead(other.client, noa.id);
    expect(read.status).toBe(200);
    expect(read.body.items.map((item) => item.id).sort()).toEqual(
      noaEntries.map((entry) => entry.id).sort(),
    );
    expect(read.body.items.map((item) => Number(item.weight_kg)).sort()).toEqual([6.1, 7.6]);
    // Another child of the owner's, or the owner, by id: nothing.
    expect((await growthRead(other.client, ezra.id)).body.items).toEqual([]);
    expect((await other.client.get(`/api/persons/${ezra.id}/vitals`)).status).toBe(404);
    // A Viewer reads the chart but adds no measurement.
    expect((await postWeight(other.client, noa.id, '2024-08-15', 8)).status).toBe(403);

    // Access removed: gone from the very next read.
    const removed = await owner.client.delete(`/api/household/grants/${granted.body.id}`);
    expect(removed.status).toBeLessThan(300);
    expect((await growthRead(other.client, noa.id)).body.items).toEqual([]);
    expect((await other.client.get<Household>('/api/household')).body.received).toEqual([]);
  });

  it('name no sex for a child whose sex is not recorded, nor for an owner who shared themself', async () => {
    const owner = await signedUpClient(server, 'Olivia Owner');
    const other = await signedUpClient(server, 'Grace Grantee');
    const kid = await expectStatus(
      owner.client.post<{ id: string }>('/api/family-members', {
        name: 'Kai',
        date_of_birth: '2023-02-01',
      }),
    );
    const profile = (await owner.client.get<{ id: string }>('/api/profile')).body;
    for (const personId of [kid.id, profile.id]) {
      const granted = await owner.client.post<GivenGrant>('/api/household/grants', {
        personId,
        email: other.email,
        role: 'viewer',
      });
      await acceptGrant(other.client, granted);
    }
    const received = (await other.client.get<Household>('/api/household')).body.received;
    expect(received).toHaveLength(2);
    expect(received.map((person) => [person.name, person.dateOfBirth, person.sex])).toEqual(
      expect.arrayContaining([
        ['Kai', '2023-02-01', null],
        ['Olivia Owner', null, null],
      ]),
    );
  });
});
