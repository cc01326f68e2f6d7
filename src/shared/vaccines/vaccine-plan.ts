/**
 * A person's vaccine plan: for each vaccine group of the schedule, the doses given that
 * count (CDSi 'Valid'), then the doses still to come, each with its earliest and due
 * (recommended) dates and a status for today. The doses to come after the next one are found
 * by giving each forecast dose on its due date (or today, when that has passed) and asking
 * CDSi again, up to the end of the schedule's ages.
 */
import { addDuration, type Day, fromDay, toDay } from './cdsi-dates';
import {
  evaluateVaccineGroup,
  type AdministeredDose,
  type GroupResult,
  type Patient,
} from './cdsi-engine';
import type { SeriesDose, SupportingData } from './cdsi-data';
import { matchVaccineByName, vaccineChoices } from './vaccines';
import { isShotGiven } from '../records/shots';

export type DoseStatus = 'Done' | 'Overdue' | 'Due' | 'Upcoming';

export interface PlanShot {
  id: string;
  shot_name: string;
  date_administered: string | null;
  vaccine_code: string | null;
}

export interface PlannedDose {
  vaccine: string;
  dose: number;
  of: number;
  earliest: string;
  due: string;
  status: DoseStatus;
  /** When Done: the date it was given, and the shot that gave it. */
  given?: string;
  shotId?: string;
  /** A Done dose whose shot had no vaccine code and was matched by its name. */
  matchedByName?: boolean;
  /** The CVX code a shot recording this dose is kept with. */
  cvx: string;
}

/** The ages the plan looks ahead to: the schedule is birth to 18 years. */
const PLAN_ENDS_AT_AGE = '19 years';
/** More doses than any series of the schedule has; a guard against a recurring dose. */
const MAX_PLANNED_PER_GROUP = 12;

/**
 * Whether a person's plan can hold a dose due on or after `day`: none is planned past the
 * schedule's ages, so a grown-up's plan has nothing still to come (the calendar feed asks).
 */
export function plansDosesFrom(birthDate: string, day: string): boolean {
  return addDuration(toDay(birthDate), PLAN_ENDS_AT_AGE) > toDay(day);
}

function choiceFor(group: string, codes: readonly string[]) {
  const ofGroup = vaccineChoices.filter((choice) => choice.group === group);
  return (
    ofGroup.find((choice) => (choice.codes ?? [choice.cvx]).some((c) => codes.includes(c))) ??
    ofGroup[0]
  );
}

const groupName = (group: string, codes: readonly string[]) =>
  choiceFor(group, codes)?.name ?? group;

function statusOn(today: Day, due: Day, pastDue: Day | undefined): DoseStatus {
  if (pastDue !== undefined && today >= pastDue) return 'Overdue';
  return today >= due ? 'Due' : 'Upcoming';
}

/**
 * The CVX code to give a forecast dose with: the vaccine the plan names, when it is a
 * preferable one (Tdap, not Td, at 11), else a preferable vaccine for that age.
 */
function codeToGive(target: SeriesDose, group: string, birthDate: Day, day: Day): string {
  const preferable = target.preferableVaccine.map((row) => row.cvx);
  const named = choiceFor(group, preferable)?.cvx;
  if (named && preferable.includes(named)) return named;
  const fits = target.preferableVaccine.find(
    (row) =>
      (row.beginAge === undefined || day >= addDuration(birthDate, row.beginAge)) &&
      (row.endAge === undefined || day < addDuration(birthDate, row.endAge)),
  );
  return fits?.cvx ?? target.preferableVaccine[0]?.cvx ?? choiceFor(group, [])?.cvx ?? '';
}

function validDoses(result: GroupResult): AdministeredDose[] {
  const seen = new Map<string | undefined, AdministeredDose>();
  for (const series of Object.values(result.antigens)) {
    for (const entry of series.evaluated) {
      if (entry.status === 'Valid') seen.set(entry.dose.id, entry.dose);
    }
  }
  return [...seen.values()].sort((a, b) => a.date - b.date);
}

export function vaccinePlan(
  data: SupportingData,
  person: { birthDate: string; sex: 'female' | 'male' | null },
  shots: readonly PlanShot[],
  todayDate: string,
): PlannedDose[] {
  const today = toDay(todayDate);
  const birthDate = toDay(person.birthDate);
  const patient: Patient = {
    birthDate,
    ...(person.sex ? { gender: person.sex === 'female' ? 'Female' : 'Male' } : {}),
  };
  const matched = new Set<string>();
  // A family records the same vaccine under the same name year after year: each name once.
  const codesByName = new Map<string, string | null>();
  const codeByName = (name: string) => {
    if (!codesByName.has(name)) codesByName.set(name, matchVaccineByName(name)?.cvx ?? null);
    return codesByName.get(name)!;
  };
  const doses: AdministeredDose[] = [];
  for (const shot of shots) {
    if (!shot.date_administered || !isShotGiven(shot.date_administered, todayDate)) continue;
    let cvx = shot.vaccine_code;
    if (!cvx) {
      cvx = codeByName(shot.shot_name);
      if (cvx) matched.add(shot.id);
    }
    if (cvx) doses.push({ id: shot.id, date: toDay(shot.date_administered), cvx });
  }
  const end = addDuration(birthDate, PLAN_ENDS_AT_AGE);
  const plan: PlannedDose[] = [];
  for (const { name: group } of data.schedule.vaccineGroups) {
    const first = evaluateVaccineGroup(data, group, patient, doses, today);
    if (!first) continue;
    const entries: Omit<PlannedDose, 'dose' | 'of'>[] = validDoses(first).map((dose) => ({
      vaccine: groupName(group, [dose.cvx]),
      earliest: fromDay(dose.date),
      due: fromDay(dose.date),
      status: 'Done',
      given: fromDay(dose.date),
      ...(dose.id ? { shotId: dose.id } : {}),
      ...(dose.id && matched.has(dose.id) ? { matchedByName: true } : {}),
      cvx: dose.cvx,
    }));
    const seriesOf = Object.fromEntries(
      Object.entries(first.antigens).map(([antigen, best]) => [antigen, best.series]),
    );
    let result = first;
    let simulated = doses;
    const seenRecurring = new Set<SeriesDose>();
    for (let step = 0; step < MAX_PLANNED_PER_GROUP; step += 1) {
      const forecast = result.status === 'Not complete' ? result.forecast : undefined;
      if (!forecast || forecast.recommended >= end || seenRecurring.has(forecast.target)) break;
      if (forecast.target.recurringDose === 'Yes') seenRecurring.add(forecast.target);
      const preferable = forecast.target.preferableVaccine.map((row) => row.cvx);
      const givenOn = Math.max(forecast.recommended, today);
      const cvx = codeToGive(forecast.target, group, birthDate, givenOn);
      entries.push({
        vaccine: groupName(group, preferable),
        earliest: fromDay(forecast.earliest),
        due: fromDay(forecast.recommended),
        status: statusOn(today, forecast.recommended, forecast.pastDue),
        cvx: choiceFor(group, [cvx])?.cvx ?? cvx,
      });
      simulated = [...simulated, { date: givenOn, cvx }];
      const next = evaluateVaccineGroup(data, group, patient, simulated, givenOn + 1, seriesOf);
      if (!next) break;
      result = next;
    }
    entries.forEach((entry, i) => plan.push({ ...entry, dose: i + 1, of: entries.length }));
  }
  return plan.sort((a, b) => a.due.localeCompare(b.due) || a.vaccine.localeCompare(b.vaccine));
}
