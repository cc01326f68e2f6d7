/**
 * The declarative definition of a record type. One definition per type drives the whole
 * stack: the zod schema (form and API), the owner-scoped repository, the API routes, the
 * typed client, the generic list/detail/form screens and the timeline.
 */
import { z } from 'zod';
import { BODY_NOT_OBJECT } from '../api-error';
import { tr } from '../i18n/translate';
import type { RecordTable, RecordType } from './catalogue';
import type { FieldSpec } from './fields';

export type { RecordTable, RecordType };

export type FieldMap = Record<string, FieldSpec>;

export interface OrderTerm<C extends string = string> {
  column: C;
  direction: 'asc' | 'desc';
  /** Where rows without a value go; SQL's own default differs between engines. */
  nulls?: 'first' | 'last';
  /** Compare letters without regard to case, the same way on every engine. */
  caseInsensitive?: boolean;
}

/**
 * A tab of a list, split at the present: a visit is upcoming from now on, a shot after today.
 * `now` is the server's clock; `today` is the browser's calendar date, sent with the request.
 * A list's two tabs split at the same point: one `>=` and the other `<`, or `>` and `<=`.
 */
export interface ListView<C extends string = string> {
  column: C;
  comparison: '>=' | '>' | '<' | '<=';
  against: 'now' | 'today';
  /** Whether rows with no value in `column` belong to this view. */
  includesEmpty: boolean;
  order: readonly OrderTerm<C>[];
}

export interface Toast {
  title: string;
  description?: string;
}

export interface TimelineSpec<C extends string = string> {
  dateField: C;
  /** A word the event shows beside its name ('High'), from these fields of the record. */
  mark?: {
    fields: readonly C[];
    of: (values: Readonly<Record<string, string | null>>) => string | null;
  };
}

/** Two fields, the second right after the first in the form, shown side by side at a desk. */
export type FieldPair<C extends string = string> = readonly [C, C];

export interface RecordMessages {
  created: Toast;
  updated: Toast;
  deleted: Toast;
  createError: string;
  updateError: string;
  deleteError: string;
  loadListError: string;
  loadOneError: string;
  notFound: string;
}

export interface RecordDefinition<F extends FieldMap = FieldMap, Out = unknown> {
  type: RecordType;
  table: RecordTable;
  menu?: { title: string; description: string };
  addNew: boolean;
  /** The URL segment of the screens (`/visits`) and of the API (`/api/visits`). */
  path: string;
  /** 'Visit', as a title and in buttons. */
  noun: string;
  /** 'Visits', as the list's heading. */
  plural: string;
  /** The field that names one record (its card title, its timeline event name). */
  titleField: string;
  fields: F;
  /** The input schema: every field's own rule, plus the type's cross-field rules. */
  schema: z.ZodType<Out, unknown>;
  /** Whether records of this type belong to a family member (contacts do not). */
  memberLinked: boolean;
  /** The order of the full list (SPEC.md §7). */
  order: readonly OrderTerm[];
  /** Tabs of the list, when it has any. */
  views?: Readonly<Record<string, ListView>>;
  /** Which date puts a record on the timeline, and what mark its event carries. */
  timeline?: TimelineSpec;
  /** Where the form goes after saving an edit (SPEC.md §4). */
  afterEdit: 'detail' | 'list';
  /**
   * Neighbouring fields that belong together (a start and an end date, a range's low and
   * high): from 1024 px wide the form shows each pair side by side, in the same order.
   */
  pairs?: readonly FieldPair[];
  /**
   * Columns of the record's row that no form field writes, kept by an action of their own
   * (a medication's `pack_size`, set by 'Refilled'). Read with the record; an edit leaves them.
   */
  keptColumns?: readonly string[];
  messages: RecordMessages;
  /**
   * What search finds a record by (CONTRACT.md §5 Search): its title field and these fields.
   * Without it, every text and textarea field; the index follows the definition on its own
   * (server/search/search-sources.ts), so a new type needs nothing else to be found.
   */
  search?: {
    fields: readonly string[];
    dateField?: string;
    /**
     * Measurement fields, found by the words that name them (the column's words here: 'Blood
     * Pressure BP Systolic') and by their values in every unit system ('72.5 kg', '159.8
     * lb'). A type with them is titled in the index by the names of the measures a record
     * holds, not by its title field (decision 0047).
     */
    measures?: Readonly<Record<string, string>>;
  };
}

const SEARCHED_KINDS = new Set(['text', 'textarea']);

