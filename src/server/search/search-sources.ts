/**
 * What the search index is made of: one source per record type, read off its definition
 * (its title field, its searched fields, its date: shared/records/definition.ts), and the
 * documents (their title, type and the text read out of them, server/documents/text/document-text.ts).
 * A source names its table and columns; search-index-sync.ts makes the triggers that keep
 * the index beside every write from them, so a new record type is found with no other code.
 */
import { recordDefinitions } from '../../shared/records';
import {
  searchDateFieldOf,
  searchFieldsOf,
  type RecordDefinition,
} from '../../shared/records/definition';
import { DOCUMENTS_HEADING } from '../../shared/search';
import { MEASURES, UNIT_SYSTEMS, type UnitSpec } from '../../shared/units';

/** A unit a measure's value is written in, in the index: shown = (stored − offset) / factor. */
export interface SearchUnit {
  /**
   * The words of its symbol, written after the value ('kg', 'mmHg', 'mg dL' for mg/dL, 'C'
   * for °C); null for a symbol with no letters ('%', '/10').
   */
  symbol: string | null;
  factor: number;
  offset: number;
  decimals: number;
}

/** A measurement column, found by the words that name it and its value in every unit. */
export interface SearchMeasure {
  column: string;
  words: string;
  units: readonly SearchUnit[];
}

export interface SearchSource {
  /** The result's type: a record type ('visit'), or 'document'. */
  type: string;
  /** The heading its results are listed under. */
  heading: string;
  table: string;
  /** The URL segment of its screens: a result opens `/{path}/{id}`. */
  path: string;
  /** Its title's column; null: the title is the words of the measures a row holds. */
  titleColumn: string | null;
  /** The other columns whose text is searched. */
  columns: readonly string[];
  dateColumn: string | null;
  /** Whether its rows are about a person (and may be shared); contacts are the account's. */
  memberLinked: boolean;
  /** Text kept in another table, by the source row's id (a document's extracted text). */
  joined?: { table: string; key: string; column: string };
  /** Numbers searched by their names and values (vitals): decision 0047. */
  measures?: readonly SearchMeasure[];
}

/**
 * A symbol's letters and digits as words: what both engines' word splitting finds alike
 * (PostgreSQL's parser would keep 'mg/dL' whole, as a path).
 */
const symbolWords = (symbol: string) =>
  /\p{L}/u.test(symbol) ? (symbol.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ') : null;

/** The units a measure's value is written in: each system's, once each. */
function searchUnits(units: Record<string, UnitSpec>): SearchUnit[] {
  const seen = new Set<string>();
  return UNIT_SYSTEMS.flatMap((system) => {
    const unit = units[system]!;
    if (seen.has(unit.symbol)) return [];
    seen.add(unit.symbol);
    return [
      {
        symbol: symbolWords(unit.symbol),
        factor: unit.factor,
        offset: unit.offset ?? 0,
        decimals: unit.decimals,
      },
    ];
  });
}

/** The measures a definition's search names, with the units of each column's measure. */
function searchMeasures(definition: RecordDefinition): SearchMeasure[] {
  return Object.entries(definition.search?.measures ?? {}).map(([column, words]) => {
    const measure = definition.fields[column]?.measure;
    if (!measure) throw new Error(`search: ${definition.type}.${column} is not a measurement`);
    return { column, words, units: searchUnits(MEASURES[measure].units) };
  });
}

/** Every record type's source, from its definition. */
export const recordSearchSources: SearchSource[] = recordDefinitions.map((definition) => {
  const [title, ...columns] = searchFieldsOf(definition);
  const measures = searchMeasures(definition);
  return {
    type: definition.type,
    heading: definition.plural,
    table: definition.table,
    path: definition.path,
    titleColumn: measures.length ? null : (title ?? definition.titleField),
    columns,
    dateColumn: searchDateFieldOf(definition),
    memberLinked: definition.memberLinked,
    ...(measures.length ? { measures } : {}),
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
