/**
 * The pseudo-locale (decision 0066): English underneath, every string that every other
 * language's catalogue translates shown accented, lengthened and bracketed ('[Ṣααṽḛḛ]'); a
 * string some language lacks stays plain English. A screen in it shows at a glance what
 * some language would still show in English, and which control its longer words overflow.
 * The web app turns it on with the browser key `kin.pseudo-locale` and asks the server for
 * it with Accept-Language `en-XA`, so text the server writes (a timeline entry's name) is
 * checked too.
 */
import type { i18n, PostProcessorModule } from 'i18next';
import Pseudo from 'i18next-pseudo';
import { loadCatalogue, loadServerCatalogue, type Catalogue } from './catalogue';
import { LANGUAGES, type LanguageCode } from './languages';
import { createI18n, ENGLISH_CATALOGUE, translatorOf, type Translator } from './translate';

export { PSEUDO_LOCALE_TAG } from './pseudo-tag';

/** `load`: the web app's catalogues, or the server's (the web's words and its own). */
export async function pseudoPostProcessor(
  load: (code: LanguageCode) => Promise<Catalogue> = loadCatalogue,
): Promise<PostProcessorModule> {
  const catalogues = await Promise.all(
    LANGUAGES.filter((l) => l.code !== 'en').map((l) => load(l.code)),
  );
  const pseudo = new Pseudo({ languageToPseudo: 'en', wrapped: true }) as PostProcessorModule;
  const translated = (key: string) =>
    catalogues.every((catalogue) => key in catalogue || `${key}_other` in catalogue);
  return {
    type: 'postProcessor',
    name: 'pseudo',
    process: (value, keys, options, translator) => {
      const key = Array.isArray(keys) ? String(keys[0]) : String(keys);
      return translated(key) ? pseudo.process(value, keys, options, translator) : value;
    },
  };
}

/** A translator that writes the pseudo-locale (the server's, for a request that asks for it). */
export async function pseudoTranslator(): Promise<Translator> {
  const instance: i18n = createI18n('en', ENGLISH_CATALOGUE);
  instance.use(await pseudoPostProcessor(loadServerCatalogue));
  instance.options.postProcess = ['pseudo'];
  return translatorOf(instance, 'en');
}
