/**
 * The web app's language (CONTRACT §6 'Languages'): the one chosen in Profile Settings, kept
 * in this browser too so the next visit opens in it at once; before one is chosen, the
 * browser's. Only that language's catalogue is loaded. The page's `lang` and `dir` follow,
 * so Arabic lays out right to left.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadCatalogue } from '../../shared/i18n/catalogue';
import { PSEUDO_LOCALE_TAG } from '../../shared/i18n/pseudo-tag';
import {
  isLanguageCode,
  languageOf,
  matchLanguage,
  type LanguageCode,
} from '../../shared/i18n/languages';
import {
  ENGLISH_CATALOGUE,
  I18N_OPTIONS,
  setTranslatorSource,
  translatorOf,
} from '../../shared/i18n/translate';

const CHOSEN_KEY = 'kin.language';
/**
 * A translator's and a test's view: with this key set in the browser, every string the
 * catalogue gives is shown accented, lengthened and in brackets ('[Ṣααṽḛḛ]'), so a word
 * that is not translated, or a control too narrow for a longer language, shows at once.
 */
const PSEUDO_KEY = 'kin.pseudo-locale';

function pseudoWanted(): boolean {
  try {
    return localStorage.getItem(PSEUDO_KEY) === 'on';
  } catch {
    return false;
  }
}

function storedLanguage(): LanguageCode | null {
  try {
    const stored = localStorage.getItem(CHOSEN_KEY);
    return isLanguageCode(stored) ? stored : null;
  } catch {
    return null;
  }
}

/** The language a page opens in: the one chosen here last, else the browser's. */
export function openingLanguage(): LanguageCode {
  return storedLanguage() ?? matchLanguage(navigator.languages ?? [navigator.language]);
}

function showLanguage(code: LanguageCode) {
  const { dir } = languageOf(code);
  document.documentElement.lang = code;
  document.documentElement.dir = dir;
}

async function addCatalogue(code: LanguageCode) {
  if (code === 'en' || i18next.hasResourceBundle(code, 'translation')) return;
  i18next.addResourceBundle(code, 'translation', await loadCatalogue(code));
}

/** Starts translation in the language the page opens in, before the first render. */
export async function startI18n(): Promise<void> {
  const pseudo = pseudoWanted();
  const code = pseudo ? 'en' : openingLanguage();
  if (pseudo) {
    const { pseudoPostProcessor } = await import('../../shared/i18n/pseudo');
    i18next.use(await pseudoPostProcessor());
  }
  void i18next.use(initReactI18next).init({
    ...I18N_OPTIONS,
    lng: 'en',
    resources: { en: { translation: ENGLISH_CATALOGUE } },
    react: { useSuspense: false },
    ...(pseudo ? { postProcess: ['pseudo'] } : {}),
  });
  setTranslatorSource(() => translatorOf(i18next, currentCode()));
  await switchLanguage(code).catch(() => undefined);
}

function currentCode(): LanguageCode {
  return isLanguageCode(i18next.language) ? i18next.language : 'en';
}

/** Speaks `code` from now on; `remember` keeps it for this browser's next visits. */
export async function switchLanguage(code: LanguageCode, remember = false): Promise<void> {
  await addCatalogue(code);
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

export { currentCode as currentLanguageCode };

/** What the app asks the server to speak (Accept-Language): its language, or the pseudo-locale. */
export function requestLanguageTag(): string {
  return pseudoWanted() ? PSEUDO_LOCALE_TAG : currentCode();
}
