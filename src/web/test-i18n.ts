/**
 * The web tests' language: English, as the app starts before any other is chosen, so that
 * components that translate with `useTranslation` render the words the tests look for.
 */
import { startReactI18n } from './lib/react-i18n';

startReactI18n({ language: 'en' });
