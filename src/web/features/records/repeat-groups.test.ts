import { describe, expect, it } from 'vitest';
import {
  countOf,
  groupKeys,
  groupValues,
  nextGroupKey,
  unsavedRest,
  type RepeatGroup,
} from './repeat-groups';

const shots: RepeatGroup = {
  fields: ['shot_name', 'vaccine_code'],
  addLabel: 'Add another shot',
  noun: 'shot',
  plural: 'shots',
};

describe('repeat groups', () => {
  const values = {
    shot_name: 'MMR',
    vaccine_code: '03',
    shot_name__3: 'Varicella',
    vaccine_code__3: '21',
    shot_name__1: '',
    vaccine_code__1: '',
    shot_name__x: 'not a group',
  };

  it('finds the extra groups by their first field, in the order added', () => {
    expect(groupKeys(values, shots)).toEqual([1, 3]);
    expect(groupKeys({ shot_name: 'MMR' }, shots)).toEqual([]);
  });

  it('reads a group under the fields’ own names', () => {
    expect(groupValues(values, shots, 3)).toEqual({ shot_name: 'Varicella', vaccine_code: '21' });
    expect(groupValues(values, shots, 7)).toEqual({ shot_name: '', vaccine_code: '' });
  });

  it('gives a new group a key of its own', () => {
    expect(nextGroupKey([])).toBe(1);
    expect(nextGroupKey([1, 3])).toBe(4);
  });

  it('counts in words', () => {
    expect(countOf(shots, 1)).toBe('1 shot');
    expect(countOf(shots, 2)).toBe('2 shots');
  });
});

describe('unsavedRest', () => {
  const values = {
    shot_name: 'MMR',
    vaccine_code: '03',
    shot_name__1: 'Varicella',
    vaccine_code__1: '21',
    shot_name__2: 'Hep A',
    vaccine_code__2: '83',
  };
  it('moves the first unsaved group into the form’s own fields, and drops those saved', () => {
    // The form's own shot and Varicella went through; Hep A did not.
    expect(unsavedRest(values, shots, [1, 2], 2)).toEqual({
      set: { shot_name: 'Hep A', vaccine_code: '83' },
      remove: ['shot_name__1', 'vaccine_code__1', 'shot_name__2', 'vaccine_code__2'],
    });
    // Only the form's own shot went through.
    expect(unsavedRest(values, shots, [1, 2], 1)).toEqual({
      set: { shot_name: 'Varicella', vaccine_code: '21' },
      remove: ['shot_name__1', 'vaccine_code__1'],
    });
  });
  it('changes nothing when nothing was saved', () => {
    expect(unsavedRest(values, shots, [1, 2], 0)).toEqual({ set: {}, remove: [] });
  });
});
