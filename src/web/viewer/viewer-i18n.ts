/**
 * The viewer's language (viewer-url.ts: the one its address names, else the browser's), set
 * up before the first render with only that language's catalogue; the page's `lang` and
 * `dir` follow, so Arabic reads right to left. None of the app's own i18n code is loaded.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { APP_NAME } from '../../shared/constants';
import { loadCatalogue } from '../../shared/i18n/catalogue';
import { languageOf, type LanguageCode } from '../../shared/i18n/languages';
import {
  ENGLISH_CATALOGUE,
  I18N_OPTIONS,
  setTranslatorSource,
  tr,
  translatorOf,
} from '../../shared/i18n/translate';
import { viewerLanguage } from './viewer-url';

export async function startViewerI18n(): Promise<LanguageCode> {
  const wanted = viewerLanguage(
    window.location.search,
    navigator.languages ?? [navigator.language],
  );
  // Without its catalogue (a failed download), the page speaks English.
  const catalogue = wanted === 'en' ? null : await loadCatalogue(wanted).catch(() => null);
  const code: LanguageCode = catalogue ? wanted : 'en';
  await i18next.use(initReactI18next).init({
    ...I18N_OPTIONS,
    lng: code,
    resources: {
      en: { translation: ENGLISH_CATALOGUE },
      ...(catalogue ? { [code]: { translation: catalogue } } : {}),
    },
    react: { useSuspense: false },
  });
  setTranslatorSource(() => translatorOf(i18next, code));
  document.documentElement.lang = code;
  document.documentElement.dir = languageOf(code).dir;
  document.title = `${tr('Shared health records')} · ${APP_NAME}`;
  return code;
}
