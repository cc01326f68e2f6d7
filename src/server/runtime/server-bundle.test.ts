/**
 * The server's bundle (scripts/build-server.mjs) leaves Hono to node_modules: bundled with
 * the names of functions kept, every request's context named each of its methods anew, 3–11%
 * of a read's instructions (docs/performance.md, "A name for every method of every request").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';

describe('the server’s bundle', () => {
  const dir = inject('builtServerDir');
  const code = readdirSync(dir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, text: readFileSync(path.join(dir, file), 'utf8') }));

  it('loads Hono and its Node server from node_modules, as published', () => {
    const main = code.find(({ file }) => file === 'main.js')?.text ?? '';
    expect(/from\s*"hono"/.test(main), 'main.js imports "hono"').toBe(true);
    expect(/from\s*"@hono\/node-server"/.test(main), 'main.js imports "@hono/node-server"').toBe(
      true,
    );
  });

  it('holds no copy of Hono’s request context', () => {
    // A method of Hono's Context, made with every request; nothing of the product's has it.
    const copies = code.filter(({ text }) => text.includes('setRenderer'));
    expect(copies.map(({ file }) => file)).toEqual([]);
  });
});
