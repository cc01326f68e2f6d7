/**
 * What the emergency card takes from a person's summary: active allergies, the most severe
 * first; only the medications taken today; the person's own conditions that are not resolved;
 * current insurance; every contact; and the same rule for a stored record (its link's bundle).
 */
import { describe, expect, it } from 'vitest';
import { doseText, emergencyCardOf, isOnEmergencyCard } from './emergency-card';
import { emptyPersonSummary, type PersonSummary } from './person-summary';

const TODAY = '2026-06-15';

function summary(): PersonSummary {
  const base = emptyPersonSummary(
    { id: 'leo', name: 'Leo Garcia', date_of_birth: '2017-04-12' },
    '2026-06-15T08:00:00.000Z',
  );
  const allergy = (
    substance: string,
    severity: 'Mild' | 'Moderate' | 'Severe' | null,
    status: 'Active' | 'Resolved' = 'Active',
  ) => ({
    substance,
    reaction: null,
    severity,
    category: null,
    status,
    noted_date: null,
  });
  const medication = (medication_name: string, start_date: string | null) => ({
    medication_name,
    dosage: '5 mg',
    frequency: 'Daily',
    times_of_day: ['Morning' as const],
    start_date,
    condition: null,
    prescribed_doctor: null,
  });
  return {
    ...base,
    allergies: [
      allergy('Amoxicillin', 'Mild'),
      allergy('Bee stings', null),
      allergy('Dust', 'Severe', 'Resolved'),
      allergy('Latex', 'Moderate'),
      allergy('Peanuts', 'Severe'),
    ],
    current_medications: [medication('Albuterol', null), medication('Later', '2026-07-01')],
    conditions: [
      { condition_name: 'Asthma', status: 'Chronic', diagnosis_date: null, notes: null },
      { condition_name: 'Flu', status: 'Resolved', diagnosis_date: null, notes: null },
      { condition_name: 'Eczema', status: null, diagnosis_date: null, notes: null },
    ],
    insurance: [
      {
        insurance_type: 'Medical',
        provider_name: 'KidsCare',
        policy_number: 'KC-1',
        group_number: null,
        status: 'current',
        effective_date: null,
        expiry_date: null,
      },
      {
        insurance_type: 'Dental',
        provider_name: 'OldCare',
        policy_number: null,
        group_number: null,
        status: 'past',
        effective_date: null,
        expiry_date: null,
      },
    ],
    care_team: [
      {
        contact_name: 'Dr. Okafor',
        contact_type: 'Doctor',
        specialty: null,
        phone_number: '+1 555 0199',
        email: 'okafor@example.com',
        address: null,
      },
    ],
  };
}

describe('emergencyCardOf', () => {
  const card = emergencyCardOf(summary(), TODAY);

  it('lists active allergies with their severity, the most severe first', () => {
    expect(card.allergies.map((a) => [a.substance, a.severity])).toEqual([
      ['Peanuts', 'Severe'],
      ['Latex', 'Moderate'],
      ['Amoxicillin', 'Mild'],
      ['Bee stings', null],
    ]);
  });

  it('lists only the medications taken today, with their doses', () => {
    expect(card.medications.map((m) => m.medication_name)).toEqual(['Albuterol']);
    expect(doseText(card.medications[0]!)).toBe('5 mg · Daily · Morning');
  });

  it('lists current conditions and insurance, and every contact with only what a responder needs', () => {
    expect(card.conditions).toEqual([
      { condition_name: 'Asthma', status: 'Chronic' },
      { condition_name: 'Eczema', status: null },
    ]);
    expect(card.insurance.map((policy) => policy.provider_name)).toEqual(['KidsCare']);
    expect(card.emergency_contacts).toEqual([
      { contact_name: 'Dr. Okafor', contact_type: 'Doctor', phone_number: '+1 555 0199' },
    ]);
    expect(card.person).toEqual({ id: 'leo', name: 'Leo Garcia', date_of_birth: '2017-04-12' });
  });
});

describe('isOnEmergencyCard, for a stored record', () => {
  it.each([
    ['medication', { start_date: '2026-01-01', end_date: '2026-06-14' }, false],
    ['medication', { start_date: '2026-01-01', end_date: TODAY }, true],
    ['medication', { start_date: '2026-06-16', end_date: null }, false],
    ['medication', { start_date: null, end_date: null }, true],
    ['condition', { status: 'Active', is_family_history: true }, false],
    ['condition', { status: 'Under Treatment', is_family_history: false }, true],
    ['allergy', { status: 'Inactive' }, false],
    ['insurance', { status: 'past' }, false],
    ['insurance', { status: null }, true],
    ['contact', {}, true],
  ] as const)('%s %o: %s', (type, record, expected) => {
    expect(isOnEmergencyCard(type, record, TODAY)).toBe(expected);
  });

  it('says a dose with no frequency by its amount and times alone', () => {
    expect(
      doseText({ medication_name: 'X', dosage: null, frequency: null, times_of_day: ['Night'] }),
    ).toBe('Night');
  });
});
