/**
 * The vaccine plans of an account's family members, by the schedule that account follows:
 * what the Schedule tab, the calendar feed, the timeline, the summary and the reminders all
 * read. The schedule is always the owner's choice, whoever reads a shared person's plan.
 */
import type { Kysely } from 'kysely';
import { toSex } from '../../shared/family-members';
import { shotDefinition } from '../../shared/records/shots';
import {
  vaccineSchedules,
  type VaccineSchedule,
  type VaccineScheduleId,
} from '../../shared/vaccines/schedules';
import {
  immuneGroups,
  vaccinePlan,
  type ImmuneGroup,
  type PlanPerson,
  type PlannedDose,
  type PlanShot,
} from '../../shared/vaccines/vaccine-plan';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';

/** The schedule the account follows, or undefined when it follows none. */
export async function accountSchedule(
  db: Kysely<DB>,
  ownerId: string,
): Promise<VaccineSchedule | undefined> {
  const setting = await ownedRows(db, 'user', ownerId)
    .select('vaccine_schedule')
    .executeTakeFirst();
  const chosen = setting?.vaccine_schedule;
  return chosen && chosen in vaccineSchedules
    ? vaccineSchedules[chosen as VaccineScheduleId]
    : undefined;
}

export interface MemberPlan {
  member: { id: string; name: string; date_of_birth: string };
  doses: PlannedDose[];
  /** The vaccines the person is presumed immune to by their date of birth (CDSi). */
  immune: ImmuneGroup[];
}

export interface PlanOptions {
  /** Only the members named. */
  onlyMembers?: readonly string[];
}

/**
 * The plan of each of the owner's members with a date of birth whose schedule is tracked
 * (of those `options` keeps), by `schedule`, for `today`. A member whose schedule is turned
 * off has none: no doses due on the timeline, in the PDF, the calendar or the reminders.
 */
export async function memberPlans(
  db: Kysely<DB>,
  ownerId: string,
  schedule: VaccineSchedule,
  today: string,
  { onlyMembers }: PlanOptions = {},
): Promise<MemberPlan[]> {
  if (onlyMembers?.length === 0) return [];
  const people = await ownedRows(db, 'family_members', ownerId)
    .select(['id', 'name', 'date_of_birth', 'sex'])
    .where('date_of_birth', 'is not', null)
    .where('vaccines_tracked', '=', 1)
    .$if(onlyMembers !== undefined, (query) => query.where('id', 'in', onlyMembers!))
    .execute();
  if (people.length === 0) return [];
  // Only the shots a plan counts: given by today (isShotGiven), as the Shots list's 'Past'
  // selects them (vaccinePlan passes over the others too).
  const { past } = shotDefinition.views;
  const shots = (await ownedRows(db, 'shots', ownerId)
    .select(['id', 'shot_name', 'date_administered', 'vaccine_code', 'family_member_id'])
    .where(
      'family_member_id',
      'in',
      people.map((person) => person.id),
    )
    .where('date_administered', past.comparison, today)
    .execute()) as (PlanShot & { family_member_id: string })[];
  return people.map((person) => {
    const member = { id: person.id, name: person.name, date_of_birth: person.date_of_birth! };
    const planned: PlanPerson = { birthDate: member.date_of_birth, sex: toSex(person.sex) };
    const doses = vaccinePlan(
      schedule.data,
      planned,
      shots.filter((shot) => shot.family_member_id === person.id),
      today,
    );
    return { member, doses, immune: immuneGroups(schedule.data, planned) };
  });
}

/** The plans of the owner's members by the owner's schedule (none when it follows none). */
export async function accountMemberPlans(
  db: Kysely<DB>,
  ownerId: string,
  today: string,
  options: PlanOptions = {},
): Promise<MemberPlan[]> {
  const schedule = await accountSchedule(db, ownerId);
  return schedule ? memberPlans(db, ownerId, schedule, today, options) : [];
}

/**
 * The doses the owner's schedule has overdue today for one of their members, earliest due
 * first (the summary PDF and a share link's bundle list them).
 */
export async function overdueDoses(
  db: Kysely<DB>,
  ownerId: string,
  memberId: string,
  today: string,
): Promise<PlannedDose[]> {
  const plans = await accountMemberPlans(db, ownerId, today, { onlyMembers: [memberId] });
  return (plans[0]?.doses ?? [])
    .filter((dose) => dose.status === 'Overdue')
    .sort((a, b) => a.due.localeCompare(b.due) || a.vaccine.localeCompare(b.vaccine));
}
