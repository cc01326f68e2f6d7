/**
 * The fields of a record's form, in rows: the person first, then the type's fields in their
 * order; neighbouring yes/no fields share a row, so do the type's pairs at a desk, and a
 * repeated group's added groups and button follow the group's last field.
 */
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { UseFormReturn } from 'react-hook-form';
import type { UnitSystem } from '../../../shared/units';
import type { FieldSpec } from '../../../shared/records/fields';
import type { RecordDefinition } from '../../../shared/records/definition';
import { Button } from '../../components/ui/button';
import { FormField, PAIRED_FIELDS } from '../../components/ui/form-field';
import { Checkbox } from '../../components/ui/input';
import { fieldLabel, type FormValues } from './form-values';
import type { FormFill } from './form-fill';
import {
  FieldControl,
  inputId,
  PersonsControl,
  RepeatedGroup,
  type PersonChoice,
} from './record-field-controls';
import { groupFieldName, type RepeatGroup, type useRepeatGroups } from './repeat-groups';

/** How a type shows one of its fields, given what the form holds now. */
export type FieldPresence = 'shown' | 'required' | 'hidden';
export type FieldRule = (name: string, values: FormValues) => FieldPresence | undefined;

/** What every field of the form reads: the form, what it holds, who can be chosen. */
export interface RecordFormFields {
  form: UseFormReturn<FormValues, unknown, Record<string, unknown>>;
  values: FormValues;
  units: UnitSystem;
  members: readonly PersonChoice[];
  /** The account holder, as the member select offers them: '{full name} (you)'. */
  self: string;
  /** The record as it was when the form opened (an edit's). */
  saved: Record<string, unknown> | undefined;
  fill: FormFill | undefined;
  /** Where a filled value comes from, shown under the fill's field. */
  fillNote: string | undefined;
  /** A new record's repeated fields, and the groups added so far. */
  groups: RepeatGroup | undefined;
  repeated: ReturnType<typeof useRepeatGroups>;
}

/** A row of the form: yes/no fields together, one field, or a pair side by side at a desk. */
type Block =
  | { flags: [string, FieldSpec][] }
  | { field: [string, FieldSpec] }
  | { pair: [[string, FieldSpec], [string, FieldSpec]] };

/**
 * Whether `second`, right after `first` in the form, shares its row at a desk: the type pairs
 * them, and neither is where a repeated group's added fields and button go.
 */
function pairsWith(
  definition: RecordDefinition,
  first: string,
  second: string,
  groups: RepeatGroup | undefined,
): boolean {
  const last = groups?.fields.at(-1);
  if (last !== undefined && (first === last || second === last)) return false;
  return (definition.pairs ?? []).some(([a, b]) => a === first && b === second);
}

/** Where the person of a record is chosen: first in every form. */
const isPersonField = (field: FieldSpec) => field.kind === 'member' || field.kind === 'persons';

/** The form's rows, of the fields the type shows now. */
function formBlocks(
  definition: RecordDefinition,
  fieldRule: FieldRule | undefined,
  values: FormValues,
  groups: RepeatGroup | undefined,
): Block[] {
  // The person comes first in every form (issue 33.3), then the type's fields in their order.
  const entries = [
    ...Object.entries(definition.fields).filter(([, field]) => isPersonField(field)),
    ...Object.entries(definition.fields).filter(([, field]) => !isPersonField(field)),
  ].filter(([name]) => (fieldRule?.(name, values) ?? 'shown') !== 'hidden');
  // Neighbouring yes/no fields (a medication's times of day) share one row; so do the type's
  // pairs at a desk, when both are shown and no repeated group follows the first.
  const blocks: Block[] = [];
  for (const entry of entries) {
    const last = blocks.at(-1);
    if (entry[1].kind === 'checkbox' && last && 'flags' in last) last.flags.push(entry);
    else if (entry[1].kind === 'checkbox') blocks.push({ flags: [entry] });
    else if (last && 'field' in last && pairsWith(definition, last.field[0], entry[0], groups))
      blocks[blocks.length - 1] = { pair: [last.field, entry] };
    else blocks.push({ field: entry });
  }
  return blocks;
}

interface FieldsProps {
  definition: RecordDefinition;
  fieldRule?: FieldRule;
  fields: RecordFormFields;
}

