/**
 * The address of a share link's viewer, and the language it opens in (CONTRACT §6: the
 * reader's language, chosen where the link is made). The language rides in the query, before
 * the fragment: `https://host/shl?lang=pt-BR#shlink:/…`. The `shlink:/` payload after `#`
 * stays a standard SMART Health Link, which any SHL viewer reads from the fragment.
 */
import { isLanguageCode, matchLanguage, type LanguageCode } from '../../shared/i18n/languages';
import { key } from '../../shared/i18n/translate';
import { encodeShlink, VIEWER_PATH, type ShlinkPayload } from '../../shared/shlink';

/** The query parameter that names the viewer's language. */
export const VIEWER_LANGUAGE_PARAM = 'lang';

/** The viewer URL on `origin` for `payload`, opening in `language` when one is given. */
export function viewerLink(
  origin: string,
  payload: ShlinkPayload,
  language?: LanguageCode | null,
): string {
  const query = language
    ? `?${new URLSearchParams({ [VIEWER_LANGUAGE_PARAM]: language }).toString()}`
    : '';
  return `${origin}${VIEWER_PATH}${query}#${encodeShlink(payload)}`;
}

/**
 * The language a link made in the app names for its viewer: the one chosen for the reader,
 * except English chosen in an English app: that link stays as links always were (nothing
 * before the fragment), and the reader's browser decides.
 */
export function linkLanguage(chosen: LanguageCode, appLanguage: LanguageCode): LanguageCode | null {
  return chosen === 'en' && appLanguage === 'en' ? null : chosen;
}

/**
 * The language the viewer speaks: the one its address names (the link's maker chose it for
 * the reader), else the browser's.
 */
export function viewerLanguage(search: string, browserLanguages: readonly string[]): LanguageCode {
  const named = new URLSearchParams(search).get(VIEWER_LANGUAGE_PARAM)?.trim();
  if (named && isLanguageCode(named)) return named;
  return matchLanguage([...(named ? [named] : []), ...browserLanguages]);
}

/**
 * The name the viewer gives the server for a reader who gave none, kept in English like
 * every name in the access log; the Share screen shows it in its own language.
 */
export const NOT_GIVEN = key('Not given');

/** A link's label as the Share screen makes it (share-link-queries.ts): stored as written. */
const RECORDS_LABEL_START = 'Health records of ';
export const recordsLabel = (personName: string) => `${RECORDS_LABEL_START}${personName}`;

/** The person a records label names, or null for another label. */
export function recordsLabelName(label: string): string | null {
  return label.startsWith(RECORDS_LABEL_START) ? label.slice(RECORDS_LABEL_START.length) : null;
}
