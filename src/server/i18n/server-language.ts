/**
 * The language the server speaks (CONTRACT §6 'Languages'): a request's own (the web app
 * sends its language as Accept-Language on every call), or, for work done for an account
 * outside any request (a reminder, a mail, a PDF), the language `runInLanguage` names. The
 * language in force lives in an AsyncLocalStorage, so `tr()` anywhere under it (an error
 * message, a validation message the shared schemas make, a mail) answers in it; outside it,
 * English.
 *
 * Every language's catalogue is loaded once (`startServerLanguages`), at the server's start
 * and at a worker thread's: each has one translator, shared by every request.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareHandler } from 'hono';
import { loadServerCatalogue, type Catalogue } from '../../shared/i18n/catalogue';
import {
  acceptedLanguages,
  isLanguageCode,
  LANGUAGES,
  matchLanguage,
  type LanguageCode,
} from '../../shared/i18n/languages';
import {
  createI18n,
  englishTranslator,
  setTranslatorSource,
  translatorOf,
  type Translator,
} from '../../shared/i18n/translate';
import { PSEUDO_LOCALE_TAG, pseudoTranslator } from '../../shared/i18n/pseudo';

/** A language, or the pseudo-locale a request may ask for (src/shared/i18n/pseudo.ts). */
type Speech = LanguageCode | typeof PSEUDO_LOCALE_TAG;

const storage = new AsyncLocalStorage<Speech>();
const translators = new Map<Speech, Translator>([['en', englishTranslator]]);
const catalogues = new Map<LanguageCode, Catalogue>();

function translatorFor(code: Speech | undefined): Translator {
  return (code && translators.get(code)) ?? englishTranslator;
}

setTranslatorSource(() => translatorFor(storage.getStore()));

let loading: Promise<void> | undefined;

/** Loads every language's catalogue, once per process (or thread): later calls wait for it. */
export function startServerLanguages(): Promise<void> {
  loading ??= Promise.all(
    LANGUAGES.filter(({ code }) => code !== 'en').map(async ({ code }) => {
      const catalogue = await loadServerCatalogue(code);
      catalogues.set(code, catalogue);
      const instance = createI18n(code, catalogue);
      translators.set(code, translatorOf(instance, code));
    }),
  )
    .then(async () => {
      translators.set(PSEUDO_LOCALE_TAG, await pseudoTranslator());
    })
    .then(() => {
      // Set again: a module that set its own source (a test's) gives way to the server's.
      setTranslatorSource(() => translatorFor(storage.getStore()));
    });
  return loading;
}

/** Runs `fn` in language `code` (a job for an account: its language); an unknown code is English. */
export function runInLanguage<T>(code: string | null | undefined, fn: () => T): T {
  return storage.run(isLanguageCode(code) ? code : 'en', fn);
}

/** The language in force here, as stored (English outside any request or job). */
export function languageInForce(): LanguageCode {
  const speech = storage.getStore();
  return speech && isLanguageCode(speech) ? speech : 'en';
}

/**
 * A message made elsewhere, in the language in force when the catalogue has it (a constant
 * marked with `key('…')` where it is defined, a shared message): as it is otherwise (already
 * translated where it was made, or words the catalogue does not know).
 */
export function translateMessage(message: string): string {
  const speech = storage.getStore();
  if (speech === PSEUDO_LOCALE_TAG) return translatorFor(speech).t(message);
  const code = languageInForce();
  if (code === 'en' || !catalogues.get(code)?.[message]) return message;
  return translatorFor(code).t(message);
}

/** The product's language for an Accept-Language header (English when it names none of them). */
export function languageOfHeader(header: string | null | undefined): LanguageCode {
  return matchLanguage(acceptedLanguages(header));
}

/**
 * Every request runs in its Accept-Language's language (the web app sends its own), once the
 * catalogues are loaded.
 */
export function requestLanguage(): MiddlewareHandler {
  let loaded = false;
  const ready = startServerLanguages().then(() => {
    loaded = true;
  });
  const run = (header: string | undefined, next: () => Promise<void>) =>
    // The pseudo-locale, asked for by name only (a translator's and a test's view).
    header === PSEUDO_LOCALE_TAG
      ? storage.run(PSEUDO_LOCALE_TAG, next)
      : runInLanguage(languageOfHeader(header), next);
  // Once the catalogues are in, a request goes straight on (no wait for a settled promise).
  return (c, next) => {
    const header = c.req.header('accept-language');
    return loaded ? run(header, next) : ready.then(() => run(header, next));
  };
}
