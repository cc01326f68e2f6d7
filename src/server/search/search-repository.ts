/**
 * Search over everything a request may read (CONTRACT.md §5 'Search'), by each engine's own
 * full-text index behind one interface: SQLite's FTS5 ranked by bm25, PostgreSQL's tsvector
 * ranked by ts_rank, the title weighted above the rest on both. Which entries a request
 * reaches is the access module's scope, inside the query: the user's own and those of the
 * persons shared with them (a contact, the account's own, never is).
 */
import { sql, type Kysely } from 'kysely';
import { DEFAULT_MEMBER_COLOR } from '../../shared/constants';
import { vitalDefinition } from '../../shared/records';
import {
  highlightSegments,
  snippetOf,
  type SearchAnswer,
  type SearchGroup,
  type SearchResult,
} from '../../shared/search';
import { rowsInScope, scopeOf, scopeShape, scopeValues, type Access } from '../access/scope';
import { prepareQuery, preparedShapes } from '../db/prepared-query';
import type { DB, Engine } from '../db/schema';
import { withPersonNames } from '../persons/person-columns';
import { vitalsNames, type NamedVitals } from '../vitals/vitals-names';
import { searchSources, type SearchSource } from './search-sources';

interface SearchValues extends Record<string, unknown> {
  match: string;
  limit: number;
  /** The request's user, whose own records (of no member) are named by their name. */
  me: string;
}

interface EntryRow {
  record_table: string;
  record_id: string;
  /** The record's owner (the user, or who shared its person). */
  user_id: string;
  title: string;
  body: string;
  record_date: string | null;
  family_member_name: string | null;
  family_member_color: string | null;
  /** The user's name on their own records (of no member), else null. */
  own_name: string | null;
}

/** The query an engine's full-text index is asked: every word, each as a prefix. */
export function engineQuery(engine: Engine, terms: readonly string[]): string {
  return engine === 'postgres'
    ? terms.map((term) => `${term}:*`).join(' & ')
    : terms.map((term) => `"${term}"*`).join(' ');
}

export interface SearchOptions {
  /** Keep to one person (the member filter). */
  memberId?: string;
  limit: number;
}

export function createSearchRepository(
  db: Kysely<DB>,
  engine: Engine,
  sources: readonly SearchSource[] = searchSources,
) {
  const byTable = new Map(sources.map((source) => [source.table, source]));
  const queries = preparedShapes<SearchValues, EntryRow>();

  function prepared(shape: string, scope: ReturnType<typeof scopeOf>) {
    return queries(shape, () =>
      prepareQuery(db, (v: SearchValues) => {
        const entries = rowsInScope(db, 'search_entries', scope, v, 'e').select([
          'e.record_table',
          'e.record_id',
          'e.user_id',
          'e.title',
          'e.body',
          'e.record_date',
        ]);
        const named = withPersonNames(entries, scope, v, 'e')
          .leftJoin('user as me', (join) =>
            join
              .onRef('me.id', '=', 'e.user_id')
              .on('e.family_member_id', 'is', null)
              .on('me.id', '=', v.me),
          )
          .select('me.name as own_name');
        if (engine === 'postgres') {
          const query = sql`to_tsquery('simple', ${v.match})`;
          return named
            .where(sql<boolean>`${sql.ref('e.document')} @@ ${query}`)
            .orderBy(sql`ts_rank(${sql.ref('e.document')}, ${query}, 1)`, 'desc')
            .orderBy('e.record_date', (order) => order.desc().nullsLast())
            .orderBy('e.id')
            .limit(v.limit) as never;
        }
        return named
          .innerJoin('search_text', 'search_text.rowid', 'e.id')
          .where(sql<boolean>`${sql.ref('search_text')} match ${v.match}`)
          .orderBy(sql`bm25(${sql.ref('search_text')}, 4.0, 1.0)`)
          .orderBy('e.record_date', (order) => order.desc().nullsLast())
          .orderBy('e.id')
          .limit(v.limit) as never;
      }),
    );
  }

  /** The text around the first of the terms in `text`, or '' when none is in it. */
  const snippetFor = (text: string, terms: readonly string[]) =>
    highlightSegments(text, terms).some((segment) => segment.match) ? snippetOf(text, terms) : '';

  function resultOf(
    row: EntryRow,
    source: SearchSource,
    terms: readonly string[],
    named: ReadonlyMap<string, NamedVitals>,
  ): SearchResult {
    // A vitals entry's index text holds its values in every unit system (decision 0047):
    // its result is named by its measures in the reader's units, and quotes its notes.
    const vitals =
      row.record_table === vitalDefinition.table ? named.get(row.record_id) : undefined;
    return {
      type: source.type,
      id: row.record_id,
      path: `/${source.path}/${row.record_id}`,
      title: vitals ? vitals.name : row.title,
      snippet: vitals ? snippetFor(vitals.notes ?? '', terms) : snippetFor(row.body, terms),
      date: row.record_date,
      person: row.own_name
        ? { name: row.own_name, color: DEFAULT_MEMBER_COLOR, you: true }
        : row.family_member_name
          ? { name: row.family_member_name, color: row.family_member_color, you: false }
          : null,
    };
  }

  return {
    /** The results for a query's words (see shared/search.ts searchTerms), grouped by type. */
    async search(
      access: Access,
      query: string,
      terms: readonly string[],
      options: SearchOptions,
    ): Promise<SearchAnswer> {
      if (terms.length === 0) return { query, terms: [...terms], groups: [] };
      const scope = scopeOf(access, { memberLinked: true, personId: options.memberId });
      const run = prepared(scopeShape(scope), scope);
      const rows = await run({
        ...scopeValues(scope),
        match: engineQuery(engine, terms),
        limit: options.limit,
        me: access.userId,
      });
      const named = await vitalsNames(
        db,
        access.userId,
        rows
          .filter((row) => row.record_table === vitalDefinition.table)
          .map((row) => ({ id: row.record_id, user_id: row.user_id })),
      );
      const groups = new Map<string, SearchGroup>();
      for (const row of rows) {
        const source = byTable.get(row.record_table);
        if (!source) continue;
        let group = groups.get(source.type);
        if (!group) {
          group = { type: source.type, heading: source.heading, results: [] };
          groups.set(source.type, group);
        }
        group.results.push(resultOf(row, source, terms, named));
      }
      return { query, terms: [...terms], groups: [...groups.values()] };
    },
  };
}

export type SearchRepository = ReturnType<typeof createSearchRepository>;
