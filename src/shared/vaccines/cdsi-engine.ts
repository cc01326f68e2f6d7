/**
 * The CDC's CDSi logic (Logic Specification for ACIP Recommendations, v4.x): evaluates a
 * person's administered doses against each patient series of an antigen, forecasts the next
 * target dose, picks the best patient series and combines antigens into vaccine groups.
 * Every age, interval, code and date comes from the supporting data; this module only holds
 * the procedure. Pure: no I/O, no clock (the assessment date is an argument).
 */
import { addDuration, type Day, toDay } from './cdsi-dates';
import type {
  AgeRow,
  ConditionalSkip,
  IntervalRow,
  Series,
  SeriesDose,
  SkipCondition,
  SupportingData,
  VaccineRow,
} from './cdsi-data';

export interface Patient {
  birthDate: Day;
  /** CDSi's gender: 'Female', 'Male' or undefined when not recorded. */
  gender?: 'Female' | 'Male';
}

export interface AdministeredDose {
  date: Day;
  cvx: string;
  /** The caller's id for the dose (a shot's id), passed through to the result. */
  id?: string;
}

type Reason = 'age' | 'interval' | 'inadvertent' | 'live virus' | 'vaccine';

export interface EvaluatedDose {
  dose: AdministeredDose;
  status: 'Valid' | 'Not Valid' | 'Extraneous';
  reason?: Reason;
  /** Index of the target dose it satisfied (Valid) or was evaluated against. */
  target?: number;
}

export type SeriesStatus = 'Not complete' | 'Complete' | 'Aged out';

export interface Forecast {
  /** Index of the target dose forecast in the series. */
  target: number;
  earliest: Day;
  recommended: Day;
  pastDue?: Day;
  latest?: Day;
}

export interface SeriesResult {
  series: Series;
  evaluated: EvaluatedDose[];
  /** Per target dose: the dose that satisfied it, 'skipped', or undefined (not yet). */
  satisfied: (EvaluatedDose | 'skipped' | undefined)[];
  validCount: number;
  status: SeriesStatus;
  forecast?: Forecast;
}

export interface GroupResult {
  vaccineGroup: string;
  status: SeriesStatus | 'Immune';
  forecast?: {
    earliest: Day;
    recommended: Day;
    pastDue?: Day;
    /** The target dose forecast (of the antigen that sets the earliest date). */
    target: SeriesDose;
  };
  /** Each antigen's result: its series groups' prioritized and best series. */
  antigens: Record<string, AntigenResult>;
}

const within = (day: Day, row: { effectiveDate?: string; cessationDate?: string }): boolean =>
  (!row.effectiveDate || day >= toDay(row.effectiveDate)) &&
  (!row.cessationDate || day <= toDay(row.cessationDate));

// A person's age dates are asked for again and again while their doses are evaluated.
const ageDates = new WeakMap<Patient, Map<string, Day>>();

function ageDate(patient: Patient, age: string | undefined): Day | undefined {
  if (age === undefined) return undefined;
  let dates = ageDates.get(patient);
  if (!dates) {
    dates = new Map();
    ageDates.set(patient, dates);
  }
  let day = dates.get(age);
  if (day === undefined) {
    day = addDuration(patient.birthDate, age);
    dates.set(age, day);
  }
  return day;
}

function ageRowOn(dose: SeriesDose, day: Day): AgeRow {
  return dose.age.find((row) => within(day, row)) ?? {};
}

/** Whether a vaccine of the data may be given to the person on a day, by its ages. */
export function vaccineFitsAge(row: VaccineRow, patient: Patient, day: Day): boolean {
  return (
    (row.beginAge === undefined || day >= ageDate(patient, row.beginAge)!) &&
    (row.endAge === undefined || day < ageDate(patient, row.endAge)!)
  );
}

function vaccineMatches(rows: VaccineRow[] | undefined, cvx: string, patient: Patient, day: Day) {
  return (rows ?? []).some((row) => row.cvx === cvx && vaccineFitsAge(row, patient, day));
}

const codeLists = new Map<string, string[]>();

/** A ';'-separated list of CVX codes from the data, split once. */
function codeList(list: string): string[] {
  let codes = codeLists.get(list);
  if (!codes) {
    codes = list.split(';').map((code) => code.trim());
    codeLists.set(list, codes);
  }
  return codes;
}

