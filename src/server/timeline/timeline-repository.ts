/**
 * The timeline, built by the server in one query: the dated records of every timeline
 * type, newest first, a page at a time. Pages are keyed on (date, id), so the first page
 * costs the same however many records a user has.
 */
import { sql, type Kysely } from 'kysely';
import { timelineDefinitions, type TimelineDefinition } from '../../shared/records';
import type { TimelineEvent, TimelinePage } from '../../shared/timeline';
import {
  rowsInScope,
  scopeOf,
  scopeShape,
  scopeValues,
  type Access,
  type Scope,
} from '../access/scope';
import { prepareQuery, preparedShapes } from '../db/prepared-query';
import type { DB } from '../db/schema';
import { withPersonNames } from '../persons/person-columns';
import { vitalsNames } from '../vitals/vitals-names';

interface Cursor {
  date: string;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.date, cursor.id])).toString('base64url');
}

export function decodeCursor(value: string): Cursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      parsed[0].length <= 40 &&
      parsed[1].length <= 40
    ) {
      return { date: parsed[0], id: parsed[1] };
    }
  } catch {
    // An unreadable cursor is answered like any other bad query value.
  }
  return null;
}

interface TimelineValues extends Record<string, unknown> {
  cursorDate: string;
  cursorId: string;
  limit: number;
}

export function createTimelineRepository(db: Kysely<DB>) {
  /**
   * The page query of one shape: its scope's kinds of terms (the user's own, a shared
   * person's, one person's), first page or later. Each type and each term of the scope is a
   * part of its own, read in its own index order.
   */
  function buildPage(scope: Scope, afterCursor: boolean) {
    return (values: TimelineValues) => {
      const parts = timelineDefinitions.flatMap((definition) =>
        scope.map((term, index) => {
          const date = sql.ref(definition.timeline.dateField);
          let query = rowsInScope(db, definition.table, [term], termValues(values, index))
            .select([
              'id',
              sql<string>`${sql.lit(definition.type)}`.as('type'),
              sql<string>`${sql.ref(definition.titleField)}`.as('name'),
              sql<string>`${date}`.as('date'),
              'user_id',
              'family_member_id',
              markSource(definition).as('mark'),
            ])
            .where(date, 'is not', null);
          if (afterCursor) {
            query = query.where((eb) =>
              eb.or([
                eb(date, '<', values.cursorDate),
                eb.and([eb(date, '=', values.cursorDate), eb('id', '<', values.cursorId)]),
              ]),
            );
          }
          return query;
        }),
      );

      // Documents, on their Document Date, as one more part of the union.
      for (const [index, term] of scope.entries()) {
        let query = rowsInScope(db, 'documents', [term], termValues(values, index))
          .select([
            'id',
            sql<string>`${sql.lit('document')}`.as('type'),
            sql<string>`${sql.ref('title')}`.as('name'),
            sql<string>`${sql.ref('document_date')}`.as('date'),
            'user_id',
            'family_member_id',
            sql<string | null>`cast(null as text)`.as('mark'),
          ])
          .where('document_date', 'is not', null);
        if (afterCursor) {
          query = query.where((eb) =>
            eb.or([
              eb('document_date', '<', values.cursorDate),
              eb.and([eb('document_date', '=', values.cursorDate), eb('id', '<', values.cursorId)]),
            ]),
          );
        }
        parts.push(query as unknown as (typeof parts)[number]);
      }

      const [first, ...rest] = parts;
      if (!first) throw new Error('no record type is on the timeline');
      // One ORDER BY and LIMIT over the whole union: each part is read in its (owner, date,
      // id) index order and the parts are merged, so the database stops after one page
      // rather than sorting a page of every type and throwing most of them away.
      const page = rest
        .reduce((all, part) => all.unionAll(part), first)
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .limit(values.limit);
      const events = db
        .selectFrom(page.as('e'))
        .select(['e.id', 'e.type', 'e.name', 'e.date', 'e.user_id', 'e.family_member_id', 'e.mark'])
        .orderBy('e.date', 'desc')
        .orderBy('e.id', 'desc');
      return withPersonNames(events, scope, values, 'e');
    };
  }
  const pages = preparedShapes<TimelineValues, Record<string, unknown>>();

  return {
    async list(
      access: Access,
      options: { memberId?: string; cursor?: Cursor | null; limit: number },
    ): Promise<TimelinePage> {
      const scope = scopeOf(access, { memberLinked: true, personId: options.memberId });
      const afterCursor = Boolean(options.cursor);
      const page = pages(`${scopeShape(scope)}|${afterCursor}`, () =>
        prepareQuery(db, buildPage(scope, afterCursor)),
      );
      const rows = (await page({
        ...scopeValues(scope),
        cursorDate: options.cursor?.date ?? '',
        cursorId: options.cursor?.id ?? '',
        limit: options.limit + 1,
      })) as unknown as TimelineEvent[];

      const events = rows.slice(0, options.limit).map(withMark);
      await nameVitals(db, access.userId, events);
      const last = events.at(-1);
      return {
        events,
        next:
          rows.length > options.limit && last
            ? encodeCursor({ date: last.date, id: last.id })
            : null,
      };
    },
  };
}

/**
 * The fields a type's mark is read from, joined in one text column (every part of the union
 * has the same columns): a unit separator cannot be in a stored text, which refuses control
 * characters. Types without a mark give null.
 */
const SEPARATOR = '\u001f';
function markSource(definition: TimelineDefinition) {
  const fields = definition.timeline.mark?.fields;
  if (!fields?.length) return sql<string | null>`cast(null as text)`;
  const parts = fields.map((field) => sql`coalesce(${sql.ref(field)}, '')`);
  return sql<string | null>`${sql.join(parts, sql` || ${sql.lit(SEPARATOR)} || `)}`;
}

const markOfType = new Map<string, TimelineDefinition['timeline']['mark']>(
  timelineDefinitions.map((definition) => [definition.type, definition.timeline.mark]),
);

/**
 * The event's mark read from its source column, in place (a row is the query's own, fresh
 * object; copying each of a page's rows cost the timeline more than the mark itself). A type
 * without a mark, or a row without its source, has none: undefined, which the answer leaves out.
 */
function withMark(event: TimelineEvent): TimelineEvent {
  const mark = markOfType.get(event.type);
  const source = event.mark;
  if (!mark || typeof source !== 'string') {
    event.mark = undefined;
    return event;
  }
  const parts = source.split(SEPARATOR);
  const values = Object.fromEntries(
    mark.fields.map((field, index) => [field, parts[index] || null]),
  );
  event.mark = mark.of(values);
  return event;
}

/** The values of a scope's term `index`, named as a one-term scope reads them. */
function termValues(values: Record<string, unknown>, index: number): Record<string, unknown> {
  return { owner0: values[`owner${index}`], member0: values[`member${index}`] };
}

export type TimelineRepository = ReturnType<typeof createTimelineRepository>;

/** A vitals entry is named by its measures, in the reader's units (vitals-names.ts). */
async function nameVitals(db: Kysely<DB>, readerId: string, events: TimelineEvent[]) {
  const vitals = events.filter((event) => event.type === 'vital');
  const named = await vitalsNames(db, readerId, vitals);
  for (const event of vitals) {
    const found = named.get(event.id);
    if (found) event.name = found.name;
  }
}
