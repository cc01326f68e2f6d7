import { afterEach, describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/date-values';
import { localToday } from '../../../shared/dates';
import {
  conditionDefinition,
  contactDefinition,
  medicationDefinition,
  shotDefinition,
  visitDefinition,
  vitalDefinition,
} from '../../../shared/records';
import type { RecordDefinition } from '../../../shared/records/definition';
import { recordResolver, toFormValues, toPayload } from './form-values';

const originalZone = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalZone;
});

const resolve = (
  definition: RecordDefinition,
  values: Record<string, string | boolean | string[]>,
) =>
  recordResolver(definition)(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('record forms', () => {
  it('start empty, with defaults and unticked boxes', () => {
    expect(toFormValues(medicationDefinition)).toMatchObject({
      medication_name: '',
      frequency: '',
      time_morning: false,
      family_member_id: '',
    });
  });

  it('show a stored visit time as local wall time, and send it back as UTC', () => {
    process.env.TZ = 'Asia/Kolkata';
    const values = toFormValues(visitDefinition, {
      visit_name: 'Checkup',
      visit_date: '2026-03-04T04:00:00.000Z',
    });
    expect(values.visit_date).toBe('2026-03-04T09:30');
    expect(toPayload(visitDefinition, values).visit_date).toBe('2026-03-04T04:00:00.000Z');
  });

  it('start a new vitals entry at the present minute, in local time; a visit, and an edit, do not', () => {
    process.env.TZ = 'Asia/Kolkata';
    const now = new Date('2026-03-04T04:00:42.500Z');
    expect(toFormValues(vitalDefinition, undefined, 'metric', now).measured_at).toBe(
      '2026-03-04T09:30',
    );
    expect(toFormValues(visitDefinition, undefined, 'metric', now).visit_date).toBe('');
    const stored = { measured_at: '2026-01-02T08:00:00.000Z', weight_kg: 7 };
    expect(toFormValues(vitalDefinition, stored, 'metric', now).measured_at).toBe(
      '2026-01-02T13:30',
    );
  });

  it('check with the shared schema and name the field that is wrong', async () => {
    const result = await resolve(visitDefinition, {
      ...toFormValues(visitDefinition),
      visit_name: '   ',
    });
    expect(result.errors.visit_name?.message).toBe('Visit Purpose is required');
    expect(result.errors.visit_date?.message).toBe('Visit Date is required');
  });

  it('enforce the family-history rule the server enforces', async () => {
    const values = {
      ...toFormValues(conditionDefinition),
      condition_name: 'Diabetes',
      is_family_history: true,
    };
    expect((await resolve(conditionDefinition, values)).errors.relation?.message).toBe(
      'Relation is required',
    );
    const fixed = await resolve(conditionDefinition, { ...values, relation: 'Father' });
    expect(fixed.errors).toEqual({});
  });

  it('hold the persons a contact cares for as a list, none for the whole family', async () => {
    expect(toFormValues(contactDefinition).person_ids).toEqual([]);
    const stored = toFormValues(contactDefinition, { contact_name: 'Dr. A', person_ids: ['p1'] });
    expect(stored.person_ids).toEqual(['p1']);
    const ids = ['0192f3a4-1b2c-7d3e-8f40-123456789abc'];
    const result = await resolve(contactDefinition, { ...stored, person_ids: ids });
    expect(result.values).toMatchObject({ contact_name: 'Dr. A', person_ids: ids });
  });

  it('refuse a date after the user’s today where it says what happened, and a year before 1900', async () => {
    const values = { ...toFormValues(conditionDefinition), condition_name: 'Asthma' };
    const tomorrow = await resolve(conditionDefinition, {
      ...values,
      diagnosis_date: addDays(localToday(), 1),
    });
    expect(tomorrow.errors.diagnosis_date?.message).toBe('Diagnosis Date cannot be in the future');
    const today = await resolve(conditionDefinition, { ...values, diagnosis_date: localToday() });
    expect(today.errors).toEqual({});
    const old = await resolve(visitDefinition, {
      ...toFormValues(visitDefinition),
      visit_name: 'Checkup',
      visit_date: '1899-12-31T10:00',
    });
    expect(old.errors.visit_date?.message).toBe('Visit Date cannot be before 1900');
  });

  it('refuse a date before the chosen person’s Date of Birth', async () => {
    const leo = { id: 'b1c0d1f0-0000-4000-8000-000000000001', name: 'Leo' };
    const resolver = recordResolver(shotDefinition, (id) =>
      id === leo.id ? { name: leo.name, date_of_birth: '2020-05-10' } : undefined,
    );
    const values = {
      ...toFormValues(shotDefinition),
      shot_name: 'MMR',
      family_member_id: leo.id,
      date_administered: '2020-05-09',
    };
    const options = { fields: {}, shouldUseNativeValidation: false };
    expect((await resolver(values, undefined, options)).errors.date_administered?.message).toBe(
      "Date Administered cannot be before Leo's Date of Birth (2020-05-10)",
    );
    const born = { ...values, date_administered: '2020-05-10' };
    expect((await resolver(born, undefined, options)).errors).toEqual({});
  });

  it('refuse times of day that do not match the frequency, under Frequency', async () => {
    const values = {
      ...toFormValues(medicationDefinition),
      medication_name: 'Inhaler',
      frequency: 'Twice Daily',
      time_morning: true,
    };
    expect((await resolve(medicationDefinition, values)).errors.frequency?.message).toBe(
      "Frequency 'Twice Daily' needs two times of day, or tick 'No set time'",
    );
    const untimed = { ...values, frequency: 'Daily', time_morning: false };
    expect((await resolve(medicationDefinition, untimed)).errors.frequency?.message).toBe(
      "Frequency 'Daily' needs a time of day, or tick 'No set time'",
    );
    const said = { ...untimed, no_set_time: true };
    expect((await resolve(medicationDefinition, said)).errors).toEqual({});
  });
});
