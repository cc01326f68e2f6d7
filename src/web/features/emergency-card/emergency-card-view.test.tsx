/**
 * The emergency card as the page shows it (jsdom): each section under its heading, an
 * allergy with its severity and reaction, a medication with its dose, a contact's phone as a
 * link to call, 'None recorded' for an empty section, and the person's age beside their date
 * of birth.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmergencyCard } from '../../../shared/emergency-card';
import { startI18n } from '../../lib/i18n';
import { testRoot } from '../../test-root';
import { EmergencyCardView } from './emergency-card-view';

const CARD: EmergencyCard = {
  person: { id: 'leo', name: 'Leo Garcia', date_of_birth: '2017-04-12' },
  today: '2026-06-15',
  allergies: [
    { substance: 'Peanuts', reaction: 'Anaphylaxis', severity: 'Severe' },
    { substance: 'Latex', reaction: null, severity: null },
  ],
  medications: [
    {
      medication_name: 'Albuterol',
      dosage: '2 puffs',
      frequency: 'Twice Daily',
      times_of_day: ['Morning', 'Night'],
    },
  ],
  conditions: [],
  emergency_contacts: [
    { contact_name: 'Dr. Amara Okafor', contact_type: 'Doctor', phone_number: '+1 (555) 0199' },
  ],
  insurance: [
    {
      insurance_type: 'Medical',
      provider_name: 'KidsCare',
      policy_number: 'KC-4711',
      group_number: 'GRP-88',
    },
  ],
  not_shown: {},
};

// The page's words come from the app's i18n, as in the app (the browser's language: English).
beforeAll(() => startI18n());

const page = testRoot();

/** The section headed `title`, by the heading that names it. */
function section(title: string): HTMLElement {
  const heading = [...page.container.querySelectorAll('h3')].find((h) => h.textContent === title);
  if (!heading) throw new Error(`No section '${title}'`);
  const found = page.container.querySelector<HTMLElement>(
    `section[aria-labelledby="${heading.id}"]`,
  );
  if (!found) throw new Error(`'${title}' names no section`);
  return found;
}

describe('EmergencyCardView', () => {
  it('shows each section with what a responder needs', () => {
    page.render(<EmergencyCardView card={CARD} />);
    expect(page.container.querySelector('h2')?.textContent).toBe('Leo Garcia');
    expect(page.container.textContent).toContain('Born Apr 12, 2017 (9 y 2 mo)');
    const allergies = section('Allergies');
    const items = [...allergies.querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual(['PeanutsSevereAnaphylaxis', 'Latex']);
    expect(section('Current Medications').querySelector('li')?.textContent).toBe(
      'Albuterol2 puffs · Twice Daily · Morning, Night',
    );
    expect(section('Conditions').textContent).toContain('None recorded');
    const call = section('Emergency Contacts').querySelector('a');
    expect(call?.getAttribute('href')).toBe('tel:+15550199');
    expect(call?.textContent).toBe('+1 (555) 0199');
    expect(section('Insurance').textContent).toContain('Policy KC-4711 · Group GRP-88');
  });

  it('says under a section how many of its rows the card leaves out, and nothing under the others', () => {
    page.render(<EmergencyCardView card={{ ...CARD, not_shown: { allergies: 1234 } }} />);
    expect(section('Allergies').querySelector('p')?.textContent).toBe(
      '…and 1,234 more, not shown on this card',
    );
    for (const title of ['Current Medications', 'Emergency Contacts', 'Insurance']) {
      expect(section(title).textContent).not.toContain('not shown');
    }
  });

  it('shows a card kept on this device before cards said what they leave out', () => {
    const { not_shown: _notShown, ...kept } = CARD;
    page.render(<EmergencyCardView card={kept} />);
    expect(section('Allergies').textContent).toContain('Peanuts');
    expect(page.container.textContent).not.toContain('not shown');
  });

  it('says when the date of birth is not known', () => {
    page.render(
      <EmergencyCardView card={{ ...CARD, person: { ...CARD.person, date_of_birth: null } }} />,
    );
    expect(page.container.textContent).toContain('Date of birth not recorded');
  });
});
