/**
 * The range a lab result form suggests for a test: the one the person's last result of the
 * same test carried (same LOINC code, or else the same name ignoring case, as the trend
 * matches them; docs/decisions/0031), else the test's typical adult range from the shipped
 * list. A range is suggested only in the unit the form holds, so that its numbers never sit
 * beside another unit's; a typical range only for an adult, and only for a known sex where the
 * range depends on it.
 */
import { tr } from '../i18n/translate';
import type { Sex } from '../family-members';
import { DAY_GROUP_FORMAT, formatDate } from '../dates';
import { labTestNamed, labTestOfCode, rangeSources, type RangeBounds } from './lab-tests';

/** What a past result tells about its range. */
export interface PastRange {
  test_name: string;
  loinc_code: string | null;
  unit: string | null;
  range_low: string | null;
  range_high: string | null;
  collected_date: string;
}

/** The person a result is for, as far as a typical range goes. */
export interface RangePerson {
  /** `YYYY-MM-DD`; null when not known. */
  dateOfBirth: string | null;
  sex: Sex | null;
  /** The account holder: an adult, whose date of birth the product does not ask. */
  holder: boolean;
}

export interface RangeSuggestion extends RangeBounds {
  /** Where it comes from, in words the form shows under the range. */
  note: string;
}

export const ADULT_AGE_YEARS = 18;

const sameUnit = (a: string | null, b: string) =>
  (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/** Whether a past result is of the test chosen (the trend's rule). */
export function isSameTest(
  result: Pick<PastRange, 'test_name' | 'loinc_code'>,
  test: { name: string; loinc: string },
): boolean {
  const name = test.name.trim().toLowerCase();
  const sameName = result.test_name.trim().toLowerCase() === name;
  if (!test.loinc) return sameName;
  return result.loinc_code === test.loinc || (!result.loinc_code && sameName);
}

/** Whether a person is an adult on a day: the account holder, or 18 by their date of birth. */
export function isAdult(person: RangePerson, today: string): boolean {
  if (person.holder) return true;
  if (!person.dateOfBirth) return false;
  const [year, month, day] = today.split('-');
  return person.dateOfBirth <= `${Number(year) - ADULT_AGE_YEARS}-${month}-${day}`;
}

/** The range of the person's newest result of the test with a range, in the unit given. */
export function lastRange(
  history: readonly PastRange[],
  test: { name: string; loinc: string },
  unit: string,
): RangeSuggestion | null {
  const last = [...history]
    .filter(
      (result) =>
        isSameTest(result, test) &&
        sameUnit(result.unit, unit) &&
        Boolean(result.range_low || result.range_high),
    )
    .sort((a, b) => b.collected_date.localeCompare(a.collected_date))[0];
  if (!last) return null;
  return {
    low: last.range_low ?? '',
    high: last.range_high ?? '',
    note: tr('The range of the last {test} result ({date}).', {
      test: last.test_name,
      date: formatDate(last.collected_date, DAY_GROUP_FORMAT),
    }),
  };
}

/** The shipped typical adult range of a test, for the person, in its usual unit only. */
export function typicalRange(
  test: { name: string; loinc: string },
  unit: string,
  person: RangePerson,
  today: string,
): RangeSuggestion | null {
  const known = (test.loinc ? labTestOfCode(test.loinc) : undefined) ?? labTestNamed(test.name);
  const range = known?.range;
  if (!known || !range || !sameUnit(known.unit, unit) || !isAdult(person, today)) return null;
  const bounds = 'low' in range ? range : person.sex ? range[person.sex] : null;
  if (!bounds) return null;
  const source = rangeSources[range.source]?.name ?? range.source;
  return {
    ...bounds,
    note: tr('A typical adult range ({source}). The range on your report is the one that counts.', {
      source,
    }),
  };
}

/** The range the form suggests: the person's last one for the test, else the typical one. */
export function suggestedRange(
  history: readonly PastRange[],
  test: { name: string; loinc: string },
  unit: string,
  person: RangePerson,
  today: string,
): RangeSuggestion | null {
  if (!test.name.trim()) return null;
  return lastRange(history, test, unit) ?? typicalRange(test, unit, person, today);
}
