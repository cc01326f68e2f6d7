/**
 * Whether a card changed since its link was made (`cardContent`): its records and what it
 * leaves out count, its date does not, and a card kept before cards said what they leave out
 * reads the same as one that leaves nothing out.
 */
import { describe, expect, it } from 'vitest';
import type { EmergencyCard } from '../../../shared/emergency-card';
import { cardContent } from './card-link';

const CARD: EmergencyCard = {
  person: { id: 'leo', name: 'Leo Garcia', date_of_birth: '2017-04-12' },
  today: '2026-06-15',
  allergies: [{ substance: 'Peanuts', reaction: null, severity: 'Severe' }],
  medications: [],
  conditions: [],
  emergency_contacts: [],
  insurance: [],
  not_shown: {},
};

describe('cardContent', () => {
  it('is the same for a card kept before cards said what they leave out', () => {
    const { not_shown: _notShown, ...kept } = CARD;
    expect(cardContent(kept)).toBe(cardContent(CARD));
    expect(cardContent({ ...CARD, today: '2026-07-01' })).toBe(cardContent(CARD));
  });

  it('changes with the rows left out, as with the records shown', () => {
    expect(cardContent({ ...CARD, not_shown: { allergies: 3 } })).not.toBe(cardContent(CARD));
    expect(cardContent({ ...CARD, allergies: [] })).not.toBe(cardContent(CARD));
  });
});
