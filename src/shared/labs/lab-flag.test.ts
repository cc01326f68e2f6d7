import { describe, expect, it } from 'vitest';
import { decimalOf, labFlag, outOfRangeFirst, outOfRangeOf } from './lab-flag';

describe('labFlag', () => {
  it.each([
    // result, low, high, flag
    ['5.4', '4', '6', 'Normal'],
    ['4', '4', '6', 'Normal'],
    ['6', '4', '6', 'Normal'],
    ['3.99', '4', '6', 'Low'],
    ['6.01', '4', '6', 'High'],
    ['160', null, '100', 'High'],
    ['99', null, '100', 'Normal'],
    ['35', '40', null, 'Low'],
    ['55', '40', null, 'Normal'],
    ['-1', '0', '1', 'Low'],
    ['.5', '0', '1', 'Normal'],
    [' 7 ', '4', '6', 'High'],
    ['Negative', '0', '1', null],
    ['<0.5', '0', '1', null],
    ['1e3', '0', '1', null],
    ['5', null, null, null],
    ['5', '', '', null],
    [null, '0', '1', null],
  ] as const)('%s in [%s, %s] is %s', (result, low, high, flag) => {
    expect(labFlag({ result, range_low: low, range_high: high })).toBe(flag);
  });

  it('reads numbers as given by an import', () => {
    expect(labFlag({ result: 12, range_low: 1, range_high: 10 })).toBe('High');
    expect(decimalOf(Number.NaN)).toBeNull();
  });

  it('marks points out of range for a chart, and sorts them first', () => {
    expect(outOfRangeOf({ result: '200', range_high: '100' })).toBe('high');
    expect(outOfRangeOf({ result: '1', range_low: '2' })).toBe('low');
    expect(outOfRangeOf({ result: '50', range_high: '100' })).toBeUndefined();
    const results = [
      { result: '50', range_high: '100', name: 'in' },
      { result: 'Negative', name: 'text' },
      { result: '1', range_low: '2', name: 'low' },
    ];
    expect([...results].sort(outOfRangeFirst).map((r) => r.name)).toEqual(['low', 'in', 'text']);
  });
});
