/**
 * GET /api/persons/{personId}/vaccine-schedule (CONTRACT §5): a person's vaccine plan by
 * the schedule its owner's account follows, computed from their date of birth, sex and shots,
 * with the vaccines they are presumed immune to by their date of birth.
 *
 *   ?today=YYYY-MM-DD   the reader's date, which decides Done/Overdue/Due/Upcoming
 *
 * The person is the user, one of their members, or a person shared with them (a Viewer
 * reads it too, noted in the owner's security activity as any read of theirs is); any other
 * id is answered as a person that does not exist.
 *
 * PUT /api/persons/{personId}/vaccine-schedule/tracking {tracked}: the owner turns the
 * schedule off for one member ('Not tracked for {name}') or on again; a grantee may not (403).
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { addDays } from '../../shared/date-values';
import { localToday } from '../../shared/dates';
import { todayParam } from '../../shared/records/list-query';
import type { PersonDosesDue, VaccineScheduleAnswer } from '../../shared/vaccines/schedule-setting';
import { shareOfPerson, updateOwned } from '../access/scope';
import type { DB } from '../db/schema';
import { ownPerson, PERSON_NOT_FOUND, readablePerson } from '../access/persons';
import type { AppEnv } from '../http/env';
import { ApiError } from '../../shared/api-error';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { HouseholdRepository } from '../household/household-repository';
import { accountMemberPlans, accountSchedule, memberPlans } from './member-plans';
import { key } from '../../shared/i18n/translate';

const querySchema = z.object({ today: todayParam });
const OWNER_DECIDES_MESSAGE = key(
  'Only the person who shared this profile can turn its vaccine schedule on or off',
);
const trackingSchema = z.object({
  tracked: z.boolean({ message: key('tracked must be true or false') }),
});

export function vaccineScheduleRoutes(
  db: Kysely<DB>,
  household: Pick<HouseholdRepository, 'noteUse'>,
) {
  return new Hono<AppEnv>()
    .get('/:personId/vaccine-schedule', validate('query', querySchema), async (c) => {
      const access = await c.var.access();
      const personId = c.req.param('personId');
      const { ownerId, person, share } = await readablePerson(db, access, personId);
      if (share) await household.noteUse(access, [share], 'read');
      const schedule = await accountSchedule(db, ownerId);
      if (!schedule) return c.json<VaccineScheduleAnswer>({ schedule: 'none', doses: [] });
      const answer = { schedule: schedule.id, source: schedule.source(), name: person.name };
      if (!person.date_of_birth || !person.family_member_id) {
        return c.json<VaccineScheduleAnswer>({ ...answer, doses: [], missing: 'date_of_birth' });
      }
      const today = c.req.valid('query').today ?? localToday();
      const [plan] = await memberPlans(db, ownerId, schedule, today, {
        onlyMembers: [person.family_member_id],
      });
      // A member with a date of birth has a plan unless their schedule is turned off.
      if (!plan) return c.json<VaccineScheduleAnswer>({ ...answer, doses: [], tracked: false });
      return c.json<VaccineScheduleAnswer>({
        ...answer,
        tracked: true,
        doses: plan.doses.map(({ shotId: _shotId, ...dose }) => dose),
        immune: plan.immune,
      });
    })
    .put('/:personId/vaccine-schedule/tracking', validate('json', trackingSchema), async (c) => {
      const access = await c.var.access();
      const personId = c.req.param('personId');
      // A person shared with the user is the owner's to decide for.
      if (shareOfPerson(access, personId)) throw new ApiError(403, OWNER_DECIDES_MESSAGE);
      const person = await ownPerson(db, access.userId, personId);
      // The account holder has no schedule of their own to turn on or off.
      if (!person.family_member_id) throw notFound(PERSON_NOT_FOUND);
      const { tracked } = c.req.valid('json');
      await updateOwned(db, 'family_members', access.userId)
        .set({ vaccines_tracked: tracked ? 1 : 0 })
        .where('id', '=', person.family_member_id)
        .execute();
      return c.json({ tracked });
    });
}

/** How far ahead the timeline lists vaccine doses. */
export const DOSES_DUE_DAYS_AHEAD = 30;

/**
 * GET /api/timeline/vaccine-doses?today=YYYY-MM-DD: per person of the user's members and of
 * the persons shared with them (each by its owner's schedule), how many doses not yet given
 * are overdue, due, or due within the next 30 days; the persons with none are left out. The
 * shared members read are noted in their owners' security activity.
 */
export function vaccineDosesDueRoutes(
  db: Kysely<DB>,
  household: Pick<HouseholdRepository, 'noteUse'>,
) {
  return new Hono<AppEnv>().get('/vaccine-doses', validate('query', querySchema), async (c) => {
    const access = await c.var.access();
    const today = c.req.valid('query').today ?? localToday();
    const until = addDays(today, DOSES_DUE_DAYS_AHEAD);
    const sharedMembers = new Map<string, string[]>();
    const read = access.shares.filter((share) => share.memberId !== null);
    for (const share of read) {
      sharedMembers.set(share.ownerId, [
        ...(sharedMembers.get(share.ownerId) ?? []),
        share.memberId as string,
      ]);
    }
    if (read.length) await household.noteUse(access, read, 'read');
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
    const persons: PersonDosesDue[] = plans.flatMap(({ member, doses }) => {
      const count = (status: string) =>
        doses.filter((dose) => dose.status === status && dose.due <= until).length;
      const summary = {
        personId: member.id,
        name: member.name,
        overdue: count('Overdue'),
        due: count('Due'),
        soon: count('Upcoming'),
      };
      return summary.overdue + summary.due + summary.soon > 0 ? [summary] : [];
    });
    persons.sort((a, b) => b.overdue - a.overdue || b.due - a.due || a.name.localeCompare(b.name));
    return c.json({ persons });
  });
}
