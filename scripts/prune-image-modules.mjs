// Removes from node_modules what the built server can never load, after `npm prune
// --omit=dev`, for the container image (Containerfile). npm keeps a development tool whenever
// some dependency names it as an optional peer (vite, vitest, typescript, tsx and jsdom: about
// 120 MB). What stays is what package.json's dependencies reach through package-lock.json:
// their dependencies, optional dependencies and required peers, never an optional peer.
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages;
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));

/** The lock's key of `name` as `from` (a lock key, '' for the root) finds it, as Node does. */
function resolve(from, name) {
  for (let base = from; ;) {
    const key = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock[key]) return key;
    if (!base) return null;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

const reached = new Set();
function reach(key) {
  if (!key || reached.has(key)) return;
  reached.add(key);
  const entry = lock[key];
  const peers = Object.keys(entry.peerDependencies ?? {}).filter(
    (name) => !entry.peerDependenciesMeta?.[name]?.optional,
  );
  for (const name of [
    ...Object.keys(entry.dependencies ?? {}),
    ...Object.keys(entry.optionalDependencies ?? {}),
    ...peers,
  ])
    reach(resolve(key, name));
}
for (const name of Object.keys(dependencies)) reach(resolve('', name));

let removed = 0;
for (const key of Object.keys(lock)) {
  if (!key || reached.has(key) || !existsSync(key)) continue;
  rmSync(key, { recursive: true, force: true });
  removed += 1;
}
// Commands of removed packages, and npm's record of a tree that is no longer the one there.
for (const bin of existsSync('node_modules/.bin') ? readdirSync('node_modules/.bin') : []) {
  const link = path.join('node_modules/.bin', bin);
  if (lstatSync(link).isSymbolicLink() && !existsSync(link)) rmSync(link);
}
rmSync('node_modules/.package-lock.json', { force: true });
console.log(`Removed ${removed} packages the server does not use from node_modules`);
