/**
 * The language the server speaks (CONTRACT §6 'Languages'): a request's own (the web app
 * sends its language as Accept-Language on every call), or, for work done for an account
 * outside any request (a reminder, a mail, a PDF), the language `runInLanguage` names. The
 * language in force lives in an AsyncLocalStorage, so `tr()` anywhere under it (an error
 * message, a validation message the shared schemas make, a mail) answers in it; outside it,
 * English.
 *
 * A language's catalogue is loaded when it is first spoken (`languageReady`): by the first
 * request that asks for it, or the first job for an account that chose it. Each then has one
 * translator, shared by every request, for the life of the process (or thread). The seven
 * catalogues other than English hold about 17 MB of a process's heap once loaded, which a
 * server whose families speak one or two of them does not carry (issue 57, item 3).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareHandler } from 'hono';
import { loadServerCatalogue, type Catalogue } from '../../shared/i18n/catalogue';
import {
  acceptedLanguages,
  languageOrDefault,
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

const loading = new Map<Speech, Promise<void>>();

async function loadSpeech(speech: Speech): Promise<void> {
  if (speech === PSEUDO_LOCALE_TAG) {
    translators.set(PSEUDO_LOCALE_TAG, await pseudoTranslator());
  } else {
    const catalogue = await loadServerCatalogue(speech);
    catalogues.set(speech, catalogue);
    translators.set(speech, translatorOf(createI18n(speech, catalogue), speech));
  }
  // Set again: a module that set its own source (a test's) gives way to the server's.
  setTranslatorSource(() => translatorFor(storage.getStore()));
}

/**
 * Loads a language's catalogue, once per process (or thread): later calls wait for the same
 * load. English, and a code the product does not speak (spoken as English), need none. A load
 * that fails is tried again by the next call.
 */
export function languageReady(code: string | null | undefined): Promise<void> {
  const speech: Speech = code === PSEUDO_LOCALE_TAG ? code : languageOrDefault(code);
  if (translators.has(speech)) return Promise.resolve();
  let load = loading.get(speech);
  if (!load) {
    load = loadSpeech(speech).catch((error: unknown) => {
      loading.delete(speech);
      throw error;
    });
    loading.set(speech, load);
  }
  return load;
}

/** The languages whose catalogues this process (or thread) holds now, English first. */
export function languagesLoaded(): string[] {
  return [...translators.keys()];
}

/** Loads every language's catalogue (tests that speak them all, one after another). */
export async function startServerLanguages(): Promise<void> {
  await Promise.all([
    ...LANGUAGES.map(({ code }) => languageReady(code)),
    languageReady(PSEUDO_LOCALE_TAG),
  ]);
}

/**
 * Runs `fn` in language `code`, whose catalogue is loaded (`languageReady`; a request's
 * language is, by `requestLanguage`); an unknown code is English. A language not loaded is
 * a fault of the caller, refused here rather than answered in English.
 */
export function runInLanguage<T>(code: string | null | undefined, fn: () => T): T {
  const language = languageOrDefault(code);
  if (!translators.has(language)) {
    throw new Error(`The words of '${language}' are not loaded: await languageReady first`);
  }
  return storage.run(language, fn);
}

/** Runs `fn` in language `code` (a job for an account: its language), its catalogue loaded first. */
export async function inLanguage<T>(
  code: string | null | undefined,
  fn: () => T,
): Promise<Awaited<T>> {
  await languageReady(code);
  return await runInLanguage(code, fn);
}

/** The language in force here, as stored (English outside any request or job). */
export function languageInForce(): LanguageCode {
  return languageOrDefault(storage.getStore());
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
 * Every request runs in its Accept-Language's language (the web app sends its own), its
 * catalogue loaded by the first request that asks for it.
 */
export function requestLanguage(): MiddlewareHandler {
  return (c, next) => {
    const header = c.req.header('accept-language');
    // The pseudo-locale, asked for by name only (a translator's and a test's view).
    const speech: Speech = header === PSEUDO_LOCALE_TAG ? header : languageOfHeader(header);
    // Once its catalogue is in, a request goes straight on (no wait for a settled promise).
    return translators.has(speech)
      ? storage.run(speech, next)
      : languageReady(speech).then(() => storage.run(speech, next));
  };
}
