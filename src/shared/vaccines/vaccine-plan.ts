/**
 * A person's vaccine plan: for each vaccine group of the schedule, the doses given that
 * count (CDSi 'Valid'), then the doses still to come, each with its earliest and due
 * (recommended) dates and a status for today. The doses to come after the next one are found
 * by giving each forecast dose on its due date (or today, when that has passed) and asking
 * CDSi again, as far ahead as the plan looks (a child's to their 19th birthday, anyone's at
 * least five years).
 *
 * An adult's plan (19 or older today) shows no date before their 19th birthday: CDSi dates a
 * catch-up dose from the child it would have been given to ('Hep B dose 1: birth'), which for
 * a grown-up is no date at all. Such a dose is due from their 19th birthday, and is 'Due', not
 * 'Overdue': a past due date from their childhood is not one they missed as an adult
 * (docs/decisions/0043).
 */
import { key } from '../i18n/translate';
import { addDuration, type Day, fromDay, toDay } from './cdsi-dates';
import {
  evaluateVaccineGroup,
  immuneByBirth,
  vaccineFitsAge,
  type AdministeredDose,
  type GroupResult,
  type Patient,
} from './cdsi-engine';
import type { Series, SeriesDose, SupportingData, VaccineRow } from './cdsi-data';
import { dataForSeasonOf } from './seasons';
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

/** A child's plan looks ahead to the end of the childhood schedule's ages. */
const CHILDHOOD_ENDS_AT_AGE = '19 years';
/** Anyone's plan looks at least this far ahead (an adult's next booster, RSV at 75). */
const PLAN_LOOKS_AHEAD = '5 years';
/** More doses than any series of the schedule has; a guard against a recurring dose. */
const MAX_PLANNED_PER_GROUP = 12;

/**
 * The usual name a dose of a group is shown by: the choice whose codes hold one of the dose's
 * vaccines and whose ages hold the day (PCV for a child, Pneumococcal for an adult).
 */
function choiceFor(group: string, codes: readonly string[], adult = false) {
  const ofGroup = vaccineChoices.filter(
    (choice) => choice.group === group && (choice.adult ?? false) === adult,
  );
  const anyAge = vaccineChoices.filter((choice) => choice.group === group);
  const byCode = (choices: typeof anyAge) =>
    choices.find((choice) => (choice.codes ?? [choice.cvx]).some((c) => codes.includes(c)));
  return byCode(ofGroup) ?? ofGroup[0] ?? byCode(anyAge) ?? anyAge[0];
}

const groupName = (group: string, codes: readonly string[], adult: boolean) =>
  choiceFor(group, codes, adult)?.name ?? group;

function statusOn(today: Day, due: Day, pastDue: Day | undefined): DoseStatus {
  if (pastDue !== undefined && today >= pastDue) return key('Overdue');
  return today >= due ? key('Due') : key('Upcoming');
}

/**
 * The CVX codes a forecast dose could be given with, most fitting first: the vaccine the plan
 * names, when it is one the target dose prefers (Tdap, not Td, at 11); then the target's
 * preferable and allowable vaccines for that age; then any other vaccine of the group's
 * series for that age (the forecast of a series a person is not on yet, such as the infants'
 * COVID-19 series for an adult with none recorded, names vaccines they cannot have).
 */
function codesToGive(
  data: SupportingData,
  target: SeriesDose,
  group: string,
  patient: Patient,
  day: Day,
  adult: boolean,
): string[] {
  const fitsAge = (row: VaccineRow) => vaccineFitsAge(row, patient, day);
  const preferable = target.preferableVaccine.map((row) => row.cvx);
  const named = choiceFor(group, preferable, adult)?.cvx;
  const antigens = data.schedule.vaccineGroups.find((g) => g.name === group)?.antigens ?? [];
  const others = antigens.flatMap((antigen) =>
    (data.antigens.antigens[antigen] ?? []).flatMap((series) =>
      series.seriesDose.flatMap((dose) => dose.preferableVaccine),
    ),
  );
  return [
    ...new Set([
      ...(named && preferable.includes(named) ? [named] : []),
      ...target.preferableVaccine.filter(fitsAge).map((row) => row.cvx),
      ...(target.allowableVaccine ?? []).filter(fitsAge).map((row) => row.cvx),
      ...others.filter(fitsAge).map((row) => row.cvx),
    ]),
  ];
}

/** The id a dose the plan imagines given carries, to find how CDSi counted it. */
const PLANNED = 'planned';

/** Whether CDSi counted the imagined dose of `day` in one of the group's series. */
const countsPlanned = (result: GroupResult, day: Day) =>
  Object.values(result.antigens).some((antigen) =>
    antigen.prioritized.some((series) =>
      series.evaluated.some(
        (entry) => entry.dose.id === PLANNED && entry.dose.date === day && entry.status === 'Valid',
      ),
    ),
  );

/** The doses that counted, in any series group's prioritized series. */
function validDoses(result: GroupResult): AdministeredDose[] {
  const seen = new Map<string | undefined, AdministeredDose>();
  for (const antigen of Object.values(result.antigens)) {
    for (const series of antigen.prioritized) {
      for (const entry of series.evaluated) {
        if (entry.status === 'Valid') seen.set(entry.dose.id, entry.dose);
      }
    }
  }
  return [...seen.values()].sort((a, b) => a.date - b.date);
}

export interface PlanPerson {
  birthDate: string;
  sex: 'female' | 'male' | null;
}

