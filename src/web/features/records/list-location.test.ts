import { describe, expect, it } from 'vitest';
import { noteDefinition, shotDefinition, visitDefinition } from '../../../shared/records';
import { withPerson } from '../family-members/person-in-view';
import { listLocation, personOfRecord } from './list-location';

const present = { now: '2026-05-10T12:00:00.000Z', today: '2026-05-10' };

describe('listLocation', () => {
  it.each([
    [
      'a past shot, filtered',
      shotDefinition,
      { date_administered: '2026-01-02' },
      'mia',
      '/shots?tab=past&person=mia',
    ],
    [
      'a past shot, unfiltered',
      shotDefinition,
      { date_administered: '2026-01-02' },
      undefined,
      '/shots?tab=past',
    ],
    [
      'an upcoming visit (the first tab)',
      visitDefinition,
      { visit_date: '2026-06-01T09:00:00.000Z' },
      undefined,
      '/visits',
    ],
    [
      'an upcoming visit, filtered',
      visitDefinition,
      { visit_date: '2026-06-01T09:00:00.000Z' },
      'mia',
      '/visits?person=mia',
    ],
    [
      'a past visit',
      visitDefinition,
      { visit_date: '2026-05-01T09:00:00.000Z' },
      undefined,
      '/visits?tab=past',
    ],
    ['a note (no tabs)', noteDefinition, { title: 'x' }, 'mia', '/notes?person=mia'],
    ['no record (a delete)', visitDefinition, undefined, 'mia', '/visits?person=mia'],
  ])('%s: %s', (_name, definition, record, person, expected) => {
    expect(listLocation(definition, record, person, present)).toBe(expected);
  });
});

describe('personOfRecord', () => {
  it('is the family member, else the owner', () => {
    expect(personOfRecord({ family_member_id: 'mia', user_id: 'ann' })).toBe('mia');
    expect(personOfRecord({ family_member_id: null, user_id: 'ann' })).toBe('ann');
  });
});

describe('withPerson', () => {
  it('adds the person to a path with or without a query, and nothing without one', () => {
    expect(withPerson('/vitals/new', 'mia')).toBe('/vitals/new?person=mia');
    expect(withPerson('/labs/new?panel', 'mia')).toBe('/labs/new?panel=&person=mia');
    expect(withPerson('/labs/new?panel', undefined)).toBe('/labs/new?panel');
  });
});