/** Everything one series' evaluation needs besides the series itself. */
interface Context {
  data: SupportingData;
  patient: Patient;
  /** This antigen's doses, oldest first. */
  doses: AdministeredDose[];
  /** Every dose the person had (for live virus conflicts), oldest first. */
  allDoses: AdministeredDose[];
  /** The same doses by CVX code: a live virus conflict looks for one earlier vaccine only. */
  allDosesByCode: ReadonlyMap<string, AdministeredDose[]>;
  assessment: Day;
}

/** The date an interval counts from, or undefined when its reference dose does not exist. */
function intervalReference(
  interval: IntervalRow,
  previous: EvaluatedDose | undefined,
  state: { evaluated: EvaluatedDose[]; satisfied: SeriesResult['satisfied'] },
): Day | undefined {
  if (interval.fromPrevious === 'Y') return previous?.dose.date;
  if (interval.fromTargetDose) {
    const target = state.satisfied[Number(interval.fromTargetDose) - 1];
    return typeof target === 'object' ? target.dose.date : undefined;
  }
  if (interval.fromMostRecent) {
    const codes = codeList(interval.fromMostRecent);
    const recent = state.evaluated.findLast((entry) => codes.includes(entry.dose.cvx));
    return recent?.dose.date;
  }
  return undefined;
}

/** The previous dose an interval or grace period looks at: inadvertent doses do not count. */
function previousDose(evaluated: EvaluatedDose[]): EvaluatedDose | undefined {
  return evaluated.findLast((entry) => entry.reason !== 'inadvertent');
}

function compareCount(count: number, logic: string | undefined, expected: number): boolean {
  const normalised = (logic ?? '').toLowerCase();
  if (normalised === 'greater than') return count > expected;
  if (normalised === 'less than') return count < expected;
  return count === expected;
}

function conditionMet(
  condition: SkipCondition,
  reference: Day,
  ctx: Context,
  evaluated: EvaluatedDose[],
): boolean {
  const type = condition.conditionType.toLowerCase();
  const { patient } = ctx;
  if (type === 'age') {
    return (
      reference >= (ageDate(patient, condition.beginAge) ?? -Infinity) &&
      reference < (ageDate(patient, condition.endAge) ?? Infinity)
    );
  }
  if (type === 'interval') {
    const previous = previousDose(evaluated);
    return (
      previous !== undefined &&
      condition.interval !== undefined &&
      reference >= addDuration(previous.dose.date, condition.interval)
    );
  }
  if (type.startsWith('vaccine count')) {
    const byAge = type.includes('age');
    const byDate = type.includes('date');
    const codes = condition.vaccineTypes ? codeList(condition.vaccineTypes) : undefined;
    const begin = byAge ? (ageDate(patient, condition.beginAge) ?? -Infinity) : -Infinity;
    const end = byAge ? (ageDate(patient, condition.endAge) ?? Infinity) : Infinity;
    const start = byDate && condition.startDate ? toDay(condition.startDate) : -Infinity;
    const stop = byDate && condition.endDate ? toDay(condition.endDate) : Infinity;
    const count = evaluated.filter(
      ({ dose, status }) =>
        (condition.doseType !== 'Valid' || status === 'Valid') &&
        (!codes || codes.includes(dose.cvx)) &&
        dose.date >= begin &&
        dose.date < end &&
        dose.date >= start &&
        dose.date <= stop,
    ).length;
    return compareCount(count, condition.doseCountLogic, Number(condition.doseCount ?? 0));
  }
  // 'Completed Series' and observation-based conditions need data this product does not keep.
  return false;
}

function canSkip(
  skips: ConditionalSkip[] | undefined,
  context: 'Evaluation' | 'Forecast',
  reference: Day,
  ctx: Context,
  evaluated: EvaluatedDose[],
): boolean {
  return (skips ?? []).some((skip) => {
    if (skip.context !== 'Both' && skip.context !== context) return false;
    const results = skip.set
      .filter((set) => within(reference, set))
      .map((set) =>
        set.conditionLogic.toUpperCase() === 'OR'
          ? set.condition.some((c) => conditionMet(c, reference, ctx, evaluated))
          : set.condition.every((c) => conditionMet(c, reference, ctx, evaluated)),
      );
    if (results.length === 0) return false;
    return skip.setLogic.toUpperCase() === 'AND' ? results.every(Boolean) : results.some(Boolean);
  });
}

