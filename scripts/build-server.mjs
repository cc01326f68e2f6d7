// Bundles the server into dist/server/main.js with the JavaScript it uses of its
// dependencies: loaded module by module from node_modules, better-auth, Kysely, zod and the
// rest took about 70 MB more memory on Node 24 than the one file with only the code used.
// Native addons (better-sqlite3, argon2), pg (its optional native driver) and pino (its
// worker-thread transports) stay in node_modules.
import { readFile, writeFile } from 'node:fs/promises';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';

const outfile = 'dist/server/main.js';

await build({
  entryPoints: ['src/server/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  external: ['better-sqlite3', 'argon2', 'pg', 'pino'],
  // Bundled CommonJS code still calls require() for Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Stack traces name the source's files and lines (npm start runs with --enable-source-maps);
  // the sources themselves are in the checkout, not copied into the map.
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});

await keepOwnSourcesInMap(`${outfile}.map`);

/**
 * Node parses the whole map when the server starts and keeps it: the map of every
 * dependency in the bundle cost 18 MB of memory, the product's own sources 8 MB. Frames in
 * dependencies keep their function names and point into the bundle.
 */
async function keepOwnSourcesInMap(mapFile) {
  const map = JSON.parse(await readFile(mapFile, 'utf8'));
  const sources = [];
  const renumbered = map.sources.map((source) => {
    if (source.includes('node_modules/')) return -1;
    sources.push(source);
    return sources.length - 1;
  });
  // A dependency's run of code becomes one segment without a source, so that its frames
  // are not taken for the product's code before them.
  const mappings = decode(map.mappings).map((line) => {
    const kept = [];
    for (const segment of line) {
      const source = segment.length === 1 ? -1 : renumbered[segment[1]];
      if (source !== -1) kept.push([segment[0], source, ...segment.slice(2)]);
      else if (kept.at(-1)?.length !== 1) kept.push([segment[0]]);
    }
    return kept;
  });
  await writeFile(mapFile, JSON.stringify({ ...map, sources, mappings: encode(mappings) }));
}
