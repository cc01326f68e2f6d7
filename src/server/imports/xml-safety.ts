/**
 * XML is read only when it cannot reach outside itself or grow past its size (decision
 * 0054): what comes before a file's first element (its prologue) is checked before any
 * parser sees the file. Entity declarations (the billion laughs) and a document type that
 * names an outside file (XXE) are refused everywhere. A C-CDA never has a DOCTYPE, so one is
 * refused outright; Apple Health's `export.xml` always opens with one that declares its
 * elements and attributes, and only that (no entity, no outside id) is let through.
 */
import { key } from '../../shared/i18n/translate';

export const XML_REFUSED = key(
  'This file declares XML entities or a document type, which Kin Health does not read (they can hide an attack)',
);

/** A prologue longer than this is refused: Apple's own is under 20 kB. */
export const MAX_PROLOGUE_CHARS = 1024 * 1024;

export type DoctypeRule = 'none' | 'declarations-only';

/** The prologue of a file's text: everything before its first element's start tag. */
export function prologueOf(text: string): string | null {
  const start = /<[A-Za-z_]/.exec(text);
  return start ? text.slice(0, start.index) : null;
}

/**
 * Why a file with this prologue is refused, or null when it may be parsed. `text` is at
 * least the prologue (the start of the file; a prologue not ended within MAX_PROLOGUE_CHARS
 * is refused).
 */
export function xmlRefusal(text: string, rule: DoctypeRule): string | null {
  const prologue = prologueOf(text.slice(0, MAX_PROLOGUE_CHARS));
  if (prologue === null) return XML_REFUSED;
  if (/<!ENTITY/i.test(prologue)) return XML_REFUSED;
  const doctype = /<!DOCTYPE\s+[^\s[>]+\s*([^[>]*)/i.exec(prologue);
  if (!doctype) return null;
  if (rule === 'none') return XML_REFUSED;
  // An outside id (SYSTEM or PUBLIC) points the parser at a file or address to fetch.
  if (/\b(SYSTEM|PUBLIC)\b/i.test(doctype[1] ?? '')) return XML_REFUSED;
  // A parameter entity reference pulls declarations in from elsewhere.
  if (/%[A-Za-z_][\w.-]*;/.test(prologue)) return XML_REFUSED;
  return null;
}
