/**
 * A language's first-screen words, as their own small module per language
 * (`virtual:first-screen-words/first-screen-words-<code>`, a chunk of that name): only the catalogue entries the first screens ask for
 * (src/shared/i18n/catalogue-keys.ts `firstScreenKeys`), so that a page opening on one of
 * them in Spanish or Arabic loads a few kilobytes of words rather than the whole language.
 * `virtual:first-screen-words` maps each language to its module. The web app loads the rest
 * of the language at the first interaction (src/web/lib/i18n.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';
import { mergeAreas, type Catalogue } from '../src/shared/i18n/catalogue.ts';
import { LANGUAGES } from '../src/shared/i18n/languages.ts';
import { firstScreens } from './first-screens.ts';

/**
 * The keys the first screens ask for, read from the web app's source. The reader walks the
 * product's modules (record definitions among them), which import one another without
 * file endings: tsx loads them, so this file stays loadable by Node itself (scripts/vite-config.test.mjs).
 */
async function readFirstScreenKeys(webRoot: string): Promise<Map<string, Set<string>>> {
  const reader = (await tsImport('../src/shared/i18n/catalogue-keys.ts', import.meta.url)) as {
    firstScreenKeys: (files: readonly string[]) => Set<string>;
  };
  const { entry, screens } = firstScreens(webRoot);
  return new Map(
    screens.map((screen) => [screen.name, reader.firstScreenKeys([...entry, ...screen.files])]),
  );
}

const ID = 'virtual:first-screen-words';
const RESOLVED = `\0${ID}`;
/** Each language's module for each screen, and so its chunk: `first-screen-words-es-auth-page`. */
const MODULE_PREFIX = 'first-screen-words-';
const PLURAL = /_(zero|one|two|few|many|other)$/;
/** The server's own words (mail, the PDF): never the web app's. */
const SERVER_AREA = 'server.json';

/** The web app's words in `code`: each area's file, as that language's index.ts joins them. */
export function webCatalogue(cataloguesDir: string, code: string): Catalogue {
  const dir = path.join(cataloguesDir, code);
  const areas = readdirSync(dir)
    .filter((name) => name.endsWith('.json') && name !== SERVER_AREA)
    .map((name) => [name, JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Catalogue]);
  return mergeAreas(Object.fromEntries(areas) as Record<string, Catalogue>);
}

/** `webRoot`: the web app's source (src/web), whose first screens are read. */
export function firstScreenWords(options: { webRoot: string }): Plugin {
  const webRoot = path.resolve(options.webRoot);
  const cataloguesDir = path.resolve(webRoot, '../shared/i18n/catalogues');
  let keys: Map<string, Set<string>> | null = null;
  let serving = false;
  return {
    name: 'kin-first-screen-words',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    buildStart() {
      keys = null;
    },
    resolveId(id) {
      return id === ID || id.startsWith(`${ID}/`) ? `\0${id}` : null;
    },
    async load(id) {
      if (id === RESOLVED) {
        const languages = LANGUAGES.filter((language) => language.code !== 'en');
        const screens = firstScreens(webRoot).screens.map(({ path: at, name }) => {
          const loaders = languages.map(
            ({ code }) =>
              `    ${JSON.stringify(code)}: () => import('${ID}/${MODULE_PREFIX}${code}-${name}'),`,
          );
          return `  ${JSON.stringify(at)}: {\n${loaders.join('\n')}\n  },`;
        });
        return `export const firstScreenWords = {\n${screens.join('\n')}\n};\n`;
      }
      if (!id.startsWith(`${RESOLVED}/`)) return null;
      const [, code, screen] =
        /^([a-zA-Z]+(?:-[A-Z]{2})?)-(.+)$/.exec(id.slice(`${RESOLVED}/${MODULE_PREFIX}`.length)) ??
        [];
      // While serving, the source changes under the server: read the screens afresh.
      if (serving || !keys) keys = await readFirstScreenKeys(webRoot);
      const wanted = keys.get(screen ?? '');
      if (!code || !wanted) return null;
      const words = Object.entries(webCatalogue(cataloguesDir, code)).filter(([key]) =>
        wanted.has(key.replace(PLURAL, '')),
      );
      return `export default ${JSON.stringify(Object.fromEntries(words))};\n`;
    },
  };
}
