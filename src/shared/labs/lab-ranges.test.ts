import { describe, expect, it } from 'vitest';
import { isAdult, isSameTest, lastRange, suggestedRange, typicalRange } from './lab-ranges';
import { labTests } from './lab-tests';

const today = '2026-05-10';
const holder = { dateOfBirth: null, sex: null, holder: true };
const woman = { dateOfBirth: '1990-01-01', sex: 'female' as const, holder: false };
const man = { dateOfBirth: '1990-01-01', sex: 'male' as const, holder: false };
const child = { dateOfBirth: '2020-01-01', sex: 'female' as const, holder: false };
const hemoglobin = { name: 'Hemoglobin', loinc: '718-7' };

const result = (overrides: Partial<Parameters<typeof lastRange>[0][number]> = {}) => ({
  test_name: 'Hemoglobin',
  loinc_code: '718-7',
  unit: 'g/dL',
  range_low: '11.5',
  range_high: '15.5',
  collected_date: '2026-01-05',
  ...overrides,
});

describe('lastRange', () => {
  it('is the range of the newest result of the same test, in the same unit', () => {
    const history = [
      result({ collected_date: '2025-06-01', range_low: '11', range_high: '15' }),
      result(),
      result({ collected_date: '2026-03-01', unit: 'g/L', range_low: '115', range_high: '155' }),
      result({ collected_date: '2026-04-01', test_name: 'Ferritin', loinc_code: '2276-4' }),
      result({ collected_date: '2026-04-02', range_low: null, range_high: null }),
    ];
    expect(lastRange(history, hemoglobin, 'g/dL')).toMatchObject({ low: '11.5', high: '15.5' });
    expect(lastRange(history, hemoglobin, 'G/DL ')).toMatchObject({ low: '11.5' });
    expect(lastRange(history, hemoglobin, 'g/L')).toMatchObject({ low: '115', high: '155' });
    expect(lastRange(history, hemoglobin, 'mmol/L')).toBeNull();
    expect(lastRange(history, hemoglobin, 'g/dL')?.note).toBe(
      'The range of the last Hemoglobin result (Jan 5, 2026).',
    );
  });

  it('matches a test of the user’s own by its name, ignoring case', () => {
    const own = { name: 'vitamin b12', loinc: '' };
    const history = [
      result({ test_name: 'Vitamin B12', loinc_code: null, unit: 'pg/mL', range_low: '200' }),
    ];
    expect(lastRange(history, own, 'pg/mL')).toMatchObject({ low: '200', high: '15.5' });
  });
});

describe('isSameTest', () => {
  it.each([
    ['same code', { test_name: 'Hgb', loinc_code: '718-7' }, true],
    ['no code, same name', { test_name: 'HEMOGLOBIN', loinc_code: null }, true],
    ['another code, same name', { test_name: 'Hemoglobin', loinc_code: '999-9' }, false],
    ['no code, another name', { test_name: 'Hgb', loinc_code: null }, false],
  ])('%s: %s', (_name, candidate, expected) => {
    expect(isSameTest(candidate, hemoglobin)).toBe(expected);
  });
});

describe('typicalRange', () => {
  it('is the shipped range in the test’s usual unit, by sex where it depends on it', () => {
    expect(typicalRange(hemoglobin, 'g/dL', woman, today)).toMatchObject({ low: '12', high: '16' });
    expect(typicalRange(hemoglobin, 'g/dL', man, today)).toMatchObject({ low: '14', high: '17' });
    expect(typicalRange({ name: 'wbc', loinc: '' }, '10*3/uL', holder, today)).toMatchObject({
      low: '4.5',
      high: '11',
    });
  });

  it('names its source', () => {
    expect(typicalRange(hemoglobin, 'g/dL', woman, today)?.note).toContain(
      'Merck Manual, Consumer Version',
    );
  });

  it('is none for a child, an unknown sex where it matters, another unit, or no range known', () => {
    expect(typicalRange(hemoglobin, 'g/dL', child, today)).toBeNull();
    expect(typicalRange(hemoglobin, 'g/dL', holder, today)).toBeNull();
    expect(typicalRange(hemoglobin, 'g/L', woman, today)).toBeNull();
    expect(
      typicalRange({ name: 'LDL Cholesterol', loinc: '18262-6' }, 'mg/dL', woman, today),
    ).toBeNull();
    expect(typicalRange({ name: 'Made up', loinc: '' }, '', woman, today)).toBeNull();
  });
});

describe('suggestedRange', () => {
  it('prefers the person’s own last range to the typical one', () => {
    expect(suggestedRange([result()], hemoglobin, 'g/dL', woman, today)).toMatchObject({
      low: '11.5',
    });
    expect(suggestedRange([], hemoglobin, 'g/dL', woman, today)).toMatchObject({ low: '12' });
    expect(suggestedRange([result()], { name: '', loinc: '' }, 'g/dL', woman, today)).toBeNull();
  });
});

describe('isAdult', () => {
  it('counts 18 years to the day; the account holder is one', () => {
    expect(isAdult({ ...child, dateOfBirth: '2008-05-10' }, today)).toBe(true);
    expect(isAdult({ ...child, dateOfBirth: '2008-05-11' }, today)).toBe(false);
    expect(isAdult({ dateOfBirth: null, sex: null, holder: false }, today)).toBe(false);
    expect(isAdult(holder, today)).toBe(true);
  });
});

describe('the shipped typical ranges', () => {
  it('have a low bound no higher than the high one, as numbers', () => {
    for (const test of labTests) {
      if (!test.range) continue;
      const bounds = 'low' in test.range ? [test.range] : [test.range.female, test.range.male];
      for (const { low, high } of bounds) {
        expect(low === '' || Number.isFinite(Number(low)), test.name).toBe(true);
        expect(Number.isFinite(Number(high)), test.name).toBe(true);
        if (low !== '') expect(Number(low)).toBeLessThan(Number(high));
      }
    }
  });
});