/** The groups added after a repeated group's last field ('Shot 2'…), and the button to add one. */
function RepeatedGroups({ definition, fields }: Omit<FieldsProps, 'fieldRule'>) {
  const { t } = useTranslation();
  const { form, units, members, self, groups, repeated } = fields;
  if (!groups) return null;
  const errors = form.formState.errors;
  return (
    <>
      {repeated.keys.map((key, index) => (
        <RepeatedGroup
          key={key}
          number={index + 2}
          group={groups}
          onRemove={() => repeated.remove(key)}
        >
          {groups.fields.map((groupField) => {
            const spec = definition.fields[groupField];
            if (!spec) return null;
            const fieldName = groupFieldName(groupField, key);
            const fieldId = inputId(definition, fieldName);
            const fieldError = errors[fieldName]?.message;
            return (
              <FormField
                key={groupField}
                id={fieldId}
                label={`${fieldLabel(spec, units)} ${index + 2}`}
                required={spec.required}
                error={fieldError}
              >
                <FieldControl
                  id={fieldId}
                  name={fieldName}
                  field={spec}
                  required={spec.required}
                  error={fieldError}
                  register={form.register}
                  members={members}
                  self={self}
                />
              </FormField>
            );
          })}
        </RepeatedGroup>
      ))}
      <Button ref={repeated.addButton} type="button" variant="outline" onClick={repeated.add}>
        <Plus aria-hidden="true" />
        {t(groups.addLabel)}
      </Button>
    </>
  );
}

/** One field, under its label, and the repeated groups after a group's last field. */
function RecordField({
  definition,
  fieldRule,
  fields,
  entry,
}: FieldsProps & { entry: [string, FieldSpec] }) {
  const { form, values, units, members, self, saved, fill, groups } = fields;
  const [name, field] = entry;
  const id = inputId(definition, name);
  const required = field.required || fieldRule?.(name, values) === 'required';
  const error = form.formState.errors[name]?.message;
  if (field.kind === 'persons') {
    const chosen = values[name];
    return (
      <PersonsControl
        id={id}
        field={field}
        value={Array.isArray(chosen) ? chosen : []}
        onChange={(personIds) => form.setValue(name, personIds, { shouldDirty: true })}
        error={error}
      />
    );
  }
  const control = (
    <FormField id={id} label={fieldLabel(field, units)} required={required} error={error}>
      <FieldControl
        id={id}
        name={name}
        field={field}
        required={required}
        error={error}
        register={form.register}
        members={members}
        self={self}
        saved={saved?.[name]}
        onSuggestion={(fills) => {
          for (const [filled, value] of Object.entries(fills)) {
            if (filled in definition.fields) form.setValue(filled, value, { shouldDirty: true });
          }
        }}
      />
      {name === fill?.noteAfter ? (
        // Where a filled value comes from, heard as it appears.
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {fields.fillNote}
        </p>
      ) : null}
    </FormField>
  );
  if (!groups || name !== groups.fields.at(-1)) return control;
  return (
    <>
      {control}
      <RepeatedGroups definition={definition} fields={fields} />
    </>
  );
}

/** The form's fields, row by row. */
export function RecordFields({ definition, fieldRule, fields }: FieldsProps) {
  const { t } = useTranslation();
  const blocks = formBlocks(definition, fieldRule, fields.values, fields.groups);
  return blocks.map((block) => {
    if ('flags' in block) {
      return (
        <div
          key={block.flags[0]?.[0]}
          // A switch alone (Family History) takes the row, as the fields around it do.
          className={block.flags.length === 1 ? 'grid' : 'grid grid-cols-2 gap-2 sm:grid-cols-4'}
        >
          {block.flags.map(([name, field]) => (
            <Checkbox
              key={name}
              id={inputId(definition, name)}
              label={t(field.label)}
              {...fields.form.register(name)}
            />
          ))}
        </div>
      );
    }
    const field = (entry: [string, FieldSpec]) => (
      <RecordField
        key={entry[0]}
        definition={definition}
        fieldRule={fieldRule}
        fields={fields}
        entry={entry}
      />
    );
    if ('pair' in block) {
      return (
        <div key={block.pair[0][0]} className={PAIRED_FIELDS}>
          {block.pair.map(field)}
        </div>
      );
    }
    return field(block.field);
  });
}
