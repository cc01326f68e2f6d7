/**
 * The languages the product speaks (CONTRACT §6 'Languages'), each named in itself, with the
 * locale its dates and numbers follow and the direction its script is written in.
 */

export const LANGUAGES = [
  { code: 'en', name: 'English', locale: 'en-US', dir: 'ltr' },
  { code: 'es', name: 'Español', locale: 'es-ES', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', locale: 'de-DE', dir: 'ltr' },
  { code: 'fr', name: 'Français', locale: 'fr-FR', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', locale: 'pt-BR', dir: 'ltr' },
  { code: 'zh-CN', name: '中文（简体）', locale: 'zh-CN', dir: 'ltr' },
  { code: 'ru', name: 'Русский', locale: 'ru-RU', dir: 'ltr' },
  // Western digits: the numbers a record holds are typed, printed on lab reports and shown by
  // devices in them, and a reading must look the same in the form and on the page (decision 0066).
  { code: 'ar', name: 'العربية', locale: 'ar-u-nu-latn', dir: 'rtl' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_CODES = LANGUAGES.map((language) => language.code) as [
  LanguageCode,
  ...LanguageCode[],
];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGE_CODES as readonly string[]).includes(value);
}

/** A language the product speaks, or the default (English) for anything else. */
export function languageOrDefault(value: unknown): LanguageCode {
  return isLanguageCode(value) ? value : DEFAULT_LANGUAGE;
}

export function languageOf(code: LanguageCode): Language {
  return LANGUAGES.find((language) => language.code === code) ?? LANGUAGES[0];
}

/**
 * The product's language for a list of BCP 47 tags in order of preference (the browser's
 * `navigator.languages`, an Accept-Language header): an exact match first, then the same
 * language in another region ('pt-PT' reads Português (Brasil), 'zh-TW' 中文（简体）), else English.
 */
export function matchLanguage(tags: readonly string[]): LanguageCode {
  for (const tag of tags) {
    const wanted = tag.trim().toLowerCase();
    if (!wanted) continue;
    const exact = LANGUAGES.find((language) => language.code.toLowerCase() === wanted);
    if (exact) return exact.code;
    const base = wanted.split('-')[0];
    const sameLanguage = LANGUAGES.find((language) => language.code.split('-')[0] === base);
    if (sameLanguage) return sameLanguage.code;
  }
  return DEFAULT_LANGUAGE;
}

/** The tags of an Accept-Language header, most wanted first. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), weight: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}