type Conflict = SupportingData['schedule']['liveVirusConflicts'][number];
const conflictIndex = new WeakMap<SupportingData, Map<string, Conflict[]>>();

/** The live virus conflicts keyed by the later vaccine's CVX, built once per schedule. */
function conflictsByCurrent(data: SupportingData): Map<string, Conflict[]> {
  let index = conflictIndex.get(data);
  if (!index) {
    index = new Map();
    for (const conflict of data.schedule.liveVirusConflicts) {
      index.set(conflict.current, [...(index.get(conflict.current) ?? []), conflict]);
    }
    conflictIndex.set(data, index);
  }
  return index;
}

/** Doses by CVX code, each list in the order given. */
function byCode(doses: readonly AdministeredDose[]): Map<string, AdministeredDose[]> {
  const index = new Map<string, AdministeredDose[]>();
  for (const dose of doses) {
    const same = index.get(dose.cvx);
    if (same) same.push(dose);
    else index.set(dose.cvx, [dose]);
  }
  return index;
}

/** The live virus conflict windows that earlier doses open for a vaccine of these CVX codes. */
function liveVirusConflicts(
  cvxCodes: string[],
  before: Day,
  ctx: Context,
  isInvalid: (dose: AdministeredDose) => boolean,
  forForecast: boolean,
): { begin: Day; end: Day }[] {
  const windows: { begin: Day; end: Day }[] = [];
  const byCurrent = conflictsByCurrent(ctx.data);
  for (const conflict of cvxCodes.flatMap((code) => byCurrent.get(code) ?? [])) {
    for (const earlier of ctx.allDosesByCode.get(conflict.previous) ?? []) {
      if (earlier.date >= before) continue;
      const endInterval =
        forForecast || isInvalid(earlier)
          ? conflict.conflictEndInterval
          : conflict.minConflictEndInterval;
      windows.push({
        begin: addDuration(earlier.date, conflict.conflictBeginInterval),
        end: addDuration(earlier.date, endInterval),
      });
    }
  }
  return windows;
}

function evaluateDose(
  target: SeriesDose,
  targetIndex: number,
  dose: AdministeredDose,
  ctx: Context,
  state: { evaluated: EvaluatedDose[]; satisfied: SeriesResult['satisfied'] },
): EvaluatedDose {
  const notValid = (reason: Reason): EvaluatedDose => ({
    dose,
    status: 'Not Valid',
    reason,
    target: targetIndex,
  });
  if (target.inadvertentVaccine?.includes(dose.cvx)) return notValid('inadvertent');
  const { patient } = ctx;
  const previous = previousDose(state.evaluated);
  const previousFailedTiming =
    previous?.status === 'Not Valid' &&
    (previous.reason === 'age' || previous.reason === 'interval');

  const age = ageRowOn(target, dose.date);
  const absMinAge = ageDate(patient, age.absMinAge) ?? -Infinity;
  const maxAge = ageDate(patient, age.maxAge) ?? Infinity;
  if (dose.date < absMinAge) return notValid('age');
  // CDSi: a dose given at or after the target dose's maximum age is not needed.
  if (dose.date >= maxAge)
    return { dose, status: 'Extraneous', reason: 'age', target: targetIndex };

  const intervals = (target.interval ?? []).filter((row) => within(dose.date, row));
  const preferableIntervals = intervals.every((interval) => {
    const reference = intervalReference(interval, previous, state);
    if (reference === undefined) return true;
    const absMin = addDuration(reference, interval.absMinInt ?? '0 days');
    const min = addDuration(reference, interval.minInt ?? '0 days');
    return dose.date >= absMin && !(dose.date < min && previousFailedTiming);
  });
  if (!preferableIntervals) {
    const allowable = target.allowableInterval;
    const reference = allowable && intervalReference(allowable, previous, state);
    const allowed =
      allowable !== undefined &&
      reference !== undefined &&
      dose.date >= addDuration(reference, allowable.absMinInt ?? '0 days');
    if (!allowed) return notValid('interval');
  }

  if (conflictsByCurrent(ctx.data).has(dose.cvx)) {
    // Built only when an earlier live vaccine is found.
    let invalid: Set<AdministeredDose> | undefined;
    const isInvalid = (earlier: AdministeredDose) =>
      (invalid ??= new Set(
        state.evaluated.filter((entry) => entry.status === 'Not Valid').map((entry) => entry.dose),
      )).has(earlier);
    const conflicted = liveVirusConflicts([dose.cvx], dose.date, ctx, isInvalid, false).some(
      (window) => dose.date >= window.begin && dose.date < window.end,
    );
    if (conflicted) return notValid('live virus');
  }

  if (
    !vaccineMatches(target.preferableVaccine, dose.cvx, patient, dose.date) &&
    !vaccineMatches(target.allowableVaccine, dose.cvx, patient, dose.date)
  ) {
    return notValid('vaccine');
  }
  return { dose, status: 'Valid', target: targetIndex };
}

