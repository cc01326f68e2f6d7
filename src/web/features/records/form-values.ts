/**
 * Between a record and its form: inputs hold strings and booleans (and the persons a record
 * is for, a list of ids); the API takes the definition's input. Two conversions: a moment
 * (a visit's time) is local wall time in the form and a UTC timestamp in the API, and a
 * measure (a weight) is in the user's units in the form and in its canonical unit in the API.
 */
import type { FieldErrors, Resolver } from 'react-hook-form';
import { fromDateTimeLocalInput, toDateTimeLocalInput } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';
import type { RecordDefinition } from '../../../shared/records/definition';
import { beforeBirthIssue, type BornPerson, type FieldSpec } from '../../../shared/records/fields';
import {
  DEFAULT_UNITS,
  outOfRangeMessage,
  toCanonical,
  toInputValue,
  unitOf,
  type UnitSystem,
} from '../../../shared/units';

/** A form's values: text, a yes/no, or the persons a record is for (a list of ids). */
export type FormValues = Record<string, string | boolean | string[]>;

/**
 * A field's label in the form, in the language in force: a measure names the unit it is
 * typed in ('Weight (lb)').
 */
export function fieldLabel(field: FieldSpec, units: UnitSystem): string {
  const label = tr(field.label);
  if (!field.measure) return label;
  const symbol = unitOf(field.measure, units).symbol;
  return `${label} (${symbol === '/10' ? '0–10' : symbol})`;
}

const NUMBER = /^[-+]?\d*\.?\d+$/;

export function toFormValues(
  definition: RecordDefinition,
  record?: Record<string, unknown>,
  units: UnitSystem = DEFAULT_UNITS,
  now: Date = new Date(),
): FormValues {
  const values: FormValues = {};
  for (const [name, field] of Object.entries(definition.fields)) {
    const stored = record?.[name];
    if (field.kind === 'checkbox') values[name] = record ? Boolean(stored) : Boolean(field.initial);
    else if (field.kind === 'persons') values[name] = Array.isArray(stored) ? [...stored] : [];
    else if (field.kind === 'datetime')
      // A new entry of a moment that starts now: the present, to the minute, in local time.
      values[name] = toDateTimeLocalInput(
        record || !field.startsNow ? (stored as string | null) : now.toISOString(),
      );
    else if (field.measure)
      values[name] = typeof stored === 'number' ? toInputValue(field.measure, stored, units) : '';
    else if (record && field.kind === 'number')
      values[name] = typeof stored === 'number' ? String(stored) : '';
    else if (record) values[name] = typeof stored === 'string' ? stored : '';
    else values[name] = field.initial as string;
  }
  return values;
}

export function toPayload(
  definition: RecordDefinition,
  values: FormValues,
  units: UnitSystem = DEFAULT_UNITS,
): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(definition.fields)) {
    const value = values[name];
    if (field.kind === 'datetime' && typeof value === 'string') {
      payload[name] = fromDateTimeLocalInput(value);
    } else if (field.measure && typeof value === 'string') {
      const typed = value.trim().replace(',', '.');
      // What is no number goes as typed, for the schema to refuse by name.
      payload[name] =
        typed === ''
          ? null
          : NUMBER.test(typed)
            ? toCanonical(field.measure, Number(typed), units)
            : typed;
    } else payload[name] = value;
  }
  return payload;
}

/**
 * Checks the form with the definition's own schema, the one the server uses, and its dates
 * against the Date of Birth of the person chosen (as the server does).
 */
export function recordResolver(
  definition: RecordDefinition,
  personOf: (id: string) => BornPerson | undefined = () => undefined,
  units: UnitSystem = DEFAULT_UNITS,
): Resolver<FormValues, unknown, Record<string, unknown>> {
  return async (values) => {
    const parsed = definition.schema.safeParse(toPayload(definition, values, units));
    if (parsed.success) {
      const data = parsed.data as Record<string, unknown>;
      const memberId = data.family_member_id;
      const person = typeof memberId === 'string' ? personOf(memberId) : undefined;
      const issue = beforeBirthIssue(definition.fields, data, person);
      if (issue) {
        return {
          values: {},
          errors: { [issue.field]: { type: 'custom', message: issue.message } },
        };
      }
      return { values: toPayload(definition, values, units), errors: {} };
    }
    const errors: FieldErrors<FormValues> = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      if (!name || errors[name]) continue;
      // A measure out of its range is told in the units it was typed in.
      const field = definition.fields[name];
      const message =
        field?.measure && issue.message === outOfRangeMessage(field.label, field.measure, 'metric')
          ? outOfRangeMessage(field.label, field.measure, units)
          : issue.message;
      errors[name] = { type: issue.code, message };
    }
    return { values: {}, errors };
  };
}
