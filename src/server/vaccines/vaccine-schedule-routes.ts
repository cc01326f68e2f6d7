/**
 * GET /api/persons/{personId}/vaccine-schedule (CONTRACT §5): a person's vaccine plan by
 * the schedule its owner's account follows, computed from their date of birth, sex and shots.
 *
 *   ?today=YYYY-MM-DD   the reader's date, which decides Done/Overdue/Due/Upcoming
 *
 * The person is the user, one of their members, or a person shared with them (a Viewer
 * reads it too); any other id is answered as a person that does not exist.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { addDays } from '../../shared/date-values';
import { localToday } from '../../shared/dates';
import { todayParam } from '../../shared/records/list-query';
import type { VaccineScheduleAnswer } from '../../shared/vaccines/schedule-setting';
import { shareOfPerson } from '../access/scope';
import type { DB } from '../db/schema';
import { PERSON_NOT_FOUND } from '../fhir/fhir-routes';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import { findPerson } from '../persons/person-records';
import { accountMemberPlans, accountSchedule, memberPlans } from './member-plans';

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
      const schedule = await accountSchedule(db, ownerId);
      if (!schedule) return c.json<VaccineScheduleAnswer>({ schedule: 'none', doses: [] });
      const answer = { schedule: schedule.id, source: schedule.source };
      if (!person.date_of_birth || !person.family_member_id) {
        return c.json<VaccineScheduleAnswer>({ ...answer, doses: [], missing: 'date_of_birth' });
      }
      const today = c.req.valid('query').today ?? localToday();
      const [plan] = await memberPlans(db, ownerId, schedule, today, {
        onlyMembers: [person.family_member_id],
      });
      const doses = plan?.doses ?? [];
      return c.json<VaccineScheduleAnswer>({
        ...answer,
        doses: doses.map(({ shotId: _shotId, ...dose }) => dose),
      });
    },
  );
}

/** How far ahead the timeline lists vaccine doses. */
export const DOSES_DUE_DAYS_AHEAD = 30;

/** A dose not yet given, of one person, as the timeline lists it. */
export interface DoseDue {
  personId: string;
  name: string;
  vaccine: string;
  dose: number;
  of: number;
  due: string;
  status: 'Overdue' | 'Due' | 'Upcoming';
}

/**
 * GET /api/timeline/vaccine-doses?today=YYYY-MM-DD: the doses not yet given whose due date
 * is within the next 30 days or has passed, of the user's members and of the persons shared
 * with them, each by its owner's schedule; soonest first.
 */
export function vaccineDosesDueRoutes(db: Kysely<DB>) {
  return new Hono<AppEnv>().get('/vaccine-doses', validate('query', querySchema), async (c) => {
    const access = await c.var.access();
    const today = c.req.valid('query').today ?? localToday();
    const until = addDays(today, DOSES_DUE_DAYS_AHEAD);
    const sharedMembers = new Map<string, string[]>();
    for (const share of access.shares) {
      if (share.memberId === null) continue;
      sharedMembers.set(share.ownerId, [
        ...(sharedMembers.get(share.ownerId) ?? []),
        share.memberId,
      ]);
    }
    const plans = [
      ...(await accountMemberPlans(db, access.userId, today)),
      ...(
        await Promise.all(
          [...sharedMembers].map(([ownerId, ids]) =>
            accountMemberPlans(db, ownerId, today, { onlyMembers: ids }),
          ),
        )
      ).flat(),
    ];
    const doses: DoseDue[] = plans.flatMap(({ member, doses }) =>
      doses.flatMap(({ vaccine, dose, of, due, status }) =>
        status === 'Done' || due > until
          ? []
          : [{ personId: member.id, name: member.name, vaccine, dose, of, due, status }],
      ),
    );
    doses.sort((a, b) => a.due.localeCompare(b.due) || a.name.localeCompare(b.name));
    return c.json({ doses });
  });
}
