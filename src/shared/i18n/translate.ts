/**
 * One way to translate, wherever a string is made: the web app's screens, the messages the
 * record definitions' fields give (in the browser and on the server alike), mail, the PDF.
 * `tr(key, values)` looks `key` (the English text, with `{name}` placeholders) up in the
 * catalogue of the language in force: the web app's chosen language, or on the server the
 * language of the request or the account a job works for (`runInLanguage`). English needs
 * no set-up, so code and tests that never choose a language read English.
 */
import i18next, { type i18n, type InitOptions, type TFunction } from 'i18next';
import englishAreas from './catalogues/en/index';
import { mergeAreas, type Catalogue } from './catalogue';
import { DEFAULT_LANGUAGE, languageOf, LANGUAGE_CODES, type LanguageCode } from './languages';

export type TranslationValues = Record<string, unknown> & { count?: number };

/**
 * Keys are whole English sentences: no key or namespace separators. Placeholders are
 * `{name}`, as CONTRACT writes them, and values are not HTML-escaped (React escapes).
 */
export const I18N_OPTIONS = {
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: LANGUAGE_CODES,
  load: 'currentOnly',
  keySeparator: false,
  nsSeparator: false,
  returnNull: false,
  returnEmptyString: false,
  interpolation: { prefix: '{', suffix: '}', escapeValue: false },
  initAsync: false,
} satisfies InitOptions;

export const ENGLISH_CATALOGUE: Catalogue = mergeAreas(englishAreas);

/** A language's instance with its catalogue (and English's, for its plural forms). */
export function createI18n(language: LanguageCode, catalogue: Catalogue): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    ...I18N_OPTIONS,
    lng: language,
    resources: {
      en: { translation: ENGLISH_CATALOGUE },
      ...(language === 'en' ? {} : { [language]: { translation: catalogue } }),
    },
  });
  return instance;
}

export interface Translator {
  readonly language: LanguageCode;
  readonly t: (key: string, values?: TranslationValues) => string;
}

export function translatorOf(instance: i18n, language: LanguageCode): Translator {
  const fixed: TFunction = instance.getFixedT(language);
  return { language, t: (key, values) => String(fixed(key, values ?? {})) };
}

const english = translatorOf(createI18n('en', ENGLISH_CATALOGUE), 'en');

let source: () => Translator = () => english;

/** Where `tr` finds the language in force: set once by the web app, and by the server. */
export function setTranslatorSource(next: () => Translator) {
  source = next;
}

export const englishTranslator = english;

/** The text of `key` in the language in force. */
export function tr(key: string, values?: TranslationValues): string {
  return source().t(key, values);
}

/**
 * `tr` for one piece of work that writes many strings from few keys and values (a calendar
 * feed's thousand events, 'Shot: MMR' over and over): each key with its values is translated
 * once, in the language in force when it was made. i18next takes some microseconds a call.
 */
export function trOnce(): typeof tr {
  const { t } = source();
  const written = new Map<string, string>();
  return (key, values) => {
    const id = values ? `${key}\u0000${JSON.stringify(values)}` : key;
    let text = written.get(id);
    if (text === undefined) {
      text = t(key, values);
      written.set(id, text);
    }
    return text;
  };
}

/** The language in force. */
export function currentLanguage(): LanguageCode {
  return source().language;
}

/** The locale dates and numbers are written in, for the language in force. */
export function currentLocale(): string {
  return languageOf(currentLanguage()).locale;
}

/**
 * Marks a string as a key for the catalogue where it is defined but translated later, where
 * it is shown (a record type's field label, a choice's label): `tr(label)` then finds it.
 */
export const key = <T extends string>(text: T): T => text;
