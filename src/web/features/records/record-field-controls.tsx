/**
 * The controls of a record's form, one per kind of field (text, date, select, member…), the
 * persons a record is for as checkboxes, and one more group of a repeated form.
 */
import { type ReactNode } from 'react';
import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { type UseFormRegister } from 'react-hook-form';
import type { FieldSpec } from '../../../shared/records/fields';
import type { RecordDefinition } from '../../../shared/records/definition';
import { Button } from '../../components/ui/button';
import { FieldError, fieldErrorProps } from '../../components/ui/form-field';
import { Checkbox, Input, Select, Textarea } from '../../components/ui/input';
import { usePersons } from '../family-members/person-select';
import type { FormValues } from './form-values';
import { groupPhrasesOf } from './record-phrases';
import type { RepeatGroup } from './repeat-groups';

/** A person a record can be about: a member of the user's, or one shared with them to keep. */
export interface PersonChoice {
  id: string;
  name: string;
}

export function inputId(definition: RecordDefinition, name: string) {
  return `${definition.type}-${name.replace(/_/g, '-')}`;
}

export function FieldControl({
  id,
  name,
  field,
  required,
  error,
  register,
  members,
  self,
  saved,
  onSuggestion,
}: {
  id: string;
  name: string;
  field: FieldSpec;
  required: boolean;
  error?: string;
  register: UseFormRegister<FormValues>;
  members: readonly PersonChoice[];
  /** The account holder, as the member select offers them: '{full name} (you)'. */
  self: string;
  /** The value the record had when the form opened. */
  saved?: unknown;
  /** A text with suggestions changed: what it fills in the form (its code, its unit). */
  onSuggestion?: (fills: Readonly<Record<string, string>>) => void;
}) {
  const { t } = useTranslation();
  const common = {
    id,
    required,
    ...fieldErrorProps(id, error),
    ...register(name),
  };
  switch (field.kind) {
    case 'textarea':
      return <Textarea rows={field.rows ?? 4} maxLength={field.maxLength} {...common} />;
    case 'date':
      return <Input type="date" {...common} />;
    case 'datetime':
      return <Input type="datetime-local" {...common} />;
    case 'number':
      return <Input type="text" inputMode="decimal" autoComplete="off" {...common} />;
    case 'select': {
      // A saved value the list does not offer (a code an import brought) stays choosable.
      const savedLabel =
        typeof saved === 'string' && !field.options?.some((option) => option.value === saved)
          ? field.describe?.(saved)
          : undefined;
      return (
        <Select {...common}>
          {typeof field.initial === 'string' && field.initial !== '' ? null : (
            <option value="">{field.emptyLabel ? t(field.emptyLabel) : t('Select…')}</option>
          )}
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {t(option.label)}
            </option>
          ))}
          {savedLabel ? <option value={saved as string}>{savedLabel}</option> : null}
        </Select>
      );
    }
    case 'member':
      return (
        <Select {...common}>
          {/* The record is the user's own: CONTRACT.md §2 names them here, where 'None' was. */}
          <option value="">{self}</option>
          {members.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </Select>
      );
    case 'email':
    case 'tel':
    case 'text': {
      const suggest = field.suggest;
      if (suggest) {
        const registered = common;
        return (
          <>
            <Input
              type="text"
              maxLength={field.maxLength}
              autoComplete="off"
              list={`${id}-suggestions`}
              {...registered}
              onChange={(event) => {
                void registered.onChange(event);
                const typed = event.target.value.trim().toLowerCase();
                const chosen = suggest.options.find((o) => o.value.toLowerCase() === typed);
                onSuggestion?.(chosen ? chosen.fills : { [suggest.codeField]: '' });
              }}
            />
            <datalist id={`${id}-suggestions`}>
              {suggest.options.map((option) => (
                <option key={option.value} value={option.value} />
              ))}
            </datalist>
          </>
        );
      }
      return (
        <Input
          type={field.kind}
          maxLength={field.maxLength}
          autoComplete={field.kind === 'email' ? 'email' : field.kind === 'tel' ? 'tel' : 'off'}
          {...common}
        />
      );
    }
    case 'checkbox':
    case 'persons':
      return null;
  }
}

/**
 * The persons a record is for, as labelled checkboxes in a group named by the field ('Cares
 * For'): the account holder, then each member; none ticked is the whole family.
 */
export function PersonsControl({
  id,
  field,
  value,
  onChange,
  error,
}: {
  id: string;
  field: FieldSpec;
  value: readonly string[];
  onChange: (personIds: string[]) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const persons = usePersons();
  const toggle = (personId: string, on: boolean) =>
    onChange(
      persons
        .map((person) => person.id)
        .filter((candidate) => (candidate === personId ? on : value.includes(candidate))),
    );
  return (
    <fieldset
      // Named by its legend, as a labelled control is found by its label ('Cares For').
      aria-labelledby={`${id}-label`}
      aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
      className="space-y-2"
    >
      <legend id={`${id}-label`} className="mb-1.5 text-sm font-medium">
        {t(field.label)}
      </legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {persons.map((person) => (
          <Checkbox
            key={person.id}
            id={`${id}-${person.id}`}
            label={person.label}
            checked={value.includes(person.id)}
            onChange={(event) => toggle(person.id, event.target.checked)}
          />
        ))}
      </div>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {/* The whole family is shared/records/fields.ts's WHOLE_FAMILY. */}
        {value.length === 0
          ? t('Whole family: no one is ticked.')
          : t('Untick everyone for the whole family.')}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}

/** One more group of a repeated form ('Shot 2'): its fields and a button that removes it. */
export function RepeatedGroup({
  number,
  group,
  onRemove,
  children,
}: {
  number: number;
  group: RepeatGroup;
  onRemove: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const phrases = groupPhrasesOf(group);
  const name = t(phrases.heading, { number });
  const remove = t(phrases.remove, { number });
  return (
    <fieldset className="space-y-4 rounded-xl border border-border p-3">
      <legend className="px-1 text-sm font-semibold">{name}</legend>
      {children}
      <Button type="button" variant="ghost" onClick={onRemove}>
        <Trash2 aria-hidden="true" />
        {remove}
      </Button>
    </fieldset>
  );
}
