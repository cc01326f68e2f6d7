/**
 * Search (CONTRACT.md §5 'Search'): the words of a query as both engines match them, the
 * answer's shape, and how a result's matching words are found for highlighting. Matching
 * ignores case and accents and takes each word as a prefix ('amox' finds Amoxicillin), the
 * same way on SQLite (FTS5, unicode61 with diacritics removed) and PostgreSQL (`simple`
 * tsvector of the unaccented text): see docs/decisions/0036-search.md.
 */
import { key, tr } from './i18n/translate';

/** The longest query read; more words than this are left out. */
export const MAX_QUERY_LENGTH = 200;
export const MAX_QUERY_TERMS = 8;
/** Results on /search, and in the box's list as one types. */
export const SEARCH_PAGE_LIMIT = 50;
export const SEARCH_PREVIEW_LIMIT = 6;

/** The heading of the documents' results. */
export const DOCUMENTS_HEADING = key('Documents');

export const noResultsMessage = (query: string) => tr('No results for "{query}"', { query });

/** A word's letters without accents or case: 'José' → 'jose', 'Ärzte' → 'arzte'. */
export function foldWord(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a query, folded, each matched as a prefix; none when it has no letters. */
export function searchTerms(query: string): string[] {
  const words = foldWord(query.slice(0, MAX_QUERY_LENGTH)).match(WORD) ?? [];
  return [...new Set(words)].slice(0, MAX_QUERY_TERMS);
}

export interface SearchResult {
  /** The record type ('visit', …) or 'document'. */
  type: string;
  id: string;
  /** Where the record's page is: `/visits/{id}`. */
  path: string;
  title: string;
  /** A piece of the record's other text around its first match, or ''. */
  snippet: string;
  /** The record's date (a date or a moment), when it has one. */
  date: string | null;
  /**
   * Whom the record is about: a member, a person shared with the user, or the user
   * themself (`you`, their own records of no member); null for an account's contacts.
   */
  person: { name: string; color: string | null; you: boolean } | null;
}

export interface SearchGroup {
  type: string;
  /** The heading: the type's plural ('Visits', …, 'Documents'). */
  heading: string;
  results: SearchResult[];
}

export interface SearchAnswer {
  query: string;
  terms: string[];
  /** Groups in the order of their best match, results best first. */
  groups: SearchGroup[];
}

export interface Segment {
  text: string;
  match: boolean;
}

/** A text cut into the words that match a term (as a prefix, folded) and the rest. */
export function highlightSegments(text: string, terms: readonly string[]): Segment[] {
  if (terms.length === 0) return text ? [{ text, match: false }] : [];
  const segments: Segment[] = [];
  let last = 0;
  for (const found of text.matchAll(WORD)) {
    const folded = foldWord(found[0]);
    if (!terms.some((term) => folded.startsWith(term))) continue;
    if (found.index > last) segments.push({ text: text.slice(last, found.index), match: false });
    segments.push({ text: found[0], match: true });
    last = found.index + found[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), match: false });
  return segments;
}

const SNIPPET_BEFORE = 40;
const SNIPPET_LENGTH = 160;

/** About a line of `text` around its first matching word, with ellipses where it was cut. */
export function snippetOf(text: string, terms: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return '';
  let at = 0;
  for (const found of flat.matchAll(WORD)) {
    const folded = foldWord(found[0]);
    if (terms.some((term) => folded.startsWith(term))) {
      at = found.index;
      break;
    }
  }
  let start = Math.max(0, at - SNIPPET_BEFORE);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    start = space >= 0 && space < at ? space + 1 : start;
  }
  const end = Math.min(flat.length, start + SNIPPET_LENGTH);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
