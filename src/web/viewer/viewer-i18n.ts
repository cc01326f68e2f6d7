/**
 * The viewer's language (viewer-url.ts: the one its address names, else the browser's), set
 * up before the first render with only that language's catalogue; the page's `lang` and
 * `dir` follow, so Arabic reads right to left. None of the app's own i18n code
 * (lib/i18n.ts) is loaded.
 */
import { APP_NAME } from '../../shared/constants';
import { loadCatalogue } from '../../shared/i18n/catalogue';
import { languageOf, type LanguageCode } from '../../shared/i18n/languages';
import { tr } from '../../shared/i18n/translate';
import { startReactI18n } from '../lib/react-i18n';
import { viewerLanguage } from './viewer-url';

export async function startViewerI18n(): Promise<LanguageCode> {
  const wanted = viewerLanguage(
    window.location.search,
    navigator.languages ?? [navigator.language],
  );
  // Without its catalogue (a failed download), the page speaks English.
  const catalogue = wanted === 'en' ? null : await loadCatalogue(wanted).catch(() => null);
  const code: LanguageCode = catalogue ? wanted : 'en';
  startReactI18n({ language: code, catalogue });
  document.documentElement.lang = code;
  document.documentElement.dir = languageOf(code).dir;
  document.title = `${tr('Shared health records')} · ${APP_NAME}`;
  return code;
}
