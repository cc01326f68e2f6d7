/**
 * Groups of fields a create form repeats, each making one more record of the same type with
 * the form's other fields (several shots given at one visit: a 'Vaccine' and a 'Shot Name'
 * per shot, one date, place and person). The extra groups live in the form's values under
 * `{field}__{key}`, so that a draft keeps them like any other field.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FieldErrors, Resolver, UseFormReturn } from 'react-hook-form';
import type { FormValues } from './form-values';

export interface RepeatGroup {
  /** The fields each group has its own of, in the form's order. */
  fields: readonly string[];
  /** The button that adds a group: 'Add another shot'. */
  addLabel: string;
  /** One record and several, in lower case: 'shot', 'shots'. */
  noun: string;
  plural: string;
}

const SEPARATOR = '__';

export const groupFieldName = (field: string, key: number) => `${field}${SEPARATOR}${key}`;

/** The keys of the extra groups a form's values hold, in the order they were added. */
export function groupKeys(values: Readonly<FormValues>, group: RepeatGroup): number[] {
  const first = group.fields[0];
  if (!first) return [];
  const prefix = `${first}${SEPARATOR}`;
  return Object.keys(values)
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

/** The key of a group added after these. */
export const nextGroupKey = (keys: readonly number[]) => Math.max(0, ...keys) + 1;

/** One extra group's values, under the fields' own names. */
export function groupValues(
  values: Readonly<FormValues>,
  group: RepeatGroup,
  key: number,
): Record<string, string> {
  return Object.fromEntries(
    group.fields.map((field) => {
      const value = values[groupFieldName(field, key)];
      return [field, typeof value === 'string' ? value : ''];
    }),
  );
}

/** How many records were saved, in words: '1 shot', '3 shots'. */
export const countOf = (group: RepeatGroup, count: number) =>
  `${count} ${count === 1 ? group.noun : group.plural}`;

/**
 * A create form's values once the first `saved` of its records went through and the rest did
 * not: the first unsaved group moves into the form's own fields (the form's first record was
 * saved), and the groups saved are taken out, so that sending the form again saves only what
 * was not. `keys` are the extra groups, in order; the form's own record is saved first.
 */
export function unsavedRest(
  values: Readonly<FormValues>,
  group: RepeatGroup,
  keys: readonly number[],
  saved: number,
): { set: Record<string, string>; remove: string[] } {
  const gone = keys.slice(0, saved);
  const first = keys[saved - 1];
  if (saved === 0 || first === undefined) return { set: {}, remove: [] };
  return {
    set: groupValues(values, group, first),
    remove: gone.flatMap((key) => group.fields.map((field) => groupFieldName(field, key))),
  };
}

type RecordResolver = Resolver<FormValues, unknown, Record<string, unknown>>;

/**
 * Checks each extra group as the record it makes (the form's values with the group's), and
 * names a refusal by the group's own field: 'Shot Name 2 is required' under 'Shot Name 2'.
 */
export function withRepeatGroups(
  resolver: RecordResolver,
  group: RepeatGroup,
  labels: Readonly<Record<string, string>>,
): RecordResolver {
  return async (values, context, options) => {
    const own = await resolver(values, context, options);
    const errors: FieldErrors<FormValues> = { ...own.errors };
    const keys = groupKeys(values, group);
    for (const [index, key] of keys.entries()) {
      const checked = await resolver(
        { ...values, ...groupValues(values, group, key) },
        context,
        options,
      );
      for (const field of group.fields) {
        const error = checked.errors[field];
        if (!error) continue;
        const label = labels[field] ?? field;
        const message = typeof error.message === 'string' ? error.message : '';
        errors[groupFieldName(field, key)] = {
          ...error,
          message: message.startsWith(label)
            ? `${label} ${index + 2}${message.slice(label.length)}`
            : message,
        };
      }
    }
    return Object.keys(errors).length > 0 ? { values: {}, errors } : own;
  };
}

/**
 * A form's extra groups: their keys in the order added, adding one (focus goes to its first
 * field) and removing one (focus goes back to the button that adds them).
 */
export function useRepeatGroups(
  form: Pick<
    UseFormReturn<FormValues, unknown, Record<string, unknown>>,
    'setValue' | 'unregister'
  >,
  groups: RepeatGroup | undefined,
  values: Readonly<FormValues>,
  fieldId: (name: string) => string,
) {
  const keys = useMemo(() => (groups ? groupKeys(values, groups) : []), [groups, values]);
  const [focusGroup, setFocusGroup] = useState<number>();
  useEffect(() => {
    if (!groups || focusGroup === undefined || !keys.includes(focusGroup)) return;
    const first = groups.fields[0];
    if (first) document.getElementById(fieldId(groupFieldName(first, focusGroup)))?.focus();
    setFocusGroup(undefined);
  }, [groups, focusGroup, keys, fieldId]);
  const addButton = useRef<HTMLButtonElement>(null);
  const add = () => {
    if (!groups) return;
    const key = nextGroupKey(keys);
    for (const field of groups.fields) {
      form.setValue(groupFieldName(field, key), '', { shouldDirty: true });
    }
    setFocusGroup(key);
  };
  const remove = (key: number) => {
    if (!groups) return;
    form.unregister(groups.fields.map((field) => groupFieldName(field, key)));
    addButton.current?.focus();
  };
  return { keys, add, remove, addButton };
}
