/**
 * Where a list splits at the present, as the database decides it: each type's view is SQL
 * (record-repository.ts, from the definition), so the boundaries are tested there, on both
 * engines, with the moment and the calendar day set by the test.
 */
import { describe, expect, it } from 'vitest';
import { medicationDefinition, shotDefinition, visitDefinition } from '../../shared/records';
import type { RecordDefinition } from '../../shared/records/definition';
import { createFamilyMemberRepository } from '../family-members/family-member-repository';
import { sampleRecord } from '../test/factories';
import { signedUpClient, useTestServer } from '../test/harness';
import { createRecordRepository } from './record-repository';
import { ownAccess } from '../access/scope';

const server = useTestServer();

const NOW = '2026-06-15T12:00:00.000Z';
const TODAY = '2026-06-15';

/** The names of a user's records in each view of a type, at NOW and TODAY. */
async function viewsOf(definition: RecordDefinition, records: Record<string, unknown>[]) {
  const { client } = await signedUpClient(server);
  const userId = (await client.get<{ id: string }>('/api/profile')).body.id;
  for (const record of records) {
    const response = await client.post(`/api/${definition.path}`, record);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }
  const repository = createRecordRepository(
    server.db,
    definition,
    createFamilyMemberRepository(server.db),
  );
  const names: Record<string, string[]> = {};
  for (const view of Object.keys(definition.views ?? {})) {
    const page = await repository.list(ownAccess(userId), {
      view,
      now: NOW,
      today: TODAY,
      limit: 50,
      offset: 0,
    });
    names[view] = page.items
      .map((item) => String((item as Record<string, unknown>)[definition.titleField]))
      .sort();
  }
  return names;
}

describe('visits', () => {
  it('are upcoming from the very moment of now, comparing moments across offsets', async () => {
    const visit = (name: string, at: string) =>
      sampleRecord('visit', { visit_name: name, visit_date: at });
    expect(
      await viewsOf(visitDefinition, [
        visit('at now', NOW),
        visit('a millisecond before', '2026-06-15T11:59:59.999Z'),
        visit('1:30 pm in Paris', '2026-06-15T13:30:00.000+01:00'),
        visit('7:59 am in New York', '2026-06-15T07:59:00.000-04:00'),
      ]),
    ).toEqual({
      upcoming: ['1:30 pm in Paris', 'at now'],
      past: ['7:59 am in New York', 'a millisecond before'],
    });
  });
});

describe('medications', () => {
  it('are current without an end date and on the day they end, past the day after', async () => {
    const medication = (name: string, end: string | null) =>
      sampleRecord('medication', {
        medication_name: name,
        start_date: '2026-01-01',
        end_date: end,
      });
    expect(
      await viewsOf(medicationDefinition, [
        medication('no end', null),
        medication('ends today', TODAY),
        medication('ended yesterday', '2026-06-14'),
      ]),
    ).toEqual({ current: ['ends today', 'no end'], past: ['ended yesterday'] });
  });
});

describe('shots', () => {
  it('are upcoming dated tomorrow, past (given) dated today or yesterday, and in neither list undated', async () => {
    const shot = (name: string, on: string | null) =>
      sampleRecord('shot', { shot_name: name, date_administered: on });
    expect(
      await viewsOf(shotDefinition, [
        shot('tomorrow', '2026-06-16'),
        shot('today', TODAY),
        shot('yesterday', '2026-06-14'),
        shot('undated', null),
      ]),
    ).toEqual({ upcoming: ['tomorrow'], past: ['today', 'yesterday'] });
  });
});
