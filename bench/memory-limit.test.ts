/**
 * The memory limit the heavy-jobs line runs the server under (bench/memory-limit.ts): a
 * process tree that does not fit is killed by the kernel and counted; one that fits runs,
 * and its memory is read. Where the machine lets no memory cgroup be made, the limit says
 * why, and these tests say so rather than pass.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { inGroup, memoryLimit, type MemoryLimit } from './memory-limit';

const MB = 1024 * 1024;
const made: MemoryLimit[] = [];
afterEach(() => {
  while (made.length) made.pop()?.remove();
});

function limited(limitMb: number): MemoryLimit {
  const limit = memoryLimit(limitMb, `kin-bench-test-${process.pid}-${made.length}`);
  if ('why' in limit) throw new Error(`no memory cgroup on this machine: ${limit.why}`);
  made.push(limit);
  return limit;
}

/** Node in the group, holding `mb` MB of touched memory for a moment: how it ended. */
function holding(limit: MemoryLimit, mb: number) {
  const script = `const held = []; for (let i = 0; i < ${mb}; i += 1) held.push(Buffer.alloc(${MB}, 1)); setTimeout(() => {}, 300);`;
  const [command, args] = inGroup(limit.procsFile, process.execPath, ['-e', script]);
  const child = spawn(command, args, { stdio: 'ignore' });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
}

describe.runIf(process.platform === 'linux')('a memory limit held by the kernel', () => {
  it('kills a process that does not fit in it, and counts it', async () => {
    const limit = limited(128);
    expect(limit.oomKills()).toBe(0);
    expect(await holding(limit, 400)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(limit.oomKills()).toBe(1);
    expect(limit.peakBytes()).toBeLessThanOrEqual(128 * MB);
  });

  it('runs one that fits, its memory at most read', async () => {
    const limit = limited(256);
    expect(await holding(limit, 64)).toEqual({ code: 0, signal: null });
    expect(limit.oomKills()).toBe(0);
    expect(limit.peakBytes()).toBeGreaterThan(64 * MB);
    expect(limit.anonymousBytes()).toBeLessThan(8 * MB);
  });
});
