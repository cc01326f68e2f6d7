/**
 * The words that go to the reader of a share link with it (the mail's subject, the message),
 * in the reader's language chosen in the dialog (CONTRACT §6), which may not be the one the
 * app speaks now: that language's catalogue is loaded for them.
 */
import { loadCatalogue } from '../../../shared/i18n/catalogue';
import type { LanguageCode } from '../../../shared/i18n/languages';
import {
  createI18n,
  currentLanguage,
  ENGLISH_CATALOGUE,
  tr,
  translatorOf,
  type Translator,
} from '../../../shared/i18n/translate';

/** A translator in `language`; the app's own when its catalogue cannot be loaded. */
export async function readerTranslator(language: LanguageCode): Promise<Translator> {
  if (language === currentLanguage()) return { language, t: tr };
  try {
    const catalogue = language === 'en' ? ENGLISH_CATALOGUE : await loadCatalogue(language);
    return translatorOf(createI18n(language, catalogue), language);
  } catch {
    return { language: currentLanguage(), t: tr };
  }
}
