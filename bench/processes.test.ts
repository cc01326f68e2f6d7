/**
 * The benchmark measures the server as `npm start` runs it: the start line in package.json,
 * the flags and settings the benchmark starts the server with, and the line the operations
 * guide tells a host to use are one and the same, and Node accepts every flag in it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { START_ENV, START_NODE_FLAGS, START_SCRIPT, treePssOf, treeRssOf } from './processes';

const startLine = [
  ...Object.entries(START_ENV).map(([name, value]) => `${name}=${value}`),
  'node',
  ...START_NODE_FLAGS,
  ...START_SCRIPT,
].join(' ');

describe('how the server is started', () => {
  it('is the same in package.json as in the benchmark', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<
      string,
      string
    >;
    expect(scripts.start).toBe(`npm run build && ${startLine}`);
  });

  it('is the line docs/operations.md gives', () => {
    const guide = readFileSync('docs/operations.md', 'utf8');
    const block = /### Memory[\s\S]*?```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
    expect(block.replace(/\\\n\s*/g, '').trim()).toBe(startLine);
    for (const flag of START_NODE_FLAGS) expect(guide).toContain(`**\`${flag}\`.**`);
  });

  it('has flags the Node.js running it accepts', () => {
    const output = execFileSync(
      process.execPath,
      [...START_NODE_FLAGS, '-e', 'process.stdout.write("started")'],
      { env: { ...process.env, ...START_ENV }, encoding: 'utf8' },
    );
    expect(output).toBe('started');
  });
});

describe('the memory of a process tree', () => {
  it('counts a page its processes share once: the proportional sum is below the resident one', async () => {
    const { spawn } = await import('node:child_process');
    // A child of this process: Node's binary mapped by both.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10_000)']);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const resident = treeRssOf(process.pid);
      const proportional = treePssOf(process.pid);
      expect(proportional).toBeGreaterThan(0);
      expect(proportional).toBeLessThan(resident);
    } finally {
      child.kill();
    }
  });
});
