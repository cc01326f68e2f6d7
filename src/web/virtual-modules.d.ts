/** The modules the build makes (scripts/first-screen-words-plugin.ts). */
declare module 'virtual:first-screen-words' {
  import type { Catalogue } from '../shared/i18n/catalogue';
  import type { LanguageCode } from '../shared/i18n/languages';

  /** Each first screen's words (by its path) in each language, each a module of its own. */
  export const firstScreenWords: Record<
    string,
    Record<Exclude<LanguageCode, 'en'>, () => Promise<{ default: Catalogue }>> | undefined
  >;
}
