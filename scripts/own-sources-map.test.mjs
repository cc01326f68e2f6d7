import { SourceMap } from 'node:module';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { describe, expect, it } from 'vitest';
import { keepOwnSources } from './own-sources-map.mjs';

// A bundle of three lines: the product's code, a dependency's, then both on one line.
const bundleMap = {
  version: 3,
  sources: [
    '../../src/server/app.ts',
    '../../node_modules/hono/dist/hono.js',
    '../../src/shared/x.ts',
  ],
  names: [],
  mappings: encode([
    [
      [0, 0, 10, 2],
      [8, 0, 10, 9],
    ],
    [
      [0, 1, 300, 0],
      [4, 1, 300, 4],
    ],
    [
      [0, 2, 5, 0],
      [6, 1, 40, 0],
      [9, 1, 41, 0],
      [14, 0, 12, 0],
    ],
  ]),
};

describe('the server bundle’s source map', () => {
  const own = keepOwnSources(bundleMap);
  const consumer = new SourceMap(own);

  it('keeps only the product’s own sources', () => {
    expect(own.sources).toEqual(['../../src/server/app.ts', '../../src/shared/x.ts']);
  });

  it('still maps the product’s code to its file and line', () => {
    expect(consumer.findEntry(0, 8)).toMatchObject({
      originalSource: '../../src/server/app.ts',
      originalLine: 10,
      originalColumn: 9,
    });
    expect(consumer.findEntry(2, 2)).toMatchObject({
      originalSource: '../../src/shared/x.ts',
      originalLine: 5,
    });
    expect(consumer.findEntry(2, 20)).toMatchObject({
      originalSource: '../../src/server/app.ts',
      originalLine: 12,
    });
  });

  it('does not take a dependency’s frame for the product’s code before it', () => {
    expect(consumer.findEntry(1, 6).originalSource).toBeUndefined();
    expect(consumer.findEntry(2, 10).originalSource).toBeUndefined();
  });

  it('leaves one segment without a source for each run of a dependency’s code', () => {
    expect(decode(own.mappings)).toEqual([
      [
        [0, 0, 10, 2],
        [8, 0, 10, 9],
      ],
      [[0]],
      [[0, 1, 5, 0], [6], [14, 0, 12, 0]],
    ]);
  });
});
