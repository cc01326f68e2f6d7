import { describe, expect, it } from 'vitest';
import { addDuration, fromDay, toDay } from './cdsi-dates';
import { immuneGroups, vaccinePlan, type PlanShot } from './vaccine-plan';
import { matchVaccineByName } from './vaccines';
import { vaccineSchedules } from './schedules';

const data = vaccineSchedules['us-cdc'].data;
const today = '2026-11-27';
const ageAt = (age: string) => fromDay(addDuration(toDay(today), `-${age}`));
const birth = fromDay(addDuration(toDay(today), '- 14 months'));
const at = (age: string) => fromDay(addDuration(toDay(birth), age));

/** A child born 14 months ago: the birth Hep B dose and the 2-, 4- and 6-month doses. */
function infantShots(): PlanShot[] {
  let n = 0;
  const shot = (name: string, cvx: string | null, date: string): PlanShot => ({
    id: `shot-${(n += 1)}`,
    shot_name: name,
    vaccine_code: cvx,
    date_administered: date,
  });
  return [
    shot('Hep B', '45', birth),
    ...['2 months', '4 months', '6 months'].flatMap((age) => [
      shot('DTaP', '107', at(age)),
      shot('Hib', '17', at(age)),
      shot('IPV', '10', at(age)),
      shot('PCV', '152', at(age)),
      shot('Rotavirus', '122', at(age)),
    ]),
    shot('Hep B', '45', at('2 months')),
    shot('Hep B', '45', at('6 months')),
  ];
}

const find = (plan: ReturnType<typeof vaccinePlan>, vaccine: string, dose: number) =>
  plan.find((entry) => entry.vaccine === vaccine && entry.dose === dose);

