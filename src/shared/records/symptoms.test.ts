/**
 * The symptom definition's rules (CONTRACT §6 'Symptoms'), the same for the form and the
 * API: a Symptom and a Started At are required, a Severity is a whole number from 1 to 10,
 * and an end never comes before the start; each message names its field.
 */
import { describe, expect, it } from 'vitest';
import { ENDED_BEFORE_STARTED, symptomDefinition } from './symptoms';

const valid = {
  symptom: 'Headache',
  severity: 6,
  started_at: '2026-03-04T07:00:00.000Z',
  ended_at: '2026-03-04T11:30:00.000Z',
  notes: null,
  family_member_id: null,
};

function issues(input: Record<string, unknown>) {
  const parsed = symptomDefinition.schema.safeParse(input);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]);
}

describe('the symptom definition', () => {
  it('names the record type as CONTRACT §6 does', () => {
    expect(symptomDefinition).toMatchObject({
      path: 'symptoms',
      noun: 'Symptom',
      plural: 'Symptoms',
      menu: { title: 'Symptoms' },
      addNew: true,
    });
    expect(symptomDefinition.fields.symptom.required).toBe(true);
    expect(symptomDefinition.fields.started_at.required).toBe(true);
    expect(symptomDefinition.fields.started_at.startsNow).toBe(true);
  });

  it('accepts a symptom, its severity as typed in a form, and no end', () => {
    const parsed = symptomDefinition.schema.parse({
      ...valid,
      severity: ' 10 ',
      ended_at: '',
      started_at: '2026-03-04T08:00:00+01:00',
    });
    expect(parsed).toMatchObject({
      severity: 10,
      ended_at: null,
      started_at: '2026-03-04T07:00:00.000Z',
    });
    expect(symptomDefinition.schema.parse({ ...valid, severity: '' }).severity).toBeNull();
    expect(symptomDefinition.schema.parse({ ...valid, severity: 1 }).severity).toBe(1);
  });

  it('refuses a severity outside 1–10, or not whole, naming Severity', () => {
    for (const severity of [0, 11, -3]) {
      expect(issues({ ...valid, severity }), String(severity)).toEqual([
        ['severity', 'Severity must be between 1 and 10'],
      ]);
    }
    for (const severity of [5.5, '7.5', 'bad', '1e1', true]) {
      expect(issues({ ...valid, severity }), String(severity)).toEqual([
        ['severity', 'Severity must be a whole number'],
      ]);
    }
  });

  it('requires Symptom and Started At, naming them', () => {
    expect(issues({ ...valid, symptom: '  ' })).toEqual([['symptom', 'Symptom is required']]);
    expect(issues({ ...valid, started_at: null, ended_at: null })).toEqual([
      ['started_at', 'Started At is required'],
    ]);
    expect(issues({ ...valid, started_at: 'yesterday' })).toEqual([
      ['started_at', 'Started At must be a date and time'],
    ]);
  });

  it('refuses an end before the start, naming Ended At; an end at the start is fine', () => {
    expect(issues({ ...valid, ended_at: '2026-03-04T06:59:00.000Z' })).toEqual([
      ['ended_at', ENDED_BEFORE_STARTED],
    ]);
    expect(ENDED_BEFORE_STARTED).toContain('Ended At');
    expect(issues({ ...valid, ended_at: valid.started_at })).toEqual([]);
    // Compared as moments, whatever the offset each was written with.
    expect(
      issues({
        ...valid,
        started_at: '2026-03-04T10:00:00+02:00',
        ended_at: '2026-03-04T08:30:00.000Z',
      }),
    ).toEqual([]);
  });

  it('refuses a start in the future', () => {
    expect(issues({ ...valid, started_at: '2999-01-01T00:00:00.000Z', ended_at: null })).toEqual([
      ['started_at', 'Started At cannot be in the future'],
    ]);
  });
});
