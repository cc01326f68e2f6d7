/**
 * `npx tsx bench/profile-summary.ts dir/*.cpuprofile`, as docs/performance.md gives it, reads every
 * profile the glob names (a server with a worker thread writes two), and a trailing number
 * is how many lines each list shows.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kin-profile-summary-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A profile whose samples fall in the given functions of one package, one ms each. */
function profileFile(name: string, functions: string[]): string {
  const nodes = [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [] },
    ...functions.map((functionName, index) => ({
      id: index + 2,
      callFrame: {
        functionName,
        url: 'file:///app/node_modules/pdfkit/js/pdfkit.js',
        lineNumber: index,
      },
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
  });

  it('takes a trailing number as how many lines each list shows', () => {
    const output = summarise(main, '2');
    expect(output.match(/33\.3 % {2}\w+ pdfkit/g)).toHaveLength(2);
    expect(output.match(/ms sampled/g)).toHaveLength(1);
  });
});
