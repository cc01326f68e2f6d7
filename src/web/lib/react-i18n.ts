/**
 * The one i18next instance the web app's pages translate with (react-i18next), started in
 * one language before the first render: the app (lib/i18n.ts), the share viewer
 * (viewer/viewer-i18n.ts) and the web tests each start it here. A component re-renders when
 * words are added to the language it speaks (the rest of a language arriving after the first
 * screen's words), as when the language changes.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Catalogue } from '../../shared/i18n/catalogue';
import { isLanguageCode, type LanguageCode } from '../../shared/i18n/languages';
import {
  ENGLISH_CATALOGUE,
  I18N_OPTIONS,
  setTranslatorSource,
  translatorOf,
} from '../../shared/i18n/translate';

/** The language the pages speak now. */
export function reactLanguage(): LanguageCode {
  return isLanguageCode(i18next.language) ? i18next.language : 'en';
}

export function startReactI18n(options: {
  language: LanguageCode;
  /** The language's words, when it is not English. */
  catalogue?: Catalogue | null;
  /** Post-processors already registered with i18next (the pseudo-locale's). */
  postProcess?: string[];
}): void {
  const { language, catalogue, postProcess } = options;
  void i18next.use(initReactI18next).init({
    ...I18N_OPTIONS,
    lng: language,
    resources: {
      en: { translation: ENGLISH_CATALOGUE },
      ...(catalogue && language !== 'en' ? { [language]: { translation: catalogue } } : {}),
    },
    react: { useSuspense: false, bindI18nStore: 'added' },
    ...(postProcess ? { postProcess } : {}),
  });
  setTranslatorSource(() => translatorOf(i18next, reactLanguage()));
}
