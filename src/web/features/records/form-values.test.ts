import { afterEach, describe, expect, it } from 'vitest';
import {
  conditionDefinition,
  contactDefinition,
  medicationDefinition,
  visitDefinition,
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
});
