/**
 * `npx tsx bench/profile-summary.ts dir/*.cpuprofile`, as docs/performance.md gives it, reads every
 * profile the glob names (a server with a worker thread writes two), and a trailing number
 * is how many lines each list shows.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { encode } from '@jridgewell/sourcemap-codec';
import { afterAll, describe, expect, it } from 'vitest';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kin-profile-summary-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}

/** A profile whose samples fall in the given functions of one package, one ms each. */
function profileFile(
  name: string,
  functions: string[],
  frameOf = (functionName: string, index: number): Frame => ({
    functionName,
    url: 'file:///app/node_modules/pdfkit/js/pdfkit.js',
    lineNumber: index,
  }),
): string {
  const nodes = [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [] },
    ...functions.map((functionName, index) => ({
      id: index + 2,
      callFrame: frameOf(functionName, index),
    })),
  ] as { id: number; children?: number[] }[];
  nodes[0]!.children = functions.map((_, index) => index + 2);
  const file = path.join(folder, name);
  writeFileSync(
    file,
    JSON.stringify({
      nodes,
      samples: functions.map((_, index) => index + 2),
      timeDeltas: functions.map(() => 1000),
    }),
  );
  return file;
}

const summarise = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'bench/profile-summary.ts', ...args], {
    encoding: 'utf8',
  });

describe('profile-summary', () => {
  const main = profileFile('CPU.main.cpuprofile', ['renderLine', 'layout', 'measure']);
  const worker = profileFile('CPU.worker.cpuprofile', ['encode']);

  it('summarises every profile it is given', () => {
    const output = summarise(main, worker);
    expect(output).toContain(`${main}: 3 ms sampled`);
    expect(output).toContain(`${worker}: 1 ms sampled`);
    expect(output).toContain('100.0 %  encode pdfkit/js/pdfkit.js:1');
    expect(output).toContain('100.0 %  pdfkit');
    expect(output).toMatch(/own functions \(they add up to the whole\):\n +100\.0 % +pdfkit/);
  });

  it('takes a trailing number as how many lines each list shows', () => {
    const output = summarise(main, '2');
    expect(output.match(/33\.3 % {2}\w+ pdfkit/g)).toHaveLength(2);
    expect(output.match(/ms sampled/g)).toHaveLength(1);
  });

  it("puts two profiles side by side in µs a request, the first one's extra time first", () => {
    // The first: 3 ms over 2 requests (1,500 µs each); the second: 1 ms over 1 request.
    const sameLine = (functionName: string): Frame => ({
      functionName,
      url: 'file:///app/node_modules/pdfkit/js/pdfkit.js',
      lineNumber: functionName === 'layout' ? 0 : 1,
    });
    const first = profileFile('CPU.first.cpuprofile', ['layout', 'layout', 'measure'], sameLine);
    const second = profileFile('CPU.second.cpuprofile', ['measure'], sameLine);
    const output = summarise('--beside', `${first}=2`, `${second}=1`);
    expect(output).toContain(`1500.0 in ${first} (2 requests), 1000.0 in ${second} (1 requests)`);
    const functions = output.split('By package')[0]!;
    // layout: 1,000 µs a request more (1,000 against none); measure: 500 less (500 against 1,000).
    expect(functions).toMatch(
      / +1000\.0 +1000\.0 +0\.0 {2}layout pdfkit\/js\/pdfkit\.js:1\n +-500\.0 +500\.0 +1000\.0 {2}measure pdfkit\/js\/pdfkit\.js:2/,
    );
    expect(output).toMatch(/By package[^\n]*\n.*\n +500\.0 +1500\.0 +1000\.0 {2}pdfkit/);
  });

  it('refuses a side-by-side profile without its count of requests', () => {
    const first = profileFile('CPU.alone.cpuprofile', ['layout']);
    expect(() =>
      execFileSync(
        process.execPath,
        ['--import', 'tsx', 'bench/profile-summary.ts', '--beside', first, first],
        {
          stdio: 'pipe',
        },
      ),
    ).toThrow(/file=requests/);
  });

  it('leaves out the time the thread was idle', () => {
    const output = summarise(profileFile('CPU.idle.cpuprofile', ['(idle)', '(idle)', 'layout']));
    expect(output).toContain('3 ms sampled, 1 ms busy');
    expect(output).toContain('100.0 %  layout pdfkit/js/pdfkit.js:3');
    expect(output).not.toContain('(idle)');
  });

  it("names a bundle's frames by its source map: the product's file, or a dependency's package", () => {
    const bundleDir = path.join(folder, 'dist', 'server');
    mkdirSync(bundleDir, { recursive: true });
    const bundle = path.join(bundleDir, 'main.js');
    writeFileSync(bundle, 'function a(){}function b(){}function c(){}\n');
    // Column 0 is the product's route, 14 a bundled dependency (no source, as in a map cut
    // down to the product's own sources), 28 Hono's code (in a map that keeps them all).
    writeFileSync(
      `${bundle}.map`,
      JSON.stringify({
        version: 3,
        sources: [
          '../../src/server/timeline/timeline-routes.ts',
          '../../node_modules/hono/dist/compose.js',
        ],
        names: [],
        mappings: encode([[[0, 0, 41, 2], [14], [28, 1, 9, 0]]]),
      }),
    );
    const output = summarise(
      profileFile(
        'CPU.bundle.cpuprofile',
        ['route', 'dependency', 'dispatch'],
        (functionName, index) => ({
          functionName,
          url: pathToFileURL(bundle).href,
          lineNumber: 0,
          columnNumber: index * 14,
        }),
      ),
    );
    expect(output).toContain('src/server/timeline/timeline-routes.ts:42');
    expect(output).toContain('33.3 %  the product');
    expect(output).toContain('33.3 %  bundled dependencies');
    expect(output).toContain('33.3 %  hono');
    expect(output).toMatch(/own file:\n +33\.3 % +\S*src\/server\/timeline\/timeline-routes\.ts/);
  });
});
