/**
 * GET /api/persons/{personId}/vaccine-schedule (CONTRACT §5): a person's vaccine plan by
 * the schedule the account follows, computed from their date of birth, sex and shots.
 *
 *   ?today=YYYY-MM-DD   the reader's date, which decides Done/Overdue/Due/Upcoming
 *
 * The person is the user, one of their members, or a person shared with them (a Viewer
 * reads it too); any other id is answered as a person that does not exist.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { localToday } from '../../shared/dates';
import { todayParam } from '../../shared/records/list-query';
import type { VaccineScheduleAnswer } from '../../shared/vaccines/schedule-setting';
import { vaccineSchedules, type VaccineScheduleId } from '../../shared/vaccines/schedules';
import { vaccinePlan, type PlanShot } from '../../shared/vaccines/vaccine-plan';
import { ownedRows } from '../access/access';
import { shareOfPerson } from '../access/scope';
import type { DB } from '../db/schema';
import { PERSON_NOT_FOUND } from '../fhir/fhir-routes';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import { findPerson, personRecords } from '../persons/person-records';

const querySchema = z.object({ today: todayParam });

export function vaccineScheduleRoutes(db: Kysely<DB>) {
  return new Hono<AppEnv>().get(
    '/:personId/vaccine-schedule',
    validate('query', querySchema),
    async (c) => {
      const access = await c.var.access();
      const personId = c.req.param('personId');
      const ownerId = shareOfPerson(access, personId)?.ownerId ?? access.userId;
      const person = await findPerson(db, ownerId, personId);
      if (!person) throw notFound(PERSON_NOT_FOUND);
      const setting = await ownedRows(db, 'user', access.userId)
        .select('vaccine_schedule')
        .executeTakeFirst();
      const chosen = setting?.vaccine_schedule;
      if (!chosen || !(chosen in vaccineSchedules)) {
        return c.json<VaccineScheduleAnswer>({ schedule: 'none', doses: [] });
      }
      const schedule = vaccineSchedules[chosen as VaccineScheduleId];
      const answer = { schedule: schedule.id, source: schedule.source };
      if (!person.date_of_birth) {
        return c.json<VaccineScheduleAnswer>({ ...answer, doses: [], missing: 'date_of_birth' });
      }
      const member = person.family_member_id
        ? await ownedRows(db, 'family_members', ownerId)
            .select('sex')
            .where('id', '=', person.family_member_id)
            .executeTakeFirst()
        : undefined;
      const shots: PlanShot[] = [];
      for await (const shot of personRecords(db, ownerId, person, 'shot')) {
        shots.push(shot as unknown as PlanShot);
      }
      const sex = member?.sex === 'female' || member?.sex === 'male' ? member.sex : null;
      const today = c.req.valid('query').today ?? localToday();
      const doses = vaccinePlan(
        schedule.data,
        { birthDate: person.date_of_birth, sex },
        shots,
        today,
      );
      return c.json<VaccineScheduleAnswer>({
        ...answer,
        doses: doses.map(({ shotId: _shotId, ...dose }) => dose),
      });
    },
  );
}
