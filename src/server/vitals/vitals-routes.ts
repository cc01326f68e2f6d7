/**
 * GET /api/persons/{personId}/vitals: every vitals entry of one person, oldest first, their
 * measures only (canonical units, a measure not taken left out), and the person's date of birth, for the trends of
 * /vitals and for BMI (derived in the browser by src/shared/bmi.ts). One query on the
 * (owner or member, measured_at) index; ten years of daily weights is one answer.
 *
 * The person is the user, one of their members, or a person shared with them (a Viewer
 * reads it too); any other id is answered as a person that does not exist.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { vitalColumns } from '../../shared/records/vitals';
import { vitalsEntryOf, type VitalsTrendAnswer } from '../../shared/vitals-trend';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import { readablePerson } from '../access/persons';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';

export function vitalsTrendRoutes(db: Kysely<DB>, household: Pick<HouseholdRepository, 'noteUse'>) {
  return new Hono<AppEnv>().get('/:personId/vitals', async (c) => {
    const access = await c.var.access();
    const personId = c.req.param('personId');
    const { ownerId, person, share } = await readablePerson(db, access, personId);
    const memberId = person.family_member_id;
    const rows = await ownedRows(db, 'vitals', ownerId)
      .select(['id', 'measured_at', 'glucose_timing', ...vitalColumns] as never[])
      .where('family_member_id', memberId === null ? 'is' : '=', memberId)
      .orderBy('measured_at' as never, 'asc')
      .execute();
    if (share) await household.noteUse(access, [share], 'read');
    return c.json<VitalsTrendAnswer>({
      person: { id: personId, name: person.name, date_of_birth: person.date_of_birth },
      entries: (rows as unknown as Parameters<typeof vitalsEntryOf>[0][]).map(vitalsEntryOf),
    });
  });
}