const patientOf = (person: PlanPerson): Patient => ({
  birthDate: toDay(person.birthDate),
  ...(person.sex ? { gender: person.sex === 'female' ? 'Female' : 'Male' } : {}),
});

/** A vaccine group the person has CDSi's evidence of immunity to, by their date of birth. */
export interface ImmuneGroup {
  vaccine: string;
  /** Born before this date (`YYYY-MM-DD`). */
  bornBefore: string;
  /** Whom the rule does not cover (health care personnel, pregnancy, …), as the CDC says. */
  exclusions: string[];
}

/** The vaccine groups of which every antigen is covered by the date-of-birth rule. */
export function immuneGroups(data: SupportingData, person: PlanPerson): ImmuneGroup[] {
  const patient = patientOf(person);
  return data.schedule.vaccineGroups.flatMap(({ name, antigens }) => {
    const rules = antigens.map((antigen) => data.antigens.immunity?.[antigen]);
    if (!antigens.every((antigen) => immuneByBirth(data, antigen, patient))) return [];
    const bornBefore = rules.map((rule) => rule!.bornBefore).sort()[0]!;
    const exclusions = [...new Set(rules.flatMap((rule) => rule!.exclusions))];
    return [{ vaccine: groupName(name, [], false), bornBefore, exclusions }];
  });
}

export function vaccinePlan(
  published: SupportingData,
  person: PlanPerson,
  shots: readonly PlanShot[],
  todayDate: string,
): PlannedDose[] {
  const today = toDay(todayDate);
  // This season's influenza, COVID-19 and RSV, when the data speaks of an earlier one.
  const data = dataForSeasonOf(published, today);
  const birthDate = toDay(person.birthDate);
  const patient = patientOf(person);
  const adulthood = addDuration(birthDate, CHILDHOOD_ENDS_AT_AGE);
  const adult = today >= adulthood;
  // An adult's dates start at their 19th birthday; a child's are CDSi's own.
  const from = adult ? adulthood : -Infinity;
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
  const end = Math.max(adulthood, addDuration(today, PLAN_LOOKS_AHEAD));
  const plan: PlannedDose[] = [];
  for (const { name: group } of data.schedule.vaccineGroups) {
    const first = evaluateVaccineGroup(data, group, patient, doses, today);
    if (!first) continue;
    const entries: Omit<PlannedDose, 'dose' | 'of'>[] = validDoses(first).map((dose) => ({
      vaccine: groupName(group, [dose.cvx], dose.date >= adulthood),
      earliest: fromDay(dose.date),
      due: fromDay(dose.date),
      status: key('Done'),
      given: fromDay(dose.date),
      ...(dose.id ? { shotId: dose.id } : {}),
      ...(dose.id && matched.has(dose.id) ? { matchedByName: true } : {}),
      cvx: dose.cvx,
    }));
    // The series a person is on today (one with a dose that counted), kept while looking
    // ahead; where nothing counted yet, CDSi chooses again once the first dose is given (an
    // adult's first COVID-19 dose puts them on the adults' series, not the infants').
    const seriesOf: Record<string, Series[]> = Object.fromEntries(
      Object.entries(first.antigens).map(([antigen, result]) => [
        antigen,
        result.prioritized.filter((best) => best.validCount > 0).map((best) => best.series),
      ]),
    );
    let result = first;
    let simulated = doses;
    // A target dose is planned once: a recurring one (the yearly flu dose), or one a seasonal
    // rule would ask for again and again (COVID-19's dose 2 at 65, each season the data knows).
    const planned = new Set<SeriesDose>();
    for (let step = 0; step < MAX_PLANNED_PER_GROUP; step += 1) {
      const forecast = result.status === 'Not complete' ? result.forecast : undefined;
      if (!forecast || planned.has(forecast.target)) break;
      const due = Math.max(forecast.recommended, from);
      if (due >= end) break;
      planned.add(forecast.target);
      const pastDue =
        forecast.pastDue !== undefined && forecast.pastDue >= from ? forecast.pastDue : undefined;
      const preferable = forecast.target.preferableVaccine.map((row) => row.cvx);
      const givenOn = Math.max(due, today);
      const grownUp = givenOn >= adulthood;
      const codes = codesToGive(data, forecast.target, group, patient, givenOn, grownUp);
      const shown = codes[0] ?? choiceFor(group, [], grownUp)?.cvx ?? '';
      entries.push({
        vaccine: groupName(group, preferable.length ? preferable : [shown], grownUp),
        earliest: fromDay(Math.max(forecast.earliest, from)),
        due: fromDay(due),
        status: statusOn(today, due, pastDue),
        cvx: choiceFor(group, [shown], grownUp)?.cvx ?? shown,
      });
      // The dose after: give this one with the first vaccine CDSi counts, and ask again. When
      // none would count, CDSi cannot say what follows, and the plan stops here.
      let next: GroupResult | undefined;
      for (const cvx of codes) {
        const trial = [...simulated, { id: PLANNED, date: givenOn, cvx }];
        const evaluated = evaluateVaccineGroup(data, group, patient, trial, givenOn + 1, seriesOf);
        if (evaluated && countsPlanned(evaluated, givenOn)) {
          next = evaluated;
          simulated = trial;
          break;
        }
      }
      if (!next) break;
      result = next;
    }
    entries.forEach((entry, i) => plan.push({ ...entry, dose: i + 1, of: entries.length }));
  }
  return plan.sort((a, b) => a.due.localeCompare(b.due) || a.vaccine.localeCompare(b.vaccine));
}
