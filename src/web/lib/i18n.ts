/**
 * The web app's language (CONTRACT §6 'Languages'): the one chosen in Profile Settings, kept
 * in this browser too so the next visit opens in it at once; before one is chosen, the
 * browser's. Only that language's words are loaded, and a page opening on a first screen
 * (first-screen.ts) loads only the words that screen shows (a few kilobytes); the rest of
 * the language follows at the first interaction, and a screen opened after it waits for
 * them with its code. The page's `lang` and `dir` follow the language, so Arabic lays out
 * right to left.
 */
import i18next from 'i18next';
import { firstScreenWords } from 'virtual:first-screen-words';
import { loadCatalogue, type Catalogue } from '../../shared/i18n/catalogue';
import { PSEUDO_LOCALE_TAG } from '../../shared/i18n/pseudo-tag';
import {
  isLanguageCode,
  languageOf,
  matchLanguage,
  type LanguageCode,
} from '../../shared/i18n/languages';
import { onFirstInteraction } from './first-interaction';
import { whenReachable } from './when-reachable';
import { reactLanguage, startReactI18n } from './react-i18n';

const CHOSEN_KEY = 'kin.language';
/**
 * A translator's and a test's view: with this key set in the browser, every string the
 * catalogue gives is shown accented, lengthened and in brackets ('[Ṣααṽḛḛ]'), so a word
 * that is not translated, or a control too narrow for a longer language, shows at once.
 */
const PSEUDO_KEY = 'kin.pseudo-locale';

/** A value this browser keeps, or null when it keeps nothing (private modes may refuse). */
function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

const pseudoWanted = () => stored(PSEUDO_KEY) === 'on';

/** The language a page opens in: the one chosen here last, else the browser's. */
export function openingLanguage(): LanguageCode {
  const chosen = stored(CHOSEN_KEY);
  return isLanguageCode(chosen)
    ? chosen
    : matchLanguage(navigator.languages ?? [navigator.language]);
}

function showLanguage(code: LanguageCode) {
  const { dir } = languageOf(code);
  document.documentElement.lang = code;
  document.documentElement.dir = dir;
}

/** Each language's whole words, once asked for. */
const wholeLanguages = new Map<LanguageCode, Promise<void>>();

/** Adds `code`'s words to what the pages know (components speaking it render anew). */
function addWords(code: LanguageCode, words: Catalogue) {
  i18next.addResourceBundle(code, 'translation', words, true, true);
}

/** Loads all of `code`'s words (English's are in the app). */
function loadWholeLanguage(code: LanguageCode): Promise<void> {
  if (code === 'en') return Promise.resolve();
  let loading = wholeLanguages.get(code);
  if (!loading) {
    loading = loadCatalogue(code).then((words) => addWords(code, words));
    // A failed download may be tried again by the next screen.
    loading.catch(() => wholeLanguages.delete(code));
    wholeLanguages.set(code, loading);
  }
  return loading;
}

/**
 * What a screen opened now waits for with its code: the rest of the language, when it is on
 * its way (asked for at the first interaction); nothing on the first screen, which has its words.
 */
export function wordsOnTheirWay(): Promise<void> {
  return (wholeLanguages.get(reactLanguage()) ?? Promise.resolve()).catch(() => undefined);
}

/**
 * Starts translation in the language the page opens in, before the first render: with only
 * the first screen's words when the page opens on one (`firstScreen`: its path, which
 * main.tsx knows).
 */
export async function startI18n(options: { firstScreen?: string } = {}): Promise<void> {
  const pseudo = pseudoWanted();
  const code = pseudo ? 'en' : openingLanguage();
  if (pseudo) {
    const { pseudoPostProcessor } = await import('../../shared/i18n/pseudo');
    i18next.use(await pseudoPostProcessor());
  }
  startReactI18n({ language: 'en', ...(pseudo ? { postProcess: ['pseudo'] } : {}) });
  if (code === 'en') return showLanguage('en');
  try {
    const firstWords = options.firstScreen
      ? firstScreenWords[options.firstScreen]?.[code]
      : undefined;
    if (firstWords) {
      addWords(code, (await firstWords()).default);
      onFirstInteraction(
        () => void whenReachable(() => loadWholeLanguage(code)).catch(() => undefined),
      );
    } else {
      await loadWholeLanguage(code);
    }
    await i18next.changeLanguage(code);
    showLanguage(code);
  } catch {
    // Without its words (a failed download), the page speaks English.
    showLanguage('en');
  }
}

/** Speaks `code` from now on; `remember` keeps it for this browser's next visits. */
export async function switchLanguage(code: LanguageCode, remember = false): Promise<void> {
  await loadWholeLanguage(code);
  await i18next.changeLanguage(code);
  showLanguage(code);
  if (remember) {
    try {
      localStorage.setItem(CHOSEN_KEY, code);
    } catch {
      // A browser that keeps nothing opens in its own language next time.
    }
  }
}

export { reactLanguage as currentLanguageCode };

/** What the app asks the server to speak (Accept-Language): its language, or the pseudo-locale. */
export function requestLanguageTag(): string {
  return pseudoWanted() ? PSEUDO_LOCALE_TAG : reactLanguage();
}