describe('a child’s vaccine plan', () => {
  it('shows MMR, Varicella and Hep A dose 1 due and DTaP dose 4 upcoming at 14 months', () => {
    const plan = vaccinePlan(data, { birthDate: birth, sex: 'female' }, infantShots(), today);
    expect(find(plan, 'MMR', 1)).toMatchObject({ of: 2, status: 'Due', due: at('12 months') });
    expect(find(plan, 'Varicella', 1)).toMatchObject({ status: 'Due', due: at('12 months') });
    expect(find(plan, 'Hep A', 1)).toMatchObject({ status: 'Due', due: at('12 months') });
    expect(find(plan, 'DTaP', 4)).toMatchObject({ status: 'Upcoming', due: at('15 months') });
    expect(find(plan, 'DTaP', 3)).toMatchObject({ status: 'Done', given: at('6 months') });
    expect(find(plan, 'Hep B', 3)).toMatchObject({ status: 'Done', of: 3 });
  });

  it('counts a recorded MMR dose 1 as done, and the combination MMRV for each antigen', () => {
    const shots = [
      ...infantShots(),
      { id: 'mmr', shot_name: 'MMR', vaccine_code: '03', date_administered: today },
    ];
    const plan = vaccinePlan(data, { birthDate: birth, sex: null }, shots, today);
    expect(find(plan, 'MMR', 1)).toMatchObject({ status: 'Done', given: today });
    expect(find(plan, 'MMR', 2)).toMatchObject({ status: 'Upcoming' });

    const mmrv = [
      ...infantShots(),
      { id: 'mmrv', shot_name: 'ProQuad', vaccine_code: '94', date_administered: today },
    ];
    const withMmrv = vaccinePlan(data, { birthDate: birth, sex: null }, mmrv, today);
    expect(find(withMmrv, 'MMR', 1)).toMatchObject({ status: 'Done' });
    expect(find(withMmrv, 'Varicella', 1)).toMatchObject({ status: 'Done' });
  });

  it('does not count a dose given too early, and says when one is overdue', () => {
    const early = [
      { id: 'x', shot_name: 'MMR', vaccine_code: '03', date_administered: at('6 months') },
    ];
    const plan = vaccinePlan(data, { birthDate: birth, sex: null }, early, today);
    expect(find(plan, 'MMR', 1)?.status).not.toBe('Done');
    const older = vaccinePlan(data, { birthDate: ageAt('5 years'), sex: null }, [], today);
    expect(find(older, 'MMR', 1)?.status).toBe('Overdue');
  });

  it('matches a shot without a code by an unambiguous name and says so', () => {
    const shots = [
      { id: 'n', shot_name: 'MMR', vaccine_code: null, date_administered: today },
      { id: 'm', shot_name: 'Hib', vaccine_code: null, date_administered: at('2 months') },
    ];
    const plan = vaccinePlan(data, { birthDate: birth, sex: null }, shots, today);
    expect(find(plan, 'MMR', 1)).toMatchObject({ status: 'Done', matchedByName: true });
    expect(matchVaccineByName('Tdap booster')?.name).toBe('Tdap');
    expect(matchVaccineByName('Flu shot 2024')?.name).toBe('Influenza');
    expect(matchVaccineByName('Hepatitis B #2')?.name).toBe('Hep B');
    expect(matchVaccineByName('DTaP-IPV')).toBeUndefined();
    expect(matchVaccineByName('MMRV')).toBeUndefined();
    expect(matchVaccineByName('Allergy shot')).toBeUndefined();
  });

  it('plans a group alike whatever other vaccines were given, but a live one holds back another', () => {
    const plain = vaccinePlan(data, { birthDate: birth, sex: null }, infantShots(), today);
    const flu = ['6 months', '7 months'].map((age, i) => ({
      id: `flu-${i}`,
      shot_name: 'Flu',
      vaccine_code: '88',
      date_administered: at(age),
    }));
    const withFlu = vaccinePlan(
      data,
      { birthDate: birth, sex: null },
      [...infantShots(), ...flu],
      today,
    );
    const notFlu = (plan: typeof plain) => plan.filter((dose) => dose.vaccine !== 'Influenza');
    expect(notFlu(withFlu)).toEqual(notFlu(plain));

    // Varicella 10 days after MMR: within MMR's live virus conflict, so it does not count.
    const live = [
      ...infantShots(),
      { id: 'mmr', shot_name: 'MMR', vaccine_code: '03', date_administered: at('12 months') },
      {
        id: 'var',
        shot_name: 'Varicella',
        vaccine_code: '21',
        date_administered: at('12 months + 10 days'),
      },
    ];
    const plan = vaccinePlan(data, { birthDate: birth, sex: null }, live, today);
    expect(find(plan, 'MMR', 1)).toMatchObject({ status: 'Done' });
    expect(find(plan, 'Varicella', 1)?.status).not.toBe('Done');
  });

  it('looks ahead to the 19th birthday, and no further for a young child', () => {
    const plan = vaccinePlan(data, { birthDate: birth, sex: 'female' }, infantShots(), today);
    const nineteen = fromDay(addDuration(toDay(birth), '19 years'));
    expect(plan.filter((dose) => dose.due >= nineteen)).toEqual([]);
    // The adolescent doses are there: MenACWY at 16, HPV from 11.
    expect(find(plan, 'MenACWY', 2)).toMatchObject({ status: 'Upcoming' });
    expect(find(plan, 'HPV', 1)).toMatchObject({ status: 'Upcoming' });
  });
});

