/**
 * A language's catalogue: the English text of every string the product shows (CONTRACT's
 * names, field labels, messages) as the key, that language's words as the value. A key a
 * catalogue lacks shows in English. Each language's areas are one module, so the web app
 * loads one chunk for the language it speaks and none for the others.
 */
import type { LanguageCode } from './languages';

export type Catalogue = Record<string, string>;

/** The areas of a catalogue in one, checked: one key with two different words is an error. */
export function mergeAreas(areas: Record<string, Catalogue>): Catalogue {
  const merged: Catalogue = {};
  for (const area of Object.values(areas)) Object.assign(merged, area);
  return merged;
}

/** The words the web app shows, in `language`. */
export async function loadCatalogue(language: LanguageCode): Promise<Catalogue> {
  const module = (await import(`./catalogues/${language}/index.ts`)) as {
    default: Record<string, Catalogue>;
  };
  return mergeAreas(module.default);
}

/**
 * The server's catalogue: the web app's words (a refusal names a field as the form does)
 * and the server's own (mail, the PDF, reminders), which the web app never loads. English
 * keeps its few plural forms of both in its one module.
 */
export async function loadServerCatalogue(language: LanguageCode): Promise<Catalogue> {
  const shown = await loadCatalogue(language);
  if (language === 'en') return shown;
  const own = (await import(`./catalogues/${language}/server.ts`)) as { default: Catalogue };
  return { ...shown, ...own.default };
}
