import { describe, expect, it } from 'vitest';
import { fillChanges, fillNote } from './form-fill';

describe('fillChanges', () => {
  it.each([
    ['fills an empty field', { shot_name: '' }, {}, { shot_name: 'MMR' }, { shot_name: 'MMR' }],
    [
      'replaces what it filled before',
      { shot_name: 'MMR' },
      { shot_name: 'MMR' },
      { shot_name: 'Hep B' },
      { shot_name: 'Hep B' },
    ],
    [
      'never overwrites what the user typed',
      { shot_name: 'Flu shot' },
      { shot_name: '' },
      { shot_name: 'Influenza' },
      {},
    ],
    [
      'empties what it filled when it has nothing to fill',
      { range_low: '4.5', range_high: '11' },
      { range_low: '4.5', range_high: '11' },
      { range_low: '', range_high: '' },
      { range_low: '', range_high: '' },
    ],
    [
      'fills one field of two, the other typed',
      { range_low: '3', range_high: '' },
      { range_low: '', range_high: '' },
      { range_low: '4.5', range_high: '11' },
      { range_high: '11' },
    ],
    ['changes nothing already so', { unit: 'g/dL' }, {}, { unit: 'g/dL' }, {}],
  ])('%s', (_name, current, before, next, expected) => {
    expect(fillChanges(current, before, next)).toEqual(expected);
  });
});

describe('fillNote', () => {
  const filled = { values: { range_low: '12', range_high: '16' }, note: 'Typical adult range' };
  it('shows while the fields hold what was filled', () => {
    expect(fillNote(filled, { range_low: '12', range_high: '16' })).toBe('Typical adult range');
  });
  it('goes once a field is changed, or when nothing was filled', () => {
    expect(fillNote(filled, { range_low: '11', range_high: '16' })).toBeUndefined();
    expect(
      fillNote({ values: { range_low: '', range_high: '' }, note: 'x' }, { range_low: '' }),
    ).toBeUndefined();
  });
});
