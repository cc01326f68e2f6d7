/**
 * Plans kept between requests (member-plans.ts `plannedDoses`): the same inputs give the same
 * frozen plan without making it again, and every input a plan is made from (each field of each
 * shot, the shots there are, the date of birth, the sex, the day) gives the plan made afresh.
 */
import { describe, expect, it } from 'vitest';
import { vaccineSchedules } from '../../shared/vaccines/schedules';
import {
  vaccinePlan,
  type PlanPerson,
  type PlanShot,
  type PlannedDose,
} from '../../shared/vaccines/vaccine-plan';
import { plannedDoses } from './member-plans';

const schedule = vaccineSchedules['us-cdc'];
const TODAY = '2026-11-27';
const nora: PlanPerson = { birthDate: '2025-01-10', sex: 'female' };
const shots: PlanShot[] = [
  { id: 'hepb-1', shot_name: 'Hep B', date_administered: '2025-01-10', vaccine_code: '08' },
  { id: 'mmr-1', shot_name: 'MMR', date_administered: '2026-01-15', vaccine_code: '03' },
];

const fresh = (person: PlanPerson, given: PlanShot[], today = TODAY) =>
  vaccinePlan(schedule.data, person, given, today);

describe('plans kept between requests', () => {
  it('are the plan made afresh, shared and frozen, for the same inputs', () => {
    const first = plannedDoses(schedule, nora, shots, TODAY);
    expect(first).toEqual(fresh(nora, shots));
    // Equal inputs in other objects: the same plan, not made again.
    const again = plannedDoses(
      schedule,
      { ...nora },
      shots.map((shot) => ({ ...shot })),
      TODAY,
    );
    expect(again).toBe(first);
    expect(Object.isFrozen(again)).toBe(true);
    expect(() => (again as PlannedDose[]).push(again[0]!)).toThrow(TypeError);
    expect(() => {
      (again[0] as { status: string }).status = 'Done';
    }).toThrow(TypeError);
  });

  it('are made again when anything they are made from changes', () => {
    const base = plannedDoses(schedule, nora, shots, TODAY);
    const [hepB, mmr] = shots as [PlanShot, PlanShot];
    const variants: [string, PlanPerson, PlanShot[], string][] = [
      ["a shot's id", nora, [hepB, { ...mmr, id: 'mmr-other' }], TODAY],
      ["a shot's date", nora, [hepB, { ...mmr, date_administered: '2025-06-01' }], TODAY],
      ["a shot's vaccine", nora, [hepB, { ...mmr, vaccine_code: '21' }], TODAY],
      [
        "a shot's name, where it has no vaccine code",
        nora,
        [hepB, { ...mmr, vaccine_code: null, shot_name: 'Varicella' }],
        TODAY,
      ],
      [
        'a shot more',
        nora,
        [...shots, { ...mmr, id: 'mmr-2', date_administered: '2026-06-15' }],
        TODAY,
      ],
      ['a shot less', nora, [mmr], TODAY],
      ['the date of birth', { ...nora, birthDate: '2024-01-10' }, shots, TODAY],
      ['the day', nora, shots, '2027-03-01'],
    ];
    for (const [what, person, given, today] of variants) {
      const expected = fresh(person, given, today);
      // The change changes the plan: a key that left it out would answer the base plan.
      expect(expected, what).not.toEqual(base);
      expect(plannedDoses(schedule, person, given, today), what).toEqual(expected);
    }
    // The sex is part of the key too (the plan may or may not differ by it).
    const male = { ...nora, sex: 'male' as const };
    expect(plannedDoses(schedule, male, shots, TODAY)).toEqual(fresh(male, shots));
    expect(plannedDoses(schedule, male, shots, TODAY)).not.toBe(base);
  });
});
