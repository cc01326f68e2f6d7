/**
 * The growth reference tables (./reference, their sources in its README) and a small reader:
 * each table is an LMS series by age for each sex, loaded only when a chart needs it (the
 * browser fetches a table's file on the growth screen, never on the first screens).
 */
import type { Sex } from '../family-members';
import type { Lms } from './lms';

/** Days in a month, as the WHO and the CDC convert ages (365.25 / 12). */
export const DAYS_PER_MONTH = 30.4375;

/** A reference file as shipped: rows of [age, L, M, S] by sex, the age in its own unit. */
export interface ReferenceFile {
  source: string;
  table: string;
  ageUnit: 'day' | 'month';
  unit: string;
  columns: string[];
  rows: Record<Sex, number[][]>;
}

/** One sex's series, ages in months, ascending. */
export interface LmsSeries {
  ages: Float64Array;
  L: Float64Array;
  M: Float64Array;
  S: Float64Array;
}

export type LmsTable = Record<Sex, LmsSeries>;

const loaders = {
  'who-weight-for-age': () => import('./reference/who-weight-for-age.json'),
  'who-length-for-age': () => import('./reference/who-length-for-age.json'),
  'who-head-circumference-for-age': () => import('./reference/who-head-circumference-for-age.json'),
  'cdc-weight-for-age': () => import('./reference/cdc-weight-for-age.json'),
  'cdc-stature-for-age': () => import('./reference/cdc-stature-for-age.json'),
  'cdc-bmi-for-age': () => import('./reference/cdc-bmi-for-age.json'),
} satisfies Record<string, () => Promise<{ default: unknown }>>;

export type TableId = keyof typeof loaders;

function toSeries(rows: number[][], monthsPerUnit: number): LmsSeries {
  const series: LmsSeries = {
    ages: new Float64Array(rows.length),
    L: new Float64Array(rows.length),
    M: new Float64Array(rows.length),
    S: new Float64Array(rows.length),
  };
  rows.forEach((row, index) => {
    const [age, L, M, S] = row;
    if (age === undefined || L === undefined || M === undefined || S === undefined)
      throw new Error(`A growth reference row needs age, L, M and S: ${JSON.stringify(row)}`);
    series.ages[index] = age * monthsPerUnit;
    series.L[index] = L;
    series.M[index] = M;
    series.S[index] = S;
  });
  return series;
}

/** Reads a reference file into LMS series by sex, ages in months. */
export function readReferenceFile(file: ReferenceFile): LmsTable {
  const monthsPerUnit = file.ageUnit === 'day' ? 1 / DAYS_PER_MONTH : 1;
  return {
    female: toSeries(file.rows.female, monthsPerUnit),
    male: toSeries(file.rows.male, monthsPerUnit),
  };
}

const loaded = new Map<TableId, Promise<LmsTable>>();

/** A table, loaded once. */
export function loadTable(id: TableId): Promise<LmsTable> {
  let table = loaded.get(id);
  if (!table) {
    table = loaders[id]().then((module) => readReferenceFile(module.default as ReferenceFile));
    loaded.set(id, table);
  }
  return table;
}

/**
 * L, M and S at an age in months: the table's row at that age, or a straight line between the
 * rows either side of it (as the WHO's and the CDC's own programs interpolate); null outside
 * the table, which is never extrapolated.
 */
export function lmsAt(series: LmsSeries, ageMonths: number): Lms | null {
  const { ages } = series;
  const last = ages.length - 1;
  if (last < 0 || !(ageMonths >= ages[0]!) || !(ageMonths <= ages[last]!)) return null;
  let low = 0;
  let high = last;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (ages[middle]! <= ageMonths) low = middle;
    else high = middle;
  }
  const span = ages[high]! - ages[low]!;
  const t = span > 0 ? (ageMonths - ages[low]!) / span : 0;
  const at = (column: Float64Array) => column[low]! + (column[high]! - column[low]!) * t;
  return { L: at(series.L), M: at(series.M), S: at(series.S) };
}