function forecastDose(
  target: SeriesDose,
  targetIndex: number,
  ctx: Context,
  state: { evaluated: EvaluatedDose[]; satisfied: SeriesResult['satisfied'] },
): Forecast {
  const { patient, assessment } = ctx;
  const age = ageRowOn(target, assessment);
  let earliest = ageDate(patient, age.minAge) ?? patient.birthDate;
  let recommended = ageDate(patient, age.earliestRecAge);
  const latestRecAge = ageDate(patient, age.latestRecAge);
  let pastDue = latestRecAge === undefined ? undefined : latestRecAge - 1;
  const previous = previousDose(state.evaluated);
  // CDSi: the recommended and past due dates come from the age when the dose has one, and
  // from the intervals otherwise; the earliest date always honours both.
  let fromIntervals: Day | undefined;
  let pastDueFromIntervals: Day | undefined;
  for (const interval of (target.interval ?? []).filter((row) => within(assessment, row))) {
    const reference = intervalReference(interval, previous, state);
    if (reference === undefined) continue;
    earliest = Math.max(earliest, addDuration(reference, interval.minInt ?? '0 days'));
    if (interval.earliestRecInt) {
      const date = addDuration(reference, interval.earliestRecInt);
      fromIntervals = Math.max(fromIntervals ?? -Infinity, date);
    }
    if (interval.latestRecInt) {
      const date = addDuration(reference, interval.latestRecInt) - 1;
      pastDueFromIntervals = Math.max(pastDueFromIntervals ?? -Infinity, date);
    }
  }
  recommended ??= fromIntervals;
  pastDue ??= pastDueFromIntervals;
  const forecastCodes = target.preferableVaccine.map((row) => row.cvx);
  for (const window of liveVirusConflicts(forecastCodes, Infinity, ctx, () => false, true)) {
    earliest = Math.max(earliest, window.end);
  }
  // Not before the last dose of the antigen, whatever its evaluation (an inadvertent dose too).
  const last = state.evaluated.at(-1);
  if (last) earliest = Math.max(earliest, last.dose.date);
  const seasonStart = target.seasonalRecommendation?.startDate;
  if (seasonStart) earliest = Math.max(earliest, toDay(seasonStart));
  const maxAge = ageDate(patient, age.maxAge);
  return {
    target: targetIndex,
    earliest,
    recommended: Math.max(recommended ?? earliest, earliest),
    ...(pastDue === undefined ? {} : { pastDue: Math.max(pastDue, earliest) }),
    ...(maxAge === undefined ? {} : { latest: maxAge - 1 }),
  };
}

/**
 * The first day from `from` to `until` on which a target dose's forecast skip applies, when
 * it applies by `until` and not on `from` (skips by age or interval only ever start to apply
 * as time passes, so the day is found by halving the range).
 */
