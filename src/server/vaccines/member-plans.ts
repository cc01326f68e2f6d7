/**
 * The vaccine plans of an account's family members, by the schedule that account follows:
 * what the Schedule tab, the calendar feed, the timeline, the summary and the reminders all
 * read. The schedule is always the owner's choice, whoever reads a shared person's plan.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
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
  doses: readonly PlannedDose[];
  /** The vaccines the person is presumed immune to by their date of birth (CDSi). */
  immune: ImmuneGroup[];
}

export interface PlanOptions {
  /** Only the members named. */
  onlyMembers?: readonly string[];
}

/**
 * Plans made lately, by everything a plan is made from: the schedule, the person's date of
 * birth and sex, every shot given by today (each field the plan reads, in the order read) and
 * the day. A plan is a pure function of those, so one found here is the plan that would be
 * made again: any new, changed or deleted shot, a changed date of birth or sex, another
 * schedule or another day is another key. A calendar app asks for the same feed every hour,
 * and the Schedule tab, the timeline and the reminders read the same plans between changes
 * (the plans of a family of five with 600 shots each take about 20 ms to make). Plans are
 * frozen: every reader shares them.
 */
const recentPlans = new LRUCache<string, readonly PlannedDose[]>({ max: 256 });

/** The key of a plan's inputs: a digest of them, whatever their size. */
function planKey(
  schedule: VaccineSchedule,
  person: PlanPerson,
  shots: readonly PlanShot[],
  today: string,
): string {
  const digest = createHash('sha256');
  digest.update(JSON.stringify([schedule.id, person.birthDate, person.sex, today]));
  for (const shot of shots) {
    digest.update(
      JSON.stringify([shot.id, shot.shot_name, shot.date_administered, shot.vaccine_code]),
    );
  }
  return digest.digest('base64');
}

/** The person's plan by `schedule` for `today`: made, or the same plan made lately. */
export function plannedDoses(
  schedule: VaccineSchedule,
  person: PlanPerson,
  shots: readonly PlanShot[],
  today: string,
): readonly PlannedDose[] {
  const key = planKey(schedule, person, shots, today);
  const recent = recentPlans.get(key);
  if (recent) return recent;
  const doses = vaccinePlan(schedule.data, person, shots, today);
  for (const dose of doses) Object.freeze(dose);
  const plan = Object.freeze(doses);
  recentPlans.set(key, plan);
  return plan;
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
    const doses = plannedDoses(
      schedule,
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
