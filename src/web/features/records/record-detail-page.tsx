/**
 * The detail screen of every record type: its fields by label, an edit button, and a
 * delete that asks first and then returns to the list. A type adds its own badges or rows.
 */
import { Pencil, Trash2 } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { formatDate, LONG_DATE_FORMAT, LONG_DATE_TIME_FORMAT } from '../../../shared/dates';
import { key, tr } from '../../../shared/i18n/translate';
import {
  recordDateOf,
  type RecordDefinition,
  type StoredRecord,
} from '../../../shared/records/definition';
import type { FieldSpec } from '../../../shared/records/fields';
import { MemberBadge } from '../../components/member-badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Loading } from '../../components/ui/feedback';
import { ApiError } from '../../../shared/api-error';
import { RecordTypeIcon } from '../../components/record-type-icon';
import { showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { usePersonInView, withPerson } from '../family-members/person-in-view';
import { usePersonNames } from '../family-members/person-names';
import { useRecordOwnership } from '../household/household-queries';
import { PageHeader } from '../shell/page-header';
import { useUnits } from '../profile-settings/profile-queries';
import { DEFAULT_UNITS, formatMeasure, type UnitSystem } from '../../../shared/units';
import { listLocation } from './list-location';
import { RecordListPane } from './record-list-pane';
import { useWideScreen } from '../../lib/wide-screen';
import { useDeleteRecord, useRecord } from './record-queries';
import { choiceLabel, RECORD_PHRASES, translatedToast } from './record-phrases';
import { RecordDocuments } from '../documents/record-documents';
import { ImportedFromLine } from '../imports/imported-from';
import type { ImportedFrom } from '../../../shared/imports';

export interface DetailRow {
  /** A key of the catalogue ('Last changed by'), translated where it is shown. */
  label: string;
  value: ReactNode;
}

export interface DetailCustomisation<D extends RecordDefinition = RecordDefinition> {
  /** Fields the type shows its own way (or not at all). */
  hiddenFields?: readonly string[];
  /** Labels that read better on the detail screen than on the form (keys of the catalogue). */
  labels?: Readonly<Record<string, string>>;
  /** Rows the type adds after its fields. */
  extraRows?: (record: StoredRecord<D>) => DetailRow[];
  /** Badges under the title. */
  badges?: (record: StoredRecord<D>) => ReactNode;
  /** What the type shows below the record (a lab result's trend). */
  after?: (record: StoredRecord<D>) => ReactNode;
}

/** An email address or phone number to tap: a 44 px tall target on a phone, text-sized. */
function ContactLink({ href, children }: { href: string; children: string }) {
  return (
    <a
      className="-my-3 inline-flex min-h-11 items-center text-primary underline-offset-4 hover:underline"
      href={href}
    >
      {children}
    </a>
  );
}
/**
 * A stored value as the detail screen shows it, or null when there is nothing to show; a
 * choice by its label and a yes in the language in force.
 */
export function formatFieldValue(
  field: FieldSpec,
  value: unknown,
  units: UnitSystem = DEFAULT_UNITS,
): ReactNode {
  if (value === null || value === undefined || value === '') return null;
  switch (field.kind) {
    case 'number':
      return field.measure && typeof value === 'number'
        ? formatMeasure(field.measure, value, units)
        : String(value);
    case 'date':
      return formatDate(String(value), LONG_DATE_FORMAT);
    case 'datetime':
      return formatDate(String(value), LONG_DATE_TIME_FORMAT);
    case 'checkbox':
      return value ? tr('Yes') : null;
    case 'select':
      return choiceLabel(field, String(value));
    case 'email':
      return <ContactLink href={`mailto:${String(value)}`}>{String(value)}</ContactLink>;
    case 'tel':
      return <ContactLink href={`tel:${String(value)}`}>{String(value)}</ContactLink>;
    case 'textarea':
      return <span className="whitespace-pre-wrap">{String(value)}</span>;
    default:
      return String(value);
  }
}

/**
 * A record's page; from 1024 px wide with its type's list beside it (record-list-pane.tsx).
 */
export function RecordDetailPage<D extends RecordDefinition>(props: {
  definition: D;
  customisation?: DetailCustomisation<D>;
}) {
  const { definition } = props;
  const { id = '' } = useParams();
  const wide = useWideScreen();
  const record = useRecord(definition, id);
  // Opened from a list filtered to one person, the way back keeps them (and the record's tab).
  const [personInView] = usePersonInView();
  const backTo = listLocation(
    definition,
    record.data as Record<string, unknown> | undefined,
    personInView,
  );
  return (
    <>
      {wide ? <RecordListPane definition={definition} currentId={id} backTo={backTo} /> : null}
      <RecordDetail
        {...props}
        id={id}
        record={record}
        backTo={backTo}
        personInView={personInView}
      />
    </>
  );
}

function RecordDetail<D extends RecordDefinition>({
  definition,
  customisation = {},
  id,
  record,
  backTo,
  personInView,
}: {
  definition: D;
  customisation?: DetailCustomisation<D>;
  id: string;
  record: ReturnType<typeof useRecord<D>>;
  /** Where the back arrow goes: the record's list, its person and tab kept. */
  backTo: string;
  personInView: string | undefined;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteRecord(definition);
  const phrases = RECORD_PHRASES[definition.type];
  const ownership = useRecordOwnership();
  const user = useSession().data?.user;
  const me = user?.id;
  const personNames = usePersonNames();
  const units = useUnits();
  const [confirming, setConfirming] = useState(false);
  const listPath = `/${definition.path}`;
  const missing = record.error instanceof ApiError && record.error.status === 404;

  useEffect(() => {
    if (record.error && !missing) showError(tr(definition.messages.loadOneError), record.error);
  }, [record.error, missing, definition]);

  if (record.isPending) {
    return (
      <>
        <PageHeader title={t(phrases.details)} backTo={backTo} />
        <Loading />
      </>
    );
  }
  if (!record.data) {
    return (
      <>
        <PageHeader title={t(phrases.details)} backTo={backTo} />
        <Card className="p-6 text-center font-medium">
          {t(missing ? definition.messages.notFound : definition.messages.loadOneError)}
        </Card>
      </>
    );
  }

  const data = record.data;
  const values = data as Record<string, unknown>;
  const { shared, canChange } = ownership(data);
  const changedBy = data as { changed_by?: string | null; changed_by_name?: string | null };
  const hidden = new Set([definition.titleField, ...(customisation.hiddenFields ?? [])]);
  const titleField = definition.fields[definition.titleField];
  const rows: DetailRow[] = [];
  // The user's own record names them, as the form does ('Maria Garcia (you)').
  const person =
    data.family_member_name ??
    (data.user_id === me && user ? t('{name} (you)', { name: user.name }) : null);
  for (const [name, field] of Object.entries(definition.fields)) {
    if (hidden.has(name)) continue;
    const value =
      field.kind === 'member' ? (
        <MemberBadge name={person} color={data.family_member_color} />
      ) : field.kind === 'persons' ? (
        personNames(values[name] as string[] | undefined)
      ) : (
        formatFieldValue(field, values[name], units)
      );
    if (field.kind === 'member' ? person : value !== null) {
      rows.push({ label: customisation.labels?.[name] ?? field.label, value });
    }
  }
  rows.push(...(customisation.extraRows?.(data) ?? []));
  if (changedBy.changed_by && changedBy.changed_by !== me && changedBy.changed_by_name) {
    rows.push({ label: key('Last changed by'), value: changedBy.changed_by_name });
  }

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(id);
      setConfirming(false);
      showSuccess(translatedToast(definition.messages.deleted));
      navigate(backTo);
    } catch (error) {
      showError(t(definition.messages.deleteError), error);
    }
  };
  return (
    <>
      <PageHeader
        title={t(phrases.details)}
        backTo={backTo}
        actions={
          canChange ? (
            <Button
              variant="ghost"
              size="icon"
              aria-label={t(phrases.edit)}
              onClick={() => navigate(withPerson(`${listPath}/${id}/edit`, personInView))}
            >
              <Pencil aria-hidden="true" />
            </Button>
          ) : null
        }
      />
      {/* From 1024 px the record's documents are a column beside its details. */}
      <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_15rem] lg:items-start lg:gap-6">
        <div>
          <Card className="p-5">
            <div className="flex items-start gap-4">
              <RecordTypeIcon type={definition.type} size="lg" />
              <div className="min-w-0 flex-1">
                <h2 className="text-xl font-bold break-words">
                  {titleField && titleField.kind !== 'text'
                    ? formatFieldValue(titleField, values[definition.titleField])
                    : String(values[definition.titleField] ?? '')}
                </h2>
                <div className="mt-1.5 flex flex-wrap items-center gap-2">
                  {customisation.badges?.(data)}
                </div>
              </div>
            </div>
            {rows.length ? (
              <dl className="mt-5 divide-y divide-border border-t border-border">
                {rows.map((row) => (
                  <div
                    key={row.label}
                    className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4"
                  >
                    <dt className="text-sm font-medium text-muted-foreground">{t(row.label)}</dt>
                    {/* min-w-0: a grid cell is otherwise as wide as its longest word or link. */}
                    <dd className="min-w-0 wrap-anywhere">{row.value}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </Card>
          <ImportedFromLine
            from={(data as { imported_from?: ImportedFrom | null }).imported_from}
          />
          {customisation.after?.(data)}
          {shared ? (
            <p className="mt-3 text-sm text-muted-foreground">
              {canChange
                ? t('Shared with you by {name}.', { name: shared.ownerName })
                : t('Shared with you by {name}: you can view this record but not change it.', {
                    name: shared.ownerName,
                  })}
            </p>
          ) : null}
        </div>
        <RecordDocuments
          recordType={definition.path}
          recordId={id}
          // The record's person, as the upload names them: none for the user's own.
          personId={
            data.user_id === me
              ? (data.family_member_id ?? '')
              : (data.family_member_id ?? data.user_id)
          }
          recordDate={recordDateOf(definition, values)}
          canChange={canChange}
        />
      </div>
      {canChange ? (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="destructive" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" />
            {t(phrases.delete)}
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('Are you sure?')}
        description={t(phrases.deleteWarning)}
        confirmLabel={t('Delete')}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </>
  );
}
