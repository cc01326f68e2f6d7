// Bundles the server into dist/server/main.js (and its threads' entries beside it, over
// shared chunks) with the JavaScript it uses of its dependencies: loaded module by module from node_modules, better-auth, Kysely, zod and the
// rest took about 70 MB more memory on Node 24 than the one file with only the code used.
// Native addons (better-sqlite3, argon2), pg (its optional native driver) and pino (its
// worker-thread transports) stay in node_modules.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { keepOwnSources } from './own-sources-map.mjs';

// The server, and the thread it makes summary PDFs on (src/server/summary/summary-pdf-thread.ts
// finds it beside main.js): pdfmake and its fonts load only there, and only when wanted.
const entryPoints = {
  main: 'src/server/main.ts',
  'summary-pdf-worker': 'src/server/summary/summary-pdf-worker.ts',
  // The thread an import's file is read on, whatever its kind (src/server/imports/import-file-thread.ts).
  'import-file-worker': 'src/server/imports/import-file-worker.ts',
  // The thread a document's text is read on (src/server/documents/text/document-text-thread.ts).
  'document-text-worker': 'src/server/documents/text/document-text-worker.ts',
  // The thread documents' thumbnails are made on (src/server/documents/document-derive-thread.ts).
  'document-derive-worker': 'src/server/documents/document-derive-worker.ts',
  // The thread a backup's copy is checked on (src/server/operations/backup-check-thread.ts).
  'backup-check-worker': 'src/server/operations/backup-check-worker.ts',
  // The operator's command (`npm run kin` runs it from the sources; the container image, which
  // has no sources, runs this one as `kin`).
  cli: 'src/server/cli.ts',
};

/**
 * How the server's code is bundled: by `npm run build` (below), and by the benchmark's
 * in-process measure of a request (bench/request-cost.ts), which must run the same code.
 * @type {import('esbuild').BuildOptions}
 */
export const serverBundleOptions = {
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  external: [
    // sharp and the canvas are native addons; tesseract.js starts its own thread from its
    // own files; pdf.js loads its own canvas beside itself and the HEIC decoder files of its
    // own.
    'better-sqlite3',
    'argon2',
    'pg',
    'pino',
    'sharp',
    '@napi-rs/canvas',
    'pdfjs-dist',
    'heic-decode',
    'tesseract.js',
    // Hono makes the methods of a request's context anew with each request (class fields):
    // bundled with the names kept (below), each of them was named again by a call on every
    // request, 3–11% of a read's instructions (docs/performance.md, decision 90). Loaded
    // from node_modules as published, it runs as it does in the tests and the benchmark's
    // floors.
    'hono',
    '@hono/node-server',
  ],
  // Bundled CommonJS code still calls require() for Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Minified: V8 keeps every script's source in memory while the process lives (13.2 MB
  // of the resting server's 159, as written; 6.6 MB minified, the server 148–152 MB at rest
  // instead of 158–160, and so each job process). Functions and classes keep their names,
  // which stack traces and errors show, and which some of the bundled libraries compare
  // (better-call reads zod schemas' class names, jose names its errors after their classes).
  minify: true,
  keepNames: true,
};

/**
 * Builds the server's bundles (and the operator's command beside them) into `outdir`. With
 * `fullSourceMaps`, the maps keep every dependency's sources too, for a CPU profile to be
 * read by package (`bench/profile-summary.ts`); the server then holds about 10 MB more.
 */
export async function buildServer(outdir, { fullSourceMaps = false } = {}) {
  // The chunks' names change with their content: no earlier build's may be left beside them.
  await rm(outdir, { recursive: true, force: true });
  await build({
    ...serverBundleOptions,
    entryPoints,
    outdir,
    // What a thread or the server loads only when asked (a document kind's processor, the
    // PDF clean-up) is a chunk of its own, shared by the bundles that may ask for it, instead
    // of a copy parsed with each of them. Chunks sit beside the bundles: a worker is found
    // beside the module that starts it (runtime/worker-source.ts).
    splitting: true,
    chunkNames: 'chunk-[name]-[hash]',
    // npm start runs with --enable-source-maps; the sources themselves are in the checkout,
    // not copied into the map.
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
  });

  // Stack traces name the product's own source files and lines: see own-sources-map.mjs.
  if (fullSourceMaps) return;
  for (const mapName of (await readdir(outdir)).filter((file) => file.endsWith('.js.map'))) {
    const mapFile = `${outdir}/${mapName}`;
    await writeFile(
      mapFile,
      JSON.stringify(keepOwnSources(JSON.parse(await readFile(mapFile, 'utf8')))),
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer('dist/server', {
    fullSourceMaps: process.argv.includes('--full-source-maps'),
  });
}
