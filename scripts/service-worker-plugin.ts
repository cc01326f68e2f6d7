/**
 * Builds the service worker (src/web/service-worker/service-worker.ts) into the web app's
 * output as /sw.js, once the rest of the app is written: it lists the built files as the
 * shell to precache and names the shell's cache after a hash of their content, so each
 * build's worker replaces the last one's cache.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';
import { LANGUAGES } from '../src/shared/i18n/languages.ts';
import { webCatalogue } from './first-screen-words-plugin.ts';

const WORKER_FILE = 'sw.js';
/** Built files that are not part of the shell: the worker itself, and index.html (as '/'). */
const NOT_IN_SHELL = new Set([WORKER_FILE, 'index.html']);
/**
 * Nor source maps, nor the compressed copies of files (the server sends a copy in place of its
 * file to a browser that accepts it; the cache holds the file itself).
 */
const NOT_IN_SHELL_ENDING = /\.(map|br|gz)$/;

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/**
 * The offline page's words in every language (src/web/service-worker/offline-words.ts, its
 * keys; each language's catalogue, its words), for the worker to carry without a catalogue.
 */
async function offlineWords(root: string): Promise<Record<string, Record<string, string>>> {
  const { OFFLINE_WORDS } = (await tsImport(
    '../src/web/service-worker/offline-words.ts',
    import.meta.url,
  )) as { OFFLINE_WORDS: Record<string, string> };
  const catalogues = path.resolve(root, '../shared/i18n/catalogues');
  return Object.fromEntries(
    LANGUAGES.map(({ code }) => {
      const words = code === 'en' ? {} : webCatalogue(catalogues, code);
      return [
        code,
        Object.fromEntries(
          Object.entries(OFFLINE_WORDS).map(([name, english]) => [name, words[english] ?? english]),
        ),
      ];
    }),
  );
}

/** `entry`: the worker's source, relative to Vite's root. */
export function serviceWorker(options: { entry: string }): Plugin {
  let outDir = '';
  let entry = '';
  let root = '';
  return {
    name: 'kin-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      entry = path.resolve(config.root, options.entry);
      root = config.root;
    },
    async closeBundle() {
      const files = listFiles(outDir)
        .filter((file) => !NOT_IN_SHELL.has(file) && !NOT_IN_SHELL_ENDING.test(file))
        .sort();
      const hash = createHash('sha256');
      for (const file of ['index.html', ...files]) {
        hash
          .update(file)
          .update('\0')
          .update(readFileSync(path.join(outDir, file)));
      }
      hash.update(readFileSync(entry));
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        format: 'iife',
        target: 'es2022',
        minify: true,
        write: false,
        define: {
          __SHELL_FILES__: JSON.stringify(['/', ...files.map((file) => `/${file}`)]),
          __SHELL_VERSION__: JSON.stringify(hash.digest('hex').slice(0, 16)),
          __OFFLINE_WORDS__: JSON.stringify(await offlineWords(root)),
        },
        logLevel: 'warning',
      });
      const [output] = result.outputFiles;
      if (!output) throw new Error('The service worker did not build');
      writeFileSync(path.join(outDir, WORKER_FILE), output.contents);
    },
  };
}