/** The fields search reads of a type's records, its title field first. */
export function searchFieldsOf(definition: RecordDefinition): string[] {
  const declared =
    definition.search?.fields ??
    Object.entries(definition.fields)
      .filter(([, field]) => SEARCHED_KINDS.has(field.kind))
      .map(([name]) => name);
  return [definition.titleField, ...declared.filter((name) => name !== definition.titleField)];
}

/**
 * The date a record is known by: the one a search result shows and a document attached to
 * it is dated by (CONTRACT §6), the timeline's, else the type's first date field.
 */
export function searchDateFieldOf(definition: RecordDefinition): string | null {
  if (definition.search?.dateField) return definition.search.dateField;
  if (definition.timeline) return definition.timeline.dateField;
  const dated = Object.entries(definition.fields).find(
    ([, field]) => field.kind === 'date' || field.kind === 'datetime',
  );
  return dated ? dated[0] : null;
}

/** A record's date (see searchDateFieldOf), or null when its type or the record has none. */
export function recordDateOf(
  definition: RecordDefinition,
  record: Readonly<Record<string, unknown>>,
): string | null {
  const field = searchDateFieldOf(definition);
  const value = field ? record[field] : null;
  return typeof value === 'string' && value ? value : null;
}

type SchemaShape<F extends FieldMap> = { [K in keyof F]: F[K]['schema'] };

/** The object schema of a field map, each field checked by its own rule. */
export function objectSchema<F extends FieldMap>(fields: F): z.ZodObject<SchemaShape<F>> {
  const shape = Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [name, field.schema]),
  ) as SchemaShape<F>;
  return z.object(shape, { error: () => tr(BODY_NOT_OBJECT) });
}

/** What a client sends to create or replace a record (before validation). */
export type RecordInput<D extends RecordDefinition> = z.input<D['schema']>;
/** The validated values of a record's own fields. */
export type RecordValues<D extends RecordDefinition> = z.output<D['schema']>;

/** A record as the API returns it: its fields plus identity, owner, member and times. */
export type StoredRecord<D extends RecordDefinition> = RecordValues<D> & {
  id: string;
  user_id: string;
  family_member_id?: string | null;
  family_member_name: string | null;
  family_member_color: string | null;
  created_at: string;
  updated_at: string;
};

export interface RecordPage<R> {
  items: R[];
  /** Offset of the next page, or null on the last one. */
  next: number | null;
  /** How many records each view holds (or `all`, for a type without views). */
  counts: Record<string, number>;
}

/** Column names in a definition must be names of its fields; this is checked here, once. */
type CheckedColumns<F extends FieldMap> = {
  titleField: keyof F & string;
  order: readonly OrderTerm<keyof F & string>[];
  views?: Readonly<Record<string, ListView<keyof F & string>>>;
  timeline?: TimelineSpec<keyof F & string>;
  pairs?: readonly FieldPair<keyof F & string>[];
  search?: {
    fields: readonly (keyof F & string)[];
    dateField?: keyof F & string;
    measures?: Readonly<Partial<Record<keyof F & string, string>>>;
  };
};

export function defineRecord<F extends FieldMap, Out, V extends string = never>(
  definition: RecordDefinition<F, Out> &
    CheckedColumns<F> & { views?: Readonly<Record<V, ListView<keyof F & string>>> },
): RecordDefinition<F, Out> & { views: [V] extends [never] ? undefined : Record<V, ListView> } {
  return definition as RecordDefinition<F, Out> & {
    views: [V] extends [never] ? undefined : Record<V, ListView>;
  };
}

/** The messages of a type whose create/update/delete toasts follow one sentence pattern. */
export function standardMessages(
  noun: string,
  pluralLower: string,
  verbs: { created: 'created' | 'added'; deletedDescription: 'deleted' | 'removed' },
): RecordMessages {
  const lower = noun.toLowerCase();
  const capitalised = noun;
  const toast = (verb: string, period: boolean): Toast => ({
    title: `${capitalised} ${verb}`,
    description: `The ${lower} has been ${verb} successfully${period ? '.' : ''}`,
  });
  const isAdded = verbs.created === 'added';
  return {
    created: toast(verbs.created, isAdded),
    updated: toast('updated', isAdded),
    deleted:
      verbs.deletedDescription === 'removed'
        ? {
            title: `${capitalised} deleted`,
            description: `The ${lower} has been removed successfully.`,
          }
        : toast('deleted', false),
    createError: isAdded ? `Error adding ${lower}` : `Error saving ${lower}`,
    updateError: isAdded ? `Error updating ${lower}` : `Error saving ${lower}`,
    deleteError: `Error deleting ${lower}`,
    loadListError: `Error loading ${pluralLower}`,
    loadOneError: `Error loading ${lower}`,
    notFound: `${capitalised} not found`,
  };
}
