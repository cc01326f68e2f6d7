import { describe, expect, it } from 'vitest';
import type { ListView } from './definition';
import { inView, viewOfRecord } from './list-views';
import { medicationDefinition, shotDefinition, visitDefinition } from './index';

const present = { now: '2026-05-10T12:00:00.000Z', today: '2026-05-10' };

describe('viewOfRecord', () => {
  it.each([
    [
      'a visit later today',
      visitDefinition,
      { visit_date: '2026-05-10T15:00:00.000Z' },
      'upcoming',
    ],
    ['a visit now', visitDefinition, { visit_date: '2026-05-10T12:00:00.000Z' }, 'upcoming'],
    ['a visit this morning', visitDefinition, { visit_date: '2026-05-10T08:00:00.000Z' }, 'past'],
    ['a visit last year', visitDefinition, { visit_date: '2025-01-02T08:00:00.000Z' }, 'past'],
    ['a shot next week', shotDefinition, { date_administered: '2026-05-17' }, 'upcoming'],
    ['a shot yesterday', shotDefinition, { date_administered: '2026-05-09' }, 'past'],
    ['a shot with no date', shotDefinition, { date_administered: null }, undefined],
    ['a medication with no end', medicationDefinition, { end_date: null }, 'current'],
    ['a medication ending today', medicationDefinition, { end_date: '2026-05-10' }, 'current'],
    ['a medication ended', medicationDefinition, { end_date: '2026-05-01' }, 'past'],
  ])('%s is in %s', (_name, definition, record, expected) => {
    expect(viewOfRecord(definition, record, present)).toBe(expected);
  });

  it('a shot dated today is in the view its definition says holds today', () => {
    const today = { date_administered: present.today };
    const holding = Object.entries(shotDefinition.views).find(([, view]) =>
      inView(view, present.today, present),
    )?.[0];
    expect(holding).toBeDefined();
    expect(viewOfRecord(shotDefinition, today, present)).toBe(holding);
  });

  it('a type without views has none', () => {
    expect(viewOfRecord({ views: undefined }, { anything: 'x' }, present)).toBeUndefined();
  });
});

describe('inView', () => {
  const view = (comparison: ListView['comparison'] | '>' | '<=', against: 'now' | 'today') =>
    ({ column: 'd', comparison, against, includesEmpty: false, order: [] }) as ListView;
  it.each([
    ['>', 'today', '2026-05-10', false],
    ['>', 'today', '2026-05-11', true],
    ['<=', 'today', '2026-05-10', true],
    ['<=', 'today', '2026-05-11', false],
    ['>=', 'now', '2026-05-10T13:00:00+01:00', true],
    ['<', 'now', '2026-05-10T13:00:00+02:00', true],
  ] as const)('%s %s: %s is %s', (comparison, against, value, expected) => {
    expect(inView(view(comparison, against), value, present)).toBe(expected);
  });

  it('takes a row with no value only where the view says so', () => {
    expect(inView(view('>=', 'today'), null, present)).toBe(false);
    expect(inView({ ...view('>=', 'today'), includesEmpty: true }, null, present)).toBe(true);
  });
});
