/**
 * Between a record and its form: inputs hold strings and booleans (and the persons a record
 * is for, a list of ids); the API takes the definition's input. The only conversion is the visit time: the form holds local wall
 * time, the API a UTC timestamp.
 */
import type { FieldErrors, Resolver } from 'react-hook-form';
import { fromDateTimeLocalInput, toDateTimeLocalInput } from '../../../shared/dates';
import type { RecordDefinition } from '../../../shared/records/definition';
import { beforeBirthIssue, type BornPerson } from '../../../shared/records/fields';

/** A form's values: text, a yes/no, or the persons a record is for (a list of ids). */
export type FormValues = Record<string, string | boolean | string[]>;

export function toFormValues(
  definition: RecordDefinition,
  record?: Record<string, unknown>,
): FormValues {
  const values: FormValues = {};
  for (const [name, field] of Object.entries(definition.fields)) {
    const stored = record?.[name];
    if (field.kind === 'checkbox') values[name] = record ? Boolean(stored) : Boolean(field.initial);
    else if (field.kind === 'persons') values[name] = Array.isArray(stored) ? [...stored] : [];
    else if (field.kind === 'datetime')
      values[name] = toDateTimeLocalInput(stored as string | null);
    else if (record) values[name] = typeof stored === 'string' ? stored : '';
    else values[name] = field.initial as string;
  }
  return values;
}

export function toPayload(
  definition: RecordDefinition,
  values: FormValues,
): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(definition.fields)) {
    const value = values[name];
    payload[name] =
      field.kind === 'datetime' && typeof value === 'string'
        ? fromDateTimeLocalInput(value)
        : value;
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
): Resolver<FormValues, unknown, Record<string, unknown>> {
  return async (values) => {
    const parsed = definition.schema.safeParse(toPayload(definition, values));
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
      return { values: toPayload(definition, values), errors: {} };
    }
    const errors: FieldErrors<FormValues> = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      if (name && !errors[name]) errors[name] = { type: issue.code, message: issue.message };
    }
    return { values: {}, errors };
  };
}