describe('an adult’s vaccine plan', () => {
  // A grandmother of 72 with no shots recorded.
  const grandmother = { birthDate: '1954-03-10', sex: 'female' as const };
  const nineteenth = '1973-03-10';

  it('dates nothing before her 19th birthday and calls nothing of her childhood overdue', () => {
    const plan = vaccinePlan(data, grandmother, [], today);
    expect(plan.length).toBeGreaterThan(0);
    for (const dose of plan) {
      expect(dose.due >= nineteenth, `${dose.vaccine} ${dose.dose} due ${dose.due}`).toBe(true);
      expect(dose.earliest >= nineteenth, `${dose.vaccine} ${dose.dose}`).toBe(true);
      expect(dose.status, `${dose.vaccine} ${dose.dose}`).not.toBe('Overdue');
    }
  });

  it('lists no childhood-only series and the adult ones: Zoster, Pneumococcal, Tdap, flu, COVID-19, RSV at 75', () => {
    const plan = vaccinePlan(data, grandmother, [], today);
    const vaccines = new Set(plan.map((dose) => dose.vaccine));
    for (const childhood of [
      'DTaP',
      'Hib',
      'IPV',
      'PCV',
      'Rotavirus',
      'Hep A',
      'HPV',
      'MenACWY',
      'MenB',
    ]) {
      expect(vaccines.has(childhood), childhood).toBe(false);
    }
    expect(find(plan, 'Zoster', 1)).toMatchObject({ status: 'Due', cvx: '187' });
    expect(find(plan, 'Zoster', 2)).toMatchObject({ status: 'Upcoming' });
    expect(find(plan, 'Pneumococcal', 1)).toMatchObject({ status: 'Due' });
    expect(find(plan, 'Tdap', 1)).toMatchObject({ status: 'Due', cvx: '115' });
    expect(find(plan, 'Influenza', 1)?.status).toBe('Due');
    expect(find(plan, 'COVID-19', 1)?.status).toBe('Due');
    expect(find(plan, 'RSV', 1)).toMatchObject({ status: 'Upcoming', due: '2029-03-10' });
  });

  it('presumes immunity to measles, mumps and rubella (born before 1957) and chickenpox (before 1980)', () => {
    const plan = vaccinePlan(data, grandmother, [], today);
    expect(find(plan, 'MMR', 1)).toBeUndefined();
    expect(find(plan, 'Varicella', 1)).toBeUndefined();
    expect(immuneGroups(data, grandmother)).toEqual([
      expect.objectContaining({ vaccine: 'MMR', bornBefore: '1957-01-01' }),
      expect.objectContaining({ vaccine: 'Varicella', bornBefore: '1980-01-01' }),
    ]);
    expect(immuneGroups(data, { birthDate: '1990-05-01', sex: 'female' })).toEqual([]);
    const mmr = find(
      vaccinePlan(data, { birthDate: '1990-05-01', sex: 'male' }, [], today),
      'MMR',
      1,
    );
    expect(mmr).toMatchObject({ status: 'Due', due: '2009-05-01' });
  });

  it('keeps a lapse of adult years overdue: a Td booster ten years on', () => {
    // A mother of 35 whose childhood series and two Tdap doses are recorded.
    const born = '1991-05-01';
    const on = (age: string) => fromDay(addDuration(toDay(born), age));
    const shots = [
      ...['2 months', '4 months', '6 months', '15 months', '4 years'].map((age, i) => ({
        id: `d${i}`,
        shot_name: 'DTaP',
        vaccine_code: '107',
        date_administered: on(age),
      })),
      { id: 't1', shot_name: 'Tdap', vaccine_code: '115', date_administered: on('12 years') },
      { id: 't2', shot_name: 'Tdap', vaccine_code: '115', date_administered: '2014-06-01' },
    ];
    const plan = vaccinePlan(data, { birthDate: born, sex: 'female' }, shots, today);
    const tetanus = plan.filter((dose) => dose.vaccine === 'DTaP' || dose.vaccine === 'Tdap');
    expect(tetanus.filter((dose) => dose.status === 'Done')).toHaveLength(7);
    expect(tetanus.find((dose) => dose.status !== 'Done')).toMatchObject({
      status: 'Overdue',
      due: '2024-06-01',
    });
  });

  it('names an adult’s pneumococcal doses Pneumococcal and a child’s PCV', () => {
    const shots = [
      { id: 'p', shot_name: 'Prevnar 20', vaccine_code: '216', date_administered: '2025-01-15' },
    ];
    const plan = vaccinePlan(data, grandmother, shots, today);
    expect(find(plan, 'Pneumococcal', 1)).toMatchObject({ status: 'Done', given: '2025-01-15' });
    const child = vaccinePlan(data, { birthDate: birth, sex: 'female' }, infantShots(), today);
    expect(find(child, 'PCV', 3)).toMatchObject({ status: 'Done' });
    expect(child.some((dose) => dose.vaccine === 'Pneumococcal')).toBe(false);
  });
});
