/**
 * The web tests' language: English, as the app starts before any other is chosen, so that
 * components that translate with `useTranslation` render the words the tests look for.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ENGLISH_CATALOGUE, I18N_OPTIONS } from '../shared/i18n/translate';

void i18next.use(initReactI18next).init({
  ...I18N_OPTIONS,
  lng: 'en',
  resources: { en: { translation: ENGLISH_CATALOGUE } },
  react: { useSuspense: false },
});
