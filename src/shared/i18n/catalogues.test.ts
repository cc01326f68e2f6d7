/**
 * Every language is complete: each key the code asks for has its words in every catalogue,
 * with the same placeholders, a plural in each of the language's plural forms (CLDR's, as
 * Intl.PluralRules names them), and no catalogue keeps a key nothing asks for.
 */
import { describe, expect, it } from 'vitest';
import englishAreas from './catalogues/en/index';
import { loadCatalogue, loadServerCatalogue, mergeAreas } from './catalogue';
import { definitionKeys, placeholders, sourceKeys } from './catalogue-keys';
import { LANGUAGES } from './languages';

const asked = sourceKeys(['src/web', 'src/shared', 'src/server']);
/** What the browser asks for: the web app's keys and the shared code's it runs. */
const webAsked = sourceKeys(['src/web', 'src/shared']);
// What the record definitions give the screens to translate (`t(field.label)`).
for (const text of definitionKeys()) {
  if (!asked.has(text)) asked.set(text, ['src/shared/records']);
  if (!webAsked.has(text)) webAsked.set(text, ['src/shared/records']);
}
const english = mergeAreas(englishAreas);
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Keys English writes in plural forms: the base key, asked for with a `count`. */
const pluralKeys = new Set(
  Object.keys(english)
    .filter((k) => PLURAL.test(k))
    .map((k) => k.replace(PLURAL, '')),
);

describe('the catalogues', () => {
  it('English keeps only plural forms, each of a key the code asks for', () => {
    const strays = Object.keys(english).filter(
      (k) => !PLURAL.test(k) || !asked.has(k.replace(PLURAL, '')),
    );
    expect(strays).toEqual([]);
    for (const base of pluralKeys) {
      expect(Object.keys(english)).toEqual(
        expect.arrayContaining([`${base}_one`, `${base}_other`]),
      );
    }
  });

  for (const language of LANGUAGES.filter((l) => l.code !== 'en')) {
    describe(language.name, async () => {
      const catalogue = await loadServerCatalogue(language.code);
      const shown = await loadCatalogue(language.code);
      const forms = new Intl.PluralRules(language.code).resolvedOptions().pluralCategories;

      it('has every key the code asks for', () => {
        const missing: string[] = [];
        for (const key of asked.keys()) {
          const wanted = pluralKeys.has(key) ? forms.map((form) => `${key}_${form}`) : [key];
          for (const entry of wanted) if (!catalogue[entry]?.trim()) missing.push(entry);
        }
        expect(missing).toEqual([]);
      });

      it('gives the web app every word its screens ask for, without the server’s own', () => {
        const missing = [...webAsked.keys()].filter((k) => {
          const wanted = pluralKeys.has(k) ? forms.map((form) => `${k}_${form}`) : [k];
          return wanted.some((entry) => !shown[entry]?.trim());
        });
        expect(missing).toEqual([]);
      });

      it('keeps no key nothing asks for', () => {
        const strays = Object.keys(catalogue).filter((k) => {
          const base = k.replace(PLURAL, '');
          return !(asked.has(k) || (base !== k && pluralKeys.has(base) && asked.has(base)));
        });
        expect(strays).toEqual([]);
      });

      it('keeps the placeholders of each key', () => {
        const broken = Object.entries(catalogue)
          .filter(([k, text]) => {
            const expected = placeholders(k.replace(PLURAL, '')).filter((p) => p !== 'count');
            const found = placeholders(text).filter((p) => p !== 'count');
            return expected.join() !== found.join();
          })
          .map(([k]) => k);
        expect(broken).toEqual([]);
      });

      it('gives one key the same words in every area', async () => {
        const areas = (
          (await import(`./catalogues/${language.code}/index.ts`)) as {
            default: Record<string, Record<string, string>>;
          }
        ).default;
        areas.server = (
          (await import(`./catalogues/${language.code}/server.ts`)) as {
            default: Record<string, string>;
          }
        ).default;
        const seen = new Map<string, string>();
        const conflicts: string[] = [];
        for (const [area, entries] of Object.entries(areas)) {
          for (const [k, text] of Object.entries(entries)) {
            const before = seen.get(k);
            if (before !== undefined && before !== text) conflicts.push(`${area}: ${k}`);
            seen.set(k, text);
          }
        }
        expect(conflicts).toEqual([]);
      });
    });
  }
});
