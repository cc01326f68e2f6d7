/**
 * The create and edit form of every record type, built from its definition. Create or
 * edit is decided by the id in the route; after saving, a create returns to the list and
 * an edit to the detail or the list, as the type says (SPEC.md §4).
 */
import { useEffect, useMemo } from 'react';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { sortMembersByName } from '../../../shared/family-members';
import type { FieldSpec } from '../../../shared/records/fields';
import type { RecordDefinition, RecordInput } from '../../../shared/records/definition';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Checkbox, Input, Select, Textarea } from '../../components/ui/input';
import { ApiError } from '../../../shared/api-error';
import { showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { useFamilyMembers } from '../family-members/family-member-queries';
import { sharedPersonLabel, useHousehold } from '../household/household-queries';
import { PageHeader } from '../shell/page-header';
import { recordResolver, toFormValues, type FormValues } from './form-values';
import { useRecord, useSaveRecord } from './record-queries';

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

function FieldControl({
  id,
  name,
  field,
  required,
  error,
  register,
  members,
  saved,
}: {
  id: string;
  name: string;
  field: FieldSpec;
  required: boolean;
  error?: string;
  register: UseFormRegister<FormValues>;
  members: readonly PersonChoice[];
  /** The value the record had when the form opened. */
  saved?: unknown;
}) {
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
    case 'select': {
      // A saved value the list does not offer (a code an import brought) stays choosable.
      const savedLabel =
        typeof saved === 'string' && !field.options?.some((option) => option.value === saved)
          ? field.describe?.(saved)
          : undefined;
      return (
        <Select {...common}>
          {typeof field.initial === 'string' && field.initial !== '' ? null : (
            <option value="">{field.emptyLabel ?? 'Select…'}</option>
          )}
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
          {savedLabel ? <option value={saved as string}>{savedLabel}</option> : null}
        </Select>
      );
    }
    case 'member':
      return (
        <Select {...common}>
          <option value="">None</option>
          {members.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </Select>
      );
    case 'email':
    case 'tel':
    case 'text':
      return (
        <Input
          type={field.kind}
          maxLength={field.maxLength}
          autoComplete={field.kind === 'email' ? 'email' : field.kind === 'tel' ? 'tel' : 'off'}
          {...common}
        />
      );
    case 'checkbox':
      return null;
  }
}

export function RecordFormPage({
  definition,
  fieldRule,
}: {
  definition: RecordDefinition;
  fieldRule?: FieldRule;
}) {
  const { id } = useParams();
  const editing = id !== undefined;
  const navigate = useNavigate();
  const record = useRecord(definition, id);
  const members = useFamilyMembers();
  const save = useSaveRecord(definition);
  const household = useHousehold();
  const shared = useMemo(() => household.data?.received ?? [], [household.data]);
  const session = useSession();
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
  const form = useForm<FormValues, unknown, Record<string, unknown>>({
    resolver: recordResolver(definition),
    defaultValues: {
      ...toFormValues(definition),
      ...(editing
        ? {}
        : Object.fromEntries([...searchParams].filter(([name]) => name in definition.fields))),
    },
  });
  const values = useWatch({ control: form.control }) as FormValues;

  const me = session.data?.user.id;
  useEffect(() => {
    if (!record.data) return;
    const values = toFormValues(definition, record.data);
    // A record of an owner who shared themself is about that owner: their id is the person.
    if (me && record.data.user_id !== me && !record.data.family_member_id) {
      values.family_member_id = record.data.user_id;
    }
    form.reset(values);
  }, [record.data, definition, form, me]);

  const listPath = `/${definition.path}`;
  const submit = form.handleSubmit(async (payload) => {
    try {
      const saved = await save.mutateAsync({
        id,
        input: payload as RecordInput<typeof definition>,
      });
      showSuccess(editing ? definition.messages.updated : definition.messages.created);
      navigate(editing && definition.afterEdit === 'detail' ? `${listPath}/${saved.id}` : listPath);
    } catch (error) {
      showError(editing ? definition.messages.updateError : definition.messages.createError, error);
    }
  });

  const title = `${editing ? 'Edit' : 'New'} ${definition.noun}`;
  const backTo = editing ? `${listPath}/${id}` : listPath;
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
        <PageHeader title={title} backTo={listPath} />
        <Card className="p-6 text-center font-medium">
          {missing ? definition.messages.notFound : definition.messages.loadOneError}
        </Card>
      </>
    );
  }

  const errors = form.formState.errors;
  const entries = Object.entries(definition.fields).filter(
    ([name]) => (fieldRule?.(name, values) ?? 'shown') !== 'hidden',
  );
  // Neighbouring yes/no fields (a medication's times of day) share one row.
  const blocks: Array<{ flags: [string, FieldSpec][] } | { field: [string, FieldSpec] }> = [];
  for (const entry of entries) {
    const last = blocks.at(-1);
    if (entry[1].kind === 'checkbox' && last && 'flags' in last) last.flags.push(entry);
    else if (entry[1].kind === 'checkbox') blocks.push({ flags: [entry] });
    else blocks.push({ field: entry });
  }

  return (
    <>
      <PageHeader title={title} backTo={backTo} />
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
                      label={field.label}
                      {...form.register(name)}
                    />
                  ))}
                </div>
              );
            }
            const [name, field] = block.field;
            const id = inputId(definition, name);
            const required = field.required || fieldRule?.(name, values) === 'required';
            const error = errors[name]?.message;
            return (
              <FormField key={name} id={id} label={field.label} required={required} error={error}>
                <FieldControl
                  id={id}
                  name={name}
                  field={field}
                  required={required}
                  error={error}
                  register={form.register}
                  members={membersByName}
                  saved={(record.data as Record<string, unknown> | undefined)?.[name]}
                />
              </FormField>
            );
          })}
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Link to={backTo} className={buttonVariants({ variant: 'outline' })}>
              Cancel
            </Link>
            <Button type="submit" disabled={save.isPending} className="sm:min-w-40">
              {save.isPending
                ? 'Saving...'
                : editing
                  ? `Update ${definition.noun}`
                  : `Save ${definition.noun}`}
            </Button>
          </div>
        </form>
      </Card>
    </>
  );
}
