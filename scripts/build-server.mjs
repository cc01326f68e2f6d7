// Bundles the server into dist/server/main.js with the JavaScript it uses of its
// dependencies: loaded module by module from node_modules, better-auth, Kysely, zod and the
// rest took about 70 MB more memory on Node 24 than the one file with only the code used.
// Native addons (better-sqlite3, argon2), pg (its optional native driver) and pino (its
// worker-thread transports) stay in node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server/main.ts'],
  outfile: 'dist/server/main.js',
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
