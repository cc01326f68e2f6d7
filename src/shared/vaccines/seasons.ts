/**
 * The season a seasonal vaccine's data speaks of, moved on to today's. The CDC publishes CDSi
 * supporting data for one season of influenza, COVID-19 and infants' RSV antibody at a time
 * (v4.64: influenza from 2025-07-01 to 2026-06-30, COVID-19 from 2025-08-27, RSV from
 * 2025-10-01 to 2026-03-31); read a year on, a flu shot of this autumn would count for no
 * season and one of last autumn for the current one. Until the next release, each seasonal
 * antigen's season is taken to recur a whole number of years on, with the same rules: its
 * seasonal recommendation and the dates of its skip conditions from the season's start on
 * move together; dates before it (a rule's effective date, an older season) stay.
 */
import { addDuration, type Day, fromDay, toDay } from './cdsi-dates';
import type { Series, SupportingData } from './cdsi-data';

/** The first day of an antigen's season in the data, when it is seasonal. */
function seasonStart(series: readonly Series[]): string | undefined {
  const starts = series.flatMap((entry) =>
    entry.seriesDose.flatMap((dose) => dose.seasonalRecommendation?.startDate ?? []),
  );
  return starts.sort()[0];
}

/** The antigen's series with every season date from `start` on moved `years` on. */
function movedOn(series: readonly Series[], start: string, years: number): Series[] {
  const move = (date: string | undefined) =>
    date !== undefined && date >= start
      ? fromDay(addDuration(toDay(date), `${years} years`))
      : date;
  const copy = structuredClone(series) as Series[];
  for (const entry of copy) {
    for (const dose of entry.seriesDose) {
      const season = dose.seasonalRecommendation;
      if (season) {
        season.startDate = move(season.startDate);
        season.endDate = move(season.endDate);
      }
      for (const skip of dose.conditionalSkip ?? []) {
        for (const set of skip.set) {
          for (const condition of set.condition) {
            condition.startDate = move(condition.startDate);
            condition.endDate = move(condition.endDate);
          }
        }
      }
    }
  }
  return copy;
}

const moved = new WeakMap<SupportingData, Map<string, SupportingData>>();

/**
 * The supporting data with each seasonal antigen's season moved on to the one `today` falls
 * in (the same object when none needs to move, and one object per season after that).
 */
export function dataForSeasonOf(data: SupportingData, today: Day): SupportingData {
  const shifts = Object.entries(data.antigens.antigens).flatMap(([antigen, series]) => {
    const start = seasonStart(series);
    if (!start) return [];
    let years = 0;
    while (addDuration(toDay(start), `${years + 1} years`) <= today) years += 1;
    return years > 0 ? [{ antigen, start, years }] : [];
  });
  if (shifts.length === 0) return data;
  const key = shifts.map(({ antigen, years }) => `${antigen}:${years}`).join(',');
  let byKey = moved.get(data);
  if (!byKey) {
    byKey = new Map();
    moved.set(data, byKey);
  }
  let found = byKey.get(key);
  if (!found) {
    const antigens = { ...data.antigens.antigens };
    for (const { antigen, start, years } of shifts) {
      antigens[antigen] = movedOn(antigens[antigen]!, start, years);
    }
    found = { ...data, antigens: { ...data.antigens, antigens } };
    byKey.set(key, found);
  }
  return found;
}
