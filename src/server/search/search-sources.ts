/**
 * What the search index is made of: one source per record type, read off its definition
 * (its title field, its searched fields, its date: shared/records/definition.ts), and the
 * documents (their title, type and the text read out of them, server/search/document-text).
 * A source names its table and columns; search-index-sync.ts makes the triggers that keep
 * the index beside every write from them, so a new record type is found with no other code.
 */
import { recordDefinitions } from '../../shared/records';
import { searchDateFieldOf, searchFieldsOf } from '../../shared/records/definition';
import { DOCUMENTS_HEADING } from '../../shared/search';

export interface SearchSource {
  /** The result's type: a record type ('visit'), or 'document'. */
  type: string;
  /** The heading its results are listed under. */
  heading: string;
  table: string;
  /** The URL segment of its screens: a result opens `/{path}/{id}`. */
  path: string;
  titleColumn: string;
  /** The other columns whose text is searched. */
  columns: readonly string[];
  dateColumn: string | null;
  /** Whether its rows are about a person (and may be shared); contacts are the account's. */
  memberLinked: boolean;
  /** Text kept in another table, by the source row's id (a document's extracted text). */
  joined?: { table: string; key: string; column: string };
}

/** Every record type's source, from its definition. */
export const recordSearchSources: SearchSource[] = recordDefinitions.map((definition) => {
  const [title, ...columns] = searchFieldsOf(definition);
  return {
    type: definition.type,
    heading: definition.plural,
    table: definition.table,
    path: definition.path,
    titleColumn: title ?? definition.titleField,
    columns,
    dateColumn: searchDateFieldOf(definition),
    memberLinked: definition.memberLinked,
  };
});

/**
 * The documents (issue #37 with the documents of the issue before it): their title, type
 * and text. The index is made for it once the `documents` table exists (the sync skips a
 * source whose tables are not there yet), so it is listed here already.
 */
export const documentSearchSource: SearchSource = {
  type: 'document',
  heading: DOCUMENTS_HEADING,
  table: 'documents',
  path: 'documents',
  titleColumn: 'title',
  columns: ['document_type'],
  dateColumn: 'document_date',
  memberLinked: true,
  joined: { table: 'document_texts', key: 'document_id', column: 'text' },
};

export const searchSources: readonly SearchSource[] = [
  ...recordSearchSources,
  documentSearchSource,
];

export const sourceByTable: ReadonlyMap<string, SearchSource> = new Map(
  searchSources.map((source) => [source.table, source]),
);
