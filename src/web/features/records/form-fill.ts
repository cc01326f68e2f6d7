/**
 * Fields a record form fills in from others: a shot's 'Shot Name' from its 'Vaccine', a lab
 * result's range from its test. A fill never overwrites what the user typed: a field is filled
 * only while it is empty or still holds what was filled before. And a fill waits for the user:
 * it acts once one of its inputs changed after the form opened, so opening an edit (or a draft)
 * changes nothing by itself.
 */
import { useEffect, useRef } from 'react';
import type { FormValues } from './form-values';

export interface FilledValues {
  /** The fields filled, by name. */
  values: Readonly<Record<string, string>>;
  /** Where the values come from, shown under `noteAfter` while the fields hold them. */
  note?: string;
}

export interface FormFill {
  /** What the fill reads, as one comparable text: it fills again when this changes. */
  inputs: (values: FormValues) => string;
  fill: (values: FormValues) => FilledValues;
  /** The field under which the fill's note is shown. */
  noteAfter?: string;
}

/** What a fill changes: each field still empty, or still holding what was filled before. */
export function fillChanges(
  current: Readonly<FormValues>,
  before: Readonly<Record<string, string>>,
  next: Readonly<Record<string, string>>,
): Record<string, string> {
  const changes: Record<string, string> = {};
  for (const [name, value] of Object.entries(next)) {
    const held = current[name] ?? '';
    if (typeof held !== 'string' || held === value) continue;
    if (held === '' || held === before[name]) changes[name] = value;
  }
  return changes;
}

/** The fill's note, while every field it fills holds what it filled (and one is not empty). */
export function fillNote(filled: FilledValues, current: Readonly<FormValues>): string | undefined {
  const entries = Object.entries(filled.values);
  const holds = entries.every(([name, value]) => (current[name] ?? '') === value);
  return holds && entries.some(([, value]) => value !== '') ? filled.note : undefined;
}

const sameValues = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([name, value]) => b[name] === value);

/**
 * Applies a fill as the form changes. `ready`: the form holds what it opened with (an edit's
 * record); what it holds then is what the fill starts from. It fills when one of its inputs
 * changes, or when what it would fill changes (its data arrived), once the user has changed
 * an input since the form opened.
 */
export function useFormFill(
  fill: FormFill | undefined,
  values: FormValues,
  ready: boolean,
  apply: (changes: Record<string, string>) => void,
) {
  const state = useRef<{ inputs: string; filled: Record<string, string>; touched: boolean }>(
    undefined,
  );
  useEffect(() => {
    if (!fill || !ready) return;
    const inputs = fill.inputs(values);
    const next = fill.fill(values).values;
    const seen = state.current;
    if (!seen) {
      state.current = { inputs, filled: { ...next }, touched: false };
      return;
    }
    const moved = seen.inputs !== inputs || !sameValues(seen.filled, next);
    const touched = seen.touched || seen.inputs !== inputs;
    const changes = touched && moved ? fillChanges(values, seen.filled, next) : {};
    state.current = { inputs, filled: { ...next }, touched };
    if (Object.keys(changes).length > 0) apply(changes);
  }, [fill, values, ready, apply]);
}