function skipDayBefore(
  target: SeriesDose,
  from: Day,
  until: Day,
  ctx: Context,
  state: { evaluated: EvaluatedDose[] },
): Day | undefined {
  const skips = (day: Day) =>
    canSkip(target.conditionalSkip, 'Forecast', day, ctx, state.evaluated);
  if (until <= from || !target.conditionalSkip || !skips(until)) return undefined;
  let low = from;
  let high = until;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (skips(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/** Evaluates the antigen's doses against one patient series and forecasts its next dose. */
export function evaluateSeries(series: Series, ctx: Context): SeriesResult {
  const targets = series.seriesDose;
  const state = {
    evaluated: [] as EvaluatedDose[],
    satisfied: [] as SeriesResult['satisfied'],
  };
  let t = 0;
  let validCount = 0;
  for (const dose of ctx.doses) {
    while (
      t < targets.length &&
      state.satisfied[t] === undefined &&
      canSkip(targets[t]!.conditionalSkip, 'Evaluation', dose.date, ctx, state.evaluated)
    ) {
      state.satisfied[t] = 'skipped';
      t += 1;
    }
    if (t >= targets.length) {
      state.evaluated.push({ dose, status: 'Extraneous' });
      continue;
    }
    const target = targets[t]!;
    const result = evaluateDose(target, t, dose, ctx, state);
    state.evaluated.push(result);
    if (result.status === 'Valid') {
      validCount += 1;
      state.satisfied[t] = result;
      if (target.recurringDose !== 'Yes') t += 1;
    }
  }
  while (
    t < targets.length &&
    canSkip(targets[t]!.conditionalSkip, 'Forecast', ctx.assessment, ctx, state.evaluated)
  ) {
    state.satisfied[t] = 'skipped';
    t += 1;
  }
  const base = { series, evaluated: state.evaluated, satisfied: state.satisfied, validCount };
  if (t >= targets.length) return { ...base, status: 'Complete' };
  let forecast = forecastDose(targets[t]!, t, ctx, state);
  // A target the person will have outgrown by the day it could be given (a child turning 7
  // before the fourth DTaP's interval is over) is skipped from that day on: the dose due is
  // the next one's, from that day.
  const skippedFrom = skipDayBefore(targets[t]!, ctx.assessment, forecast.earliest, ctx, state);
  if (skippedFrom !== undefined) {
    let next = t + 1;
    while (
      next < targets.length &&
      canSkip(targets[next]!.conditionalSkip, 'Forecast', skippedFrom, ctx, state.evaluated)
    ) {
      next += 1;
    }
    if (next < targets.length) {
      for (let skipped = t; skipped < next; skipped += 1) state.satisfied[skipped] = 'skipped';
      t = next;
      const later = forecastDose(targets[t]!, t, ctx, state);
      const earliest = Math.max(later.earliest, skippedFrom);
      forecast = {
        ...later,
        earliest,
        recommended: Math.max(later.recommended, earliest),
        ...(later.pastDue === undefined ? {} : { pastDue: Math.max(later.pastDue, earliest) }),
      };
    }
  }
  const agedOut =
    forecast.latest !== undefined &&
    (ctx.assessment > forecast.latest || forecast.earliest > forecast.latest);
  if (agedOut) return { ...base, status: 'Aged out' };
  return { ...base, status: 'Not complete', forecast };
}

/**
 * How many more doses a series needs and when it could be complete, found the way CDSi
 * describes it: give each forecast dose on its earliest date and evaluate again.
 */
function projectCompletion(result: SeriesResult, ctx: Context): { remaining: number; finish: Day } {
  let current = result;
  let doses = ctx.doses;
  let remaining = 0;
  let day = ctx.assessment;
  while (current.status === 'Not complete' && current.forecast && remaining < 12) {
    const { forecast } = current;
    day = Math.max(forecast.earliest, day);
    const target = current.series.seriesDose[forecast.target]!;
    const vaccine =
      target.preferableVaccine.find((row) => vaccineFitsAge(row, ctx.patient, day)) ??
      target.preferableVaccine[0];
    if (!vaccine) break;
    remaining += 1;
    doses = [...doses, { date: day, cvx: vaccine.cvx }];
    current = evaluateSeries(current.series, { ...ctx, doses, assessment: day + 1 });
  }
  return {
    remaining: current.status === 'Complete' ? remaining : Infinity,
    finish: current.status === 'Complete' ? day : Infinity,
  };
}

const preference = (result: SeriesResult) =>
  Number(result.series.selectSeries.seriesPreference ?? 99);

/** CDSi chapter 8: one best patient series per antigen, by its scoring rules. */
function bestSeries(results: SeriesResult[], ctx: Context): SeriesResult {
  const byPreference = (a: SeriesResult, b: SeriesResult) => preference(a) - preference(b);
  if (results.length === 1) return results[0]!;
  const canStart = (r: SeriesResult, day: Day) => {
    const { minAgeToStart, maxAgeToStart } = r.series.selectSeries;
    return (
      day >= (ageDate(ctx.patient, minAgeToStart) ?? -Infinity) &&
      day < (ageDate(ctx.patient, maxAgeToStart) ?? Infinity)
    );
  };
  // CDSi's scorable series: those with a valid dose, the first given before the series'
  // maximum age to start (a series begun too late is not the one the person is on: the
  // childhood COVID-19 series for a 70-year-old); else all with a valid dose.
  const withValid = results.filter((r) => r.validCount > 0);
  const startedInWindow = withValid.filter((r) => {
    const first = r.evaluated.find((e) => e.status === 'Valid')!.dose.date;
    return first < (ageDate(ctx.patient, r.series.selectSeries.maxAgeToStart) ?? Infinity);
  });
  const inProcess = startedInWindow.length > 0 ? startedInWindow : withValid;
  const complete = inProcess.filter((r) => r.status === 'Complete');
  /**
   * CDSi's scoring: per criterion, the points of a series that is the only one to meet it,
   * of one of several that meet it, and of one that does not; the highest total wins, the
   * series preference breaks a tie. A number criterion is met by the series with the most.
   */
  const scored = (
    candidates: SeriesResult[],
    criteria: [(r: SeriesResult) => number | boolean, [number, number, number]][],
  ) => {
    const scores = new Map(candidates.map((r) => [r, 0]));
    for (const [rule, [only, shared, not]] of criteria) {
      const values = candidates.map(rule);
      const best = Math.max(...values.map(Number));
      const meets = values.map((value) => (typeof value === 'boolean' ? value : value === best));
      const count = meets.filter(Boolean).length;
      candidates.forEach((r, i) => {
        scores.set(r, scores.get(r)! + (meets[i] ? (count === 1 ? only : shared) : not));
      });
    }
    return [...candidates].sort(
      (a, b) => scores.get(b)! - scores.get(a)! || byPreference(a, b),
    )[0]!;
  };
  // A product series whose every dose evaluated was valid.
  const productAllValid = (r: SeriesResult) =>
    r.series.selectSeries.productPath === 'Yes' &&
    r.evaluated.every((e) => e.status !== 'Not Valid');
  const lastValid = (r: SeriesResult) =>
    r.evaluated.findLast((e) => e.status === 'Valid')?.dose.date ?? Infinity;
  if (complete.length > 0) {
    if (complete.length === 1) return complete[0]!;
    return scored(complete, [
      [(r) => r.validCount, [1, 0, -1]],
      [productAllValid, [1, 0, -1]],
      [(r) => -lastValid(r), [2, 1, -1]],
    ]);
  }
  if (inProcess.length > 0) {
    const candidates = inProcess;
    if (candidates.length === 1) return candidates[0]!;
    const projections = new Map(candidates.map((r) => [r, projectCompletion(r, ctx)]));
    const remaining = (r: SeriesResult) => projections.get(r)!.remaining;
    const finish = (r: SeriesResult) => projections.get(r)!.finish;
    return scored(candidates, [
      [productAllValid, [2, 0, -2]],
      [(r) => r.status !== 'Aged out' && remaining(r) !== Infinity, [3, 0, -3]],
      [(r) => r.validCount, [2, 0, -2]],
      [(r) => -remaining(r), [2, 0, -2]],
      [(r) => -finish(r), [1, 0, -1]],
    ]);
  }
  const defaultSeries = results.find((r) => r.series.selectSeries.defaultSeries === 'Yes');
  return (
    defaultSeries ??
    results.filter((r) => canStart(r, ctx.assessment)).sort(byPreference)[0] ??
    results.sort(byPreference)[0]!
  );
}

/** The doses that count for an antigen: CVX mapped to it, within the association's ages. */
function antigenDoses(
  data: SupportingData,
  antigen: string,
  patient: Patient,
  doses: AdministeredDose[],
) {
  return doses.filter((dose) =>
    (data.schedule.cvxToAntigen[dose.cvx] ?? []).some(
      (a) =>
        a.antigen === antigen &&
        dose.date >= (ageDate(patient, a.associationBeginAge) ?? -Infinity) &&
        dose.date < (ageDate(patient, a.associationEndAge) ?? Infinity),
    ),
  );
}

/**
 * One antigen's result: the prioritized patient series of each series group, the best of
 * them (CDSi 8.8: a complete or not complete series is best; one aged out is not), and the
 * antigen's status and forecast drawn from them.
 */
export interface AntigenResult {
  /** 'Immune': CDSi's evidence of immunity by date of birth (MMR before 1957). */
  status: SeriesStatus | 'Immune';
  /** The prioritized patient series of each series group, in the data's order. */
  prioritized: SeriesResult[];
  /** Those that are best patient series. */
  best: SeriesResult[];
  /** The next dose: the soonest forecast of the best series not complete. */
  forecast?: Forecast;
  /** The series that forecast comes from. */
  forecastFrom?: SeriesResult;
}

/** Whether CDSi's date-of-birth rule gives the person evidence of immunity to an antigen. */
export function immuneByBirth(data: SupportingData, antigen: string, patient: Patient): boolean {
  const rule = data.antigens.immunity?.[antigen];
  return rule !== undefined && patient.birthDate < toDay(rule.bornBefore);
}

/** The series of each series group, in the order the data lists them. */
function bySeriesGroup(series: readonly Series[]): Series[][] {
  const groups = new Map<string, Series[]>();
  for (const entry of series) {
    const key = entry.selectSeries.seriesGroup ?? '1';
    const same = groups.get(key);
    if (same) same.push(entry);
    else groups.set(key, [entry]);
  }
  return [...groups.values()];
}

/**
 * CDSi 8.8 and chapter 9 for one antigen: the best series of its series groups, combined. A
 * series that is aged out is not best; nor is one the person is still too young to start
 * and has had nothing of (a child and the 50+ series): it is not the one they are on.
 */
function combineSeriesGroups(prioritized: SeriesResult[], ctx: Context): AntigenResult {
  const tooYoungToStart = (r: SeriesResult) =>
    r.validCount === 0 &&
    ctx.assessment < (ageDate(ctx.patient, r.series.selectSeries.minAgeToStart) ?? -Infinity);
  const best = prioritized.filter((r) => r.status !== 'Aged out' && !tooYoungToStart(r));
  if (best.length === 0) return { status: 'Aged out', prioritized, best };
  const open = best.filter((r) => r.status === 'Not complete' && r.forecast);
  if (open.length === 0) return { status: 'Complete', prioritized, best };
  // The soonest of the series groups' forecasts: a child's series before the 50+ one.
  const forecastFrom = open.reduce((soonest, r) =>
    r.forecast!.earliest < soonest.forecast!.earliest ? r : soonest,
  );
  const dates = open.map((r) => r.forecast!);
  const pastDues = dates.flatMap((f) => (f.pastDue === undefined ? [] : [f.pastDue]));
  const forecast: Forecast = {
    ...forecastFrom.forecast!,
    recommended: Math.min(...dates.map((f) => f.recommended)),
    ...(pastDues.length ? { pastDue: Math.min(...pastDues) } : {}),
  };
  return { status: 'Not complete', prioritized, best, forecast, forecastFrom };
}

export function evaluateAntigen(
  data: SupportingData,
  antigen: string,
  patient: Patient,
  allDoses: AdministeredDose[],
  assessment: Day,
  /**
   * Keep each series group that has one of these to it (a plan looking ahead on the series a
   * person is on today); a series group with none of them is chosen from afresh.
   */
  only?: readonly Series[],
): AntigenResult | undefined {
  const all = data.antigens.antigens[antigen] ?? [];
  const kept = new Set(only?.map((series) => series.selectSeries.seriesGroup ?? '1'));
  const relevant = all
    .filter((series) => !kept.has(series.selectSeries.seriesGroup ?? '1') || only!.includes(series))
    .filter(
      (series) =>
        !series.requiredGender ||
        (patient.gender !== undefined && series.requiredGender.includes(patient.gender)) ||
        // Without a recorded sex, the series not tied to one applies; CDSi's 'Unknown'.
        (patient.gender === undefined && series.requiredGender.includes('Unknown')),
    );
  if (relevant.length === 0) return undefined;
  if (immuneByBirth(data, antigen, patient)) {
    return { status: 'Immune', prioritized: [], best: [] };
  }
  const ctx: Context = {
    data,
    patient,
    doses: antigenDoses(data, antigen, patient, allDoses),
    allDoses,
    allDosesByCode: byCode(allDoses),
    assessment,
  };
  const prioritized = bySeriesGroup(relevant).map((series) =>
    bestSeries(
      series.map((entry) => evaluateSeries(entry, ctx)),
      ctx,
    ),
  );
  return combineSeriesGroups(prioritized, ctx);
}

const groupCodes = new WeakMap<SupportingData, Map<string, ReadonlySet<string>>>();

/**
 * The CVX codes a vaccine group's evaluation can look at, found once per schedule: those
 * that count for one of its antigens, and the live vaccines whose conflicts can hold back a
 * dose. A person's other doses (their flu shots, for MMR) change nothing in it.
 */
function codesOfGroup(
  data: SupportingData,
  group: { name: string; antigens: string[] },
): ReadonlySet<string> {
  let byGroup = groupCodes.get(data);
  if (!byGroup) {
    byGroup = new Map();
    groupCodes.set(data, byGroup);
  }
  let codes = byGroup.get(group.name);
  if (!codes) {
    const found = new Set(data.schedule.liveVirusConflicts.map((conflict) => conflict.previous));
    for (const [cvx, associations] of Object.entries(data.schedule.cvxToAntigen)) {
      if (associations.some(({ antigen }) => group.antigens.includes(antigen))) found.add(cvx);
    }
    codes = found;
    byGroup.set(group.name, codes);
  }
  return codes;
}

/** CDSi chapter 9: a vaccine group's forecast from its antigens' best series. */
export function evaluateVaccineGroup(
  data: SupportingData,
  vaccineGroup: string,
  patient: Patient,
  doses: AdministeredDose[],
  assessment: Day,
  /** Keep each antigen to these series (a plan looking ahead on the series chosen today). */
  seriesOf?: Readonly<Record<string, readonly Series[]>>,
): GroupResult | undefined {
  const group = data.schedule.vaccineGroups.find((g) => g.name === vaccineGroup);
  if (!group) return undefined;
  const codes = codesOfGroup(data, group);
  const sorted = doses
    .filter((d) => d.date <= assessment && codes.has(d.cvx))
    .sort((a, b) => a.date - b.date);
  const antigens: Record<string, AntigenResult> = {};
  for (const antigen of group.antigens) {
    const result = evaluateAntigen(data, antigen, patient, sorted, assessment, seriesOf?.[antigen]);
    if (result) antigens[antigen] = result;
  }
  const results = Object.values(antigens);
  if (results.length === 0) return undefined;
  const open = results.filter((r) => r.status === 'Not complete' && r.forecast);
  if (open.length === 0) {
    const status = results.every((r) => r.status === 'Immune')
      ? 'Immune'
      : results.every((r) => r.status === 'Aged out')
        ? 'Aged out'
        : 'Complete';
    return { vaccineGroup, status, antigens };
  }
  const forecasts = open.map((r) => r.forecast!);
  const pastDues = forecasts.flatMap((f) => (f.pastDue === undefined ? [] : [f.pastDue]));
  // A group given as one vaccine (MMR) waits for its last antigen; one whose antigens can be
  // given apart (DTaP/Tdap/Td) is due when its first antigen is, and not before the last dose
  // of any of its vaccines (a Td given today: the Tdap it still needs is due from today).
  const full = group.administerFullVaccineGroup === 'Yes';
  const earliests = forecasts.map((f) => f.earliest);
  const soonest = full ? Math.max(...earliests) : Math.min(...earliests);
  const leading = open[earliests.indexOf(soonest)]!;
  const ofGroup = (dose: AdministeredDose) =>
    (data.schedule.cvxToAntigen[dose.cvx] ?? []).some(({ antigen }) =>
      group.antigens.includes(antigen),
    );
  const lastDose = sorted.findLast(ofGroup)?.date ?? -Infinity;
  const earliest = full ? soonest : Math.max(soonest, lastDose);
  return {
    vaccineGroup,
    status: 'Not complete',
    antigens,
    forecast: {
      earliest,
      recommended: Math.max(earliest, Math.min(...forecasts.map((f) => f.recommended))),
      ...(pastDues.length ? { pastDue: Math.max(earliest, Math.min(...pastDues)) } : {}),
      target: leading.forecastFrom!.series.seriesDose[leading.forecast!.target]!,
    },
  };
}
