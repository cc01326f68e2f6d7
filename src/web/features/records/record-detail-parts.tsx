/**
 * What a record's detail screen is made of: a type's customisation, each stored value as the
 * screen shows it, the rows of fields by label, and the card that holds the title and rows.
 */
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, LONG_DATE_FORMAT, LONG_DATE_TIME_FORMAT } from '../../../shared/dates';
import { key, tr } from '../../../shared/i18n/translate';
import type { RecordDefinition, StoredRecord } from '../../../shared/records/definition';
import type { FieldSpec } from '../../../shared/records/fields';
import { DEFAULT_UNITS, formatMeasure, type UnitSystem } from '../../../shared/units';
import { MemberBadge } from '../../components/member-badge';
import { RecordTypeIcon } from '../../components/record-type-icon';
import { Card } from '../../components/ui/card';
import { choiceLabel } from './record-phrases';

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

/** Who reads the rows, and how: the signed-in user, names of persons, units. */
interface RowReader {
  t: TFunction;
  user: { id: string; name: string } | undefined;
  personNames: (ids: string[] | undefined) => ReactNode;
  units: UnitSystem;
}

/**
 * The record's rows in the definition's order, those with nothing to show left out, then the
 * type's own rows and who last changed it (when that was someone else).
 */
export function detailRows<D extends RecordDefinition>(
  definition: D,
  customisation: DetailCustomisation<D>,
  data: StoredRecord<D>,
  { t, user, personNames, units }: RowReader,
): DetailRow[] {
  const me = user?.id;
  const values = data as Record<string, unknown>;
  const changedBy = data as { changed_by?: string | null; changed_by_name?: string | null };
  const hidden = new Set([definition.titleField, ...(customisation.hiddenFields ?? [])]);
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
  return rows;
}

/** The record's card: its type's icon, its title and badges, then its rows by label. */
export function RecordSummaryCard<D extends RecordDefinition>({
  definition,
  data,
  badges,
  rows,
}: {
  definition: D;
  data: StoredRecord<D>;
  badges: ReactNode;
  rows: DetailRow[];
}) {
  const { t } = useTranslation();
  const values = data as Record<string, unknown>;
  const titleField = definition.fields[definition.titleField];
  return (
    <Card className="p-5">
      <div className="flex items-start gap-4">
        <RecordTypeIcon type={definition.type} size="lg" />
        <div className="min-w-0 flex-1">
          <h2 className="text-xl font-bold break-words">
            {titleField && titleField.kind !== 'text'
              ? formatFieldValue(titleField, values[definition.titleField])
              : String(values[definition.titleField] ?? '')}
          </h2>
          <div className="mt-1.5 flex flex-wrap items-center gap-2">{badges}</div>
        </div>
      </div>
      {rows.length ? (
        <dl className="mt-5 divide-y divide-border border-t border-border">
          {rows.map((row) => (
            <div key={row.label} className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
              <dt className="text-sm font-medium text-muted-foreground">{t(row.label)}</dt>
              {/* min-w-0: a grid cell is otherwise as wide as its longest word or link. */}
              <dd className="min-w-0 wrap-anywhere">{row.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </Card>
  );
}
