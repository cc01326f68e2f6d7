/**
 * The create and edit form of every record type, built from its definition. Create or
 * edit is decided by the id in the route; after saving, a create returns to the list and
 * an edit to the detail or the list, as the type says (SPEC.md §4).
 */
import { Fragment, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { sortMembersByName } from '../../../shared/family-members';
import { tr } from '../../../shared/i18n/translate';
import type { FieldSpec } from '../../../shared/records/fields';
import type {
  RecordDefinition,
  RecordInput,
  StoredRecord,
} from '../../../shared/records/definition';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import {
  FieldError,
  fieldErrorProps,
  FormField,
  PAIRED_FIELDS,
} from '../../components/ui/form-field';
import { Checkbox, Input, Select, Textarea } from '../../components/ui/input';
import { ApiError } from '../../../shared/api-error';
import { showError, showSuccess } from '../../lib/toast';
import { draftKey } from '../../lib/drafts';
import { useSession } from '../auth/session';
import { useFamilyMembers } from '../family-members/family-member-queries';
import { personOfParams, useFamilyMemberOf, withPerson } from '../family-members/person-in-view';
import { usePersons } from '../family-members/person-select';
import { sharedPersonLabel, useHousehold } from '../household/household-queries';
import { PageHeader } from '../shell/page-header';
import { useUnits } from '../profile-settings/profile-queries';
import { fieldLabel, recordResolver, toFormValues, type FormValues } from './form-values';
import { fillNote, useFormFill, type FormFill } from './form-fill';
import { listLocation, personOfRecord } from './list-location';
import { useRecord, useSaveRecord } from './record-queries';
import { groupPhrasesOf, RECORD_PHRASES, translatedToast } from './record-phrases';
import {
  groupFieldName,
  groupKeys,
  groupValues,
  unsavedRest,
  useRepeatGroups,
  withRepeatGroups,
  type RepeatGroup,
} from './repeat-groups';
import { useUnsavedChanges } from './use-unsaved-changes';

/** A person a record can be about: a member of the user's, or one shared with them to keep. */
interface PersonChoice {
  id: string;
  name: string;
}

/** How a type shows one of its fields, given what the form holds now. */
export type FieldPresence = 'shown' | 'required' | 'hidden';
export type FieldRule = (name: string, values: FormValues) => FieldPresence | undefined;

function inputId(definition: RecordDefinition, name: string) {
  return `${definition.type}-${name.replace(/_/g, '-')}`;
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

function FieldControl({
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
function PersonsControl({
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
function RepeatedGroup({
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

/** A form that fills nothing in. */
const noFill = (): FormFill | undefined => undefined;

/**
 * The labels of a type's fields, by name ('shot_name': 'Shot Name'), in the language in force:
 * the words a field's message starts with.
 */
const fieldLabels = (definition: RecordDefinition) =>
  Object.fromEntries(
    Object.entries(definition.fields).map(([name, field]) => [name, tr(field.label)]),
  );

/** Where the person of a record is chosen: first in every form. */
const isPersonField = (field: FieldSpec) => field.kind === 'member' || field.kind === 'persons';

export function RecordFormPage({
  definition,
  fieldRule,
  onePersonList = false,
  useFill = noFill,
  repeat,
}: {
  definition: RecordDefinition;
  fieldRule?: FieldRule;
  /**
   * Fields the form fills in from others, never over what the user typed: a hook, given
   * what the form holds (a lab result's range needs the chosen person's past results).
   */
  useFill?: (values: FormValues) => FormFill | undefined;
  /** Fields a new record's form repeats, each group saved as one more record. */
  repeat?: RepeatGroup;
  /**
   * The type's list shows one person at a time (/vitals: the user's unless filtered): after
   * a save it shows the person saved for, filtered or not.
   */
  onePersonList?: boolean;
}) {
  const { t } = useTranslation();
  const { id } = useParams();
  const editing = id !== undefined;
  const navigate = useNavigate();
  const phrases = RECORD_PHRASES[definition.type];
  const record = useRecord(definition, id);
  const members = useFamilyMembers();
  const save = useSaveRecord(definition);
  const household = useHousehold();
  const shared = useMemo(() => household.data?.received ?? [], [household.data]);
  const session = useSession();
  const units = useUnits();
  // The user's members by name, then the persons shared with them as Editor.
  const membersByName = useMemo<PersonChoice[]>(
    () => [
      ...sortMembersByName(members.data ?? []),
      ...shared
        .filter((person) => person.role === 'editor')
        .map((person) => ({ id: person.personId, name: sharedPersonLabel(person) })),
    ],
    [members.data, shared],
  );

  // A new record may come filled in from a link (?shot_name=…&vaccine_code=…): the
  // schedule's 'Record {vaccine} dose {n}'. Only the type's own fields are taken.
  const [searchParams] = useSearchParams();
  const resolver = recordResolver(
    definition,
    (memberId) => members.data?.find((member) => member.id === memberId),
    units,
  );
  const groups = editing ? undefined : repeat;
  const form = useForm<FormValues, unknown, Record<string, unknown>>({
    resolver: groups ? withRepeatGroups(resolver, groups, fieldLabels(definition)) : resolver,
    defaultValues: {
      ...toFormValues(definition),
      ...(editing
        ? {}
        : Object.fromEntries([...searchParams].filter(([name]) => name in definition.fields))),
    },
  });
  const values = useWatch({ control: form.control }) as FormValues;
  // The form holds what it opened with: a new one at once, an edit once its record is in.
  const [loaded, setLoaded] = useState(!editing);

  const me = session.data?.user.id;
  const self = session.data ? t('{name} (you)', { name: session.data.user.name }) : t('You');

  // The person in view of the list the form came from (`?person=`): a new record is theirs
  // until another is chosen, and the list the form returns to is filtered again.
  const personInView = personOfParams(searchParams);
  const memberField = Object.entries(definition.fields).find(
    ([, field]) => field.kind === 'member',
  )?.[0];
  const startsOn = useFamilyMemberOf(editing ? undefined : personInView);
  // Once, when the choices are known: a refetch later must not undo what the user chose.
  const preselected = useRef(false);
  useEffect(() => {
    if (startsOn === undefined || !memberField || preselected.current) return;
    preselected.current = true;
    form.resetField(memberField, { defaultValue: startsOn });
  }, [startsOn, memberField, form]);
  useEffect(() => {
    if (!record.data) return;
    const values = toFormValues(definition, record.data, units);
    // A record of an owner who shared themself is about that owner: their id is the person.
    if (me && record.data.user_id !== me && !record.data.family_member_id) {
      values.family_member_id = record.data.user_id;
    }
    form.reset(values);
    setLoaded(true);
  }, [record.data, definition, form, me, units]);

  // What the form fills in (a shot's name from its vaccine), once it holds what it opened with.
  const applyFill = useCallback(
    (changes: Record<string, string>) => {
      for (const [name, value] of Object.entries(changes)) {
        form.setValue(name, value, { shouldDirty: true });
      }
    },
    [form],
  );
  const fill = useFill(values);
  useFormFill(fill, values, loaded, applyFill);
  const fillNoteNow = fill ? fillNote(fill.fill(values), values) : undefined;

  // The extra groups (more shots of the same visit), in the order added.
  const {
    keys,
    add: addGroup,
    remove: removeGroup,
    addButton,
  } = useRepeatGroups(form, groups, values, (name) => inputId(definition, name));

  const unsaved = useUnsavedChanges({
    dirty: form.formState.isDirty,
    values,
    // Against what the form started from, so the restored typing counts as changes.
    restoreDraft: (draft) => form.reset(draft, { keepDefaultValues: true }),
    draftKey: me ? draftKey(me, definition.type, id) : undefined,
    ready: !editing || Boolean(record.data),
    noun: definition.noun.toLowerCase(),
    waiting: save.isPaused,
  });
  // A save that waited for the network may finish after the screen was left: it goes through,
  // but does not take the user back to a list they have moved on from.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const listPath = `/${definition.path}`;
  /** Where the list is after a save: the saved record's tab, for its person if filtered. */
  const listAfterSave = (saved: StoredRecord<RecordDefinition>) => {
    const person = personOfRecord(saved);
    const filtered = personInView !== undefined || (onePersonList && person !== me);
    return listLocation(definition, saved, filtered ? person : undefined);
  };
  const submit = form.handleSubmit(async (payload) => {
    // The extra groups, each one more record with the form's other values; read before the
    // first save, as the form holds them now.
    const typed = form.getValues();
    const extra = groups ? groupKeys(typed, groups) : [];
    try {
      const saved = await save.mutateAsync({
        id,
        input: payload as RecordInput<typeof definition>,
      });
      for (const [index, key] of extra.entries()) {
        try {
          await save.mutateAsync({
            input: { ...payload, ...groupValues(typed, groups!, key) } as RecordInput<
              typeof definition
            >,
          });
        } catch (error) {
          // Those saved stay saved; the form keeps the rest, to be sent again.
          const { set, remove } = unsavedRest(typed, groups!, extra, index + 1);
          form.unregister(remove);
          for (const [name, value] of Object.entries(set)) form.setValue(name, value);
          showError(
            t(groupPhrasesOf(groups!).partlySaved, {
              error: t(definition.messages.createError),
              count: index + 1,
            }),
            error,
          );
          return;
        }
      }
      unsaved.saved();
      const total = extra.length + 1;
      showSuccess(
        editing
          ? translatedToast(definition.messages.updated)
          : groups && total > 1
            ? {
                title: t(groupPhrasesOf(groups).saved, { count: total }),
                description: t(groupPhrasesOf(groups).savedDescription, { count: total }),
              }
            : translatedToast(definition.messages.created),
      );
      if (!mounted.current) return;
      navigate(
        editing && definition.afterEdit === 'detail'
          ? withPerson(`${listPath}/${saved.id}`, personInView)
          : listAfterSave(saved),
      );
    } catch (error) {
      showError(
        t(editing ? definition.messages.updateError : definition.messages.createError),
        error,
      );
      // A refusal about one field (a family member removed meanwhile) shows under that field.
      if (error instanceof ApiError && error.field && error.field in definition.fields) {
        form.setError(error.field, { message: error.message }, { shouldFocus: true });
      }
    }
  });

  const title = t(editing ? phrases.edit : phrases.create);
  const backTo = withPerson(editing ? `${listPath}/${id}` : listPath, personInView);
  // The member picker must have its options before a saved member can be selected in it.
  if ((editing && record.isPending) || members.isPending || household.isPending) {
    return (
      <>
        <PageHeader title={title} backTo={backTo} />
        <Loading />
      </>
    );
  }
  if (editing && record.error) {
    const missing = record.error instanceof ApiError && record.error.status === 404;
    return (
      <>
        <PageHeader title={title} backTo={withPerson(listPath, personInView)} />
        <Card className="p-6 text-center font-medium">
          {t(missing ? definition.messages.notFound : definition.messages.loadOneError)}
        </Card>
      </>
    );
  }

  const errors = form.formState.errors;
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

  /** One field, under its label, and the repeated groups after a group's last field. */
  const fieldBlock = (entry: [string, FieldSpec]) => {
    const [name, field] = entry;
    const id = inputId(definition, name);
    const required = field.required || fieldRule?.(name, values) === 'required';
    const error = errors[name]?.message;
    if (field.kind === 'persons') {
      const chosen = values[name];
      return (
        <PersonsControl
          key={name}
          id={id}
          field={field}
          value={Array.isArray(chosen) ? chosen : []}
          onChange={(personIds) => form.setValue(name, personIds, { shouldDirty: true })}
          error={error}
        />
      );
    }
    const control = (
      <FormField
        key={name}
        id={id}
        label={fieldLabel(field, units)}
        required={required}
        error={error}
      >
        <FieldControl
          id={id}
          name={name}
          field={field}
          required={required}
          error={error}
          register={form.register}
          members={membersByName}
          self={self}
          saved={(record.data as Record<string, unknown> | undefined)?.[name]}
          onSuggestion={(fills) => {
            for (const [filled, value] of Object.entries(fills)) {
              if (filled in definition.fields) form.setValue(filled, value, { shouldDirty: true });
            }
          }}
        />
        {name === fill?.noteAfter ? (
          // Where a filled value comes from, heard as it appears.
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {fillNoteNow}
          </p>
        ) : null}
      </FormField>
    );
    if (!groups || name !== groups.fields.at(-1)) return control;
    return (
      <Fragment key={name}>
        {control}
        {keys.map((key, index) => (
          <RepeatedGroup
            key={key}
            number={index + 2}
            group={groups}
            onRemove={() => removeGroup(key)}
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
                    members={membersByName}
                    self={self}
                  />
                </FormField>
              );
            })}
          </RepeatedGroup>
        ))}
        <Button ref={addButton} type="button" variant="outline" onClick={addGroup}>
          <Plus aria-hidden="true" />
          {t(groups.addLabel)}
        </Button>
      </Fragment>
    );
  };

  return (
    <>
      <PageHeader title={title} backTo={backTo} />
      {unsaved.restore}
      <Card className="p-5">
        <form onSubmit={submit} className="space-y-5" aria-label={title}>
          {blocks.map((block) => {
            if ('flags' in block) {
              return (
                <div
                  key={block.flags[0]?.[0]}
                  // A switch alone (Family History) takes the row, as the fields around it do.
                  className={
                    block.flags.length === 1 ? 'grid' : 'grid grid-cols-2 gap-2 sm:grid-cols-4'
                  }
                >
                  {block.flags.map(([name, field]) => (
                    <Checkbox
                      key={name}
                      id={inputId(definition, name)}
                      label={t(field.label)}
                      {...form.register(name)}
                    />
                  ))}
                </div>
              );
            }
            if ('pair' in block) {
              return (
                <div key={block.pair[0][0]} className={PAIRED_FIELDS}>
                  {block.pair.map(fieldBlock)}
                </div>
              );
            }
            return fieldBlock(block.field);
          })}
          {/* Always there, so a screen reader hears the notice the moment Save waits. */}
          <div role="status">
            {save.isPaused ? (
              <p className="rounded-xl bg-surface-muted p-3 text-sm font-medium">
                {t(phrases.savedOnline)}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Link to={backTo} className={buttonVariants({ variant: 'outline' })}>
              {t('Cancel')}
            </Link>
            <Button type="submit" disabled={save.isPending} className="sm:min-w-40">
              {save.isPending ? t('Saving...') : t(editing ? phrases.update : phrases.save)}
            </Button>
          </div>
        </form>
      </Card>
      {unsaved.confirm}
    </>
  );
}
