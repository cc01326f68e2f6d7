/**
 * The lock-screen image's lines: the card's entries under their sections' titles, and, when
 * they do not all fit, how many of the card's entries are left out; a section's title is
 * not one of them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmergencyCard } from '../../../shared/emergency-card';
import { startI18n } from '../../lib/i18n';
import { linesThatFit, lockScreenLines } from './lock-screen-image';

const CARD: EmergencyCard = {
  person: { id: 'leo', name: 'Leo Garcia', date_of_birth: '2017-04-12' },
  today: '2026-06-15',
  allergies: [{ substance: 'Peanuts', reaction: 'Anaphylaxis', severity: 'Severe' }],
  medications: [
    { medication_name: 'Albuterol', dosage: '2 puffs', frequency: 'As Needed', times_of_day: [] },
  ],
  conditions: [
    { condition_name: 'Asthma', status: 'Active' },
    { condition_name: 'Eczema', status: 'Active' },
    { condition_name: 'Hay fever', status: 'Active' },
  ],
  emergency_contacts: [
    { contact_name: 'Dr. Amara Okafor', contact_type: 'Doctor', phone_number: '+1 (555) 0199' },
    { contact_name: 'Maria Garcia', contact_type: 'Family', phone_number: '+1 (555) 0100' },
  ],
  insurance: [],
  not_shown: {},
};

beforeAll(() => startI18n());

/** Every line 100 high: the limit says how many lines fit. */
const fit = (limit: number) => linesThatFit(lockScreenLines(CARD), () => 100, 0, limit);

describe('the lock-screen image', () => {
  it('lists the entries under their sections, most urgent first', () => {
    expect(lockScreenLines(CARD).map((line) => line.text)).toEqual([
      'ALLERGIES',
      'Peanuts · Severe · Anaphylaxis',
      'MEDICATIONS',
      'Albuterol · 2 puffs · As Needed',
      'CONDITIONS',
      'Asthma',
      'Eczema',
      'Hay fever',
      'EMERGENCY CONTACTS',
      'Dr. Amara Okafor · +1 (555) 0199',
      'Maria Garcia · +1 (555) 0100',
    ]);
  });

  it('draws all of a card that fits, and says nothing is left out', () => {
    expect(fit(1100)).toEqual({ drawn: 11, more: 0 });
  });

  it('counts the entries left out, not the sections’ titles', () => {
    // Cut before the Conditions title: its three entries and both contacts are left out.
    expect(fit(400)).toEqual({ drawn: 4, more: 5 });
    // Cut inside Conditions: Eczema, Hay fever and the two contacts.
    expect(fit(600)).toEqual({ drawn: 6, more: 4 });
  });
});
