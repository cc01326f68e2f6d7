/**
 * What a record's form does, apart from how it looks: it opens empty, filled in from a link or
 * with the record to edit, starts on the person in view, fills in what a type fills, keeps
 * unsaved typing as a draft, and saves the record (and each repeated group as one more).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { sortMembersByName } from '../../../shared/family-members';
import { tr } from '../../../shared/i18n/translate';
import type {
  RecordDefinition,
  RecordInput,
  StoredRecord,
} from '../../../shared/records/definition';
import { ApiError } from '../../../shared/api-error';
import { showError, showSuccess } from '../../lib/toast';
import { draftKey } from '../../lib/drafts';
import { useSession } from '../auth/session';
import { useFamilyMembers } from '../family-members/family-member-queries';
import { personOfParams, useFamilyMemberOf, withPerson } from '../family-members/person-in-view';
import { sharedPersonLabel, useHousehold } from '../household/household-queries';
import { useUnits } from '../profile-settings/profile-queries';
import { recordResolver, toFormValues, type FormValues } from './form-values';
import { fillNote, useFormFill, type FormFill } from './form-fill';
import { listLocation, personOfRecord } from './list-location';
import { useRecord, useSaveRecord } from './record-queries';
import { groupPhrasesOf, translatedToast } from './record-phrases';
import {
  groupKeys,
  groupValues,
  unsavedRest,
  useRepeatGroups,
  withRepeatGroups,
  type RepeatGroup,
} from './repeat-groups';
import { inputId, type PersonChoice } from './record-field-controls';
import type { RecordFormFields } from './record-form-fields';
import { useUnsavedChanges } from './use-unsaved-changes';

/**
 * The labels of a type's fields, by name ('shot_name': 'Shot Name'), in the language in force:
 * the words a field's message starts with.
 */
const fieldLabels = (definition: RecordDefinition) =>
  Object.fromEntries(
    Object.entries(definition.fields).map(([name, field]) => [name, tr(field.label)]),
  );

export interface RecordFormOptions {
  definition: RecordDefinition;
  /**
   * Fields the form fills in from others, never over what the user typed: a hook, given
   * what the form holds (a lab result's range needs the chosen person's past results).
   */
  useFill: (values: FormValues) => FormFill | undefined;
  /** Fields a new record's form repeats, each group saved as one more record. */
  repeat?: RepeatGroup;
  /**
   * The type's list shows one person at a time (/vitals: the user's unless filtered): after
   * a save it shows the person saved for, filtered or not.
   */
  onePersonList: boolean;
}

/**
 * The form's save: the record, then each repeated group as one more record (those saved stay
 * saved when one fails); then the list or the record's page, unless the screen was left.
 */
function useRecordSubmit({
  definition,
  form,
  id,
  groups,
  save,
  unsaved,
  personInView,
  onePersonList,
  me,
  listPath,
}: {
  definition: RecordDefinition;
  form: UseFormReturn<FormValues, unknown, Record<string, unknown>>;
  id: string | undefined;
  groups: RepeatGroup | undefined;
  save: ReturnType<typeof useSaveRecord>;
  unsaved: ReturnType<typeof useUnsavedChanges>;
  personInView: string | undefined;
  onePersonList: boolean;
  me: string | undefined;
  listPath: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const editing = id !== undefined;
  // A save that waited for the network may finish after the screen was left: it goes through,
  // but does not take the user back to a list they have moved on from.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

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
  return submit;
}

export function useRecordForm({ definition, useFill, repeat, onePersonList }: RecordFormOptions) {
  const { t } = useTranslation();
  const { id } = useParams();
  const editing = id !== undefined;
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
  const repeated = useRepeatGroups(form, groups, values, (name) => inputId(definition, name));

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
  const listPath = `/${definition.path}`;
  const context = { definition, form, id, groups, save, unsaved };
  const submit = useRecordSubmit({ ...context, personInView, onePersonList, me, listPath });

  const fields: RecordFormFields = {
    form,
    values,
    units,
    members: membersByName,
    self,
    saved: record.data as Record<string, unknown> | undefined,
    fill,
    fillNote: fillNoteNow,
    groups,
    repeated,
  };
  return {
    id,
    editing,
    record,
    // The member picker must have its options before a saved member can be selected in it.
    pending: (editing && record.isPending) || members.isPending || household.isPending,
    personInView,
    listPath,
    save,
    submit,
    unsaved,
    fields,
  };
}
