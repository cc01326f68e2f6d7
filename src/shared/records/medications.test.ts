import { describe, expect, it } from 'vitest';
import { groupByCondition, groupByTimeOfDay, NO_SET_TIME_LABEL } from './medications';

const medication = (
  name: string,
  times: Partial<Record<'time_morning' | 'time_noon' | 'time_evening' | 'time_night', boolean>>,
  condition: string | null = null,
) => ({
  name,
  condition,
  time_morning: false,
  time_noon: false,
  time_evening: false,
  time_night: false,
  ...times,
});

describe('groupByTimeOfDay', () => {
  it('puts a medication in every group it is taken in, in the day’s order', () => {
    const groups = groupByTimeOfDay([
      medication('A', { time_night: true, time_morning: true }),
      medication('B', { time_noon: true }),
    ]);
    expect(
      groups.map((group) => [group.label, group.medications.map((item) => item.name)]),
    ).toEqual([
      ['Morning', ['A']],
      ['Noon', ['B']],
      ['Night', ['A']],
    ]);
  });

  it('never hides a medication with no time of day', () => {
    const groups = groupByTimeOfDay([medication('As needed', {})]);
    expect(groups).toEqual([
      { label: NO_SET_TIME_LABEL, medications: [expect.objectContaining({ name: 'As needed' })] },
    ]);
  });
});

describe('groupByCondition', () => {
  it('groups by condition in order of appearance, Other for none', () => {
    const groups = groupByCondition([
      medication('A', {}, 'Asthma'),
      medication('B', {}, null),
      medication('C', {}, 'Asthma'),
      medication('D', {}, '  '),
    ]);
    expect(
      groups.map((group) => [group.label, group.medications.map((item) => item.name)]),
    ).toEqual([
      ['Asthma', ['A', 'C']],
      ['Other', ['B', 'D']],
    ]);
  });
});
