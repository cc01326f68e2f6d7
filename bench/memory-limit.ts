/**
 * A memory limit the kernel holds a process tree to, as `docker run --memory 512m` or
 * systemd's `MemoryMax=512M` do on a family's box: a memory cgroup of its own, made under
 * the bench's, its limit set and swap refused. A process the tree cannot fit in it is
 * killed by the kernel (its count is `oomKills`); page cache is given back first, as on a
 * box that holds nothing else.
 *
 * Linux only, and only where the bench may make a cgroup (cgroup v2 with the memory
 * controller given to the bench's own group, or v1's memory hierarchy): elsewhere
 * `memoryLimit` answers why not, and the run reports the limit as not tried.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface MemoryLimit {
  /** Where a process's id is written to put it in the group (its children follow it). */
  procsFile: string;
  /** Processes of the group the kernel has killed for want of memory. */
  oomKills(): number;
  /** The group's memory at its highest so far, page cache included. */
  peakBytes(): number;
  /** The group's memory that only the kernel's killing could free: anonymous, and shared memory. */
  anonymousBytes(): number;
  remove(): void;
}

const ROOT = '/sys/fs/cgroup';

/**
 * A command run in a group: a shell puts itself in it, then becomes the command (the same
 * process, so its id is the command's), and every process the command starts is in it too.
 */
export function inGroup(
  procsFile: string,
  command: string,
  args: readonly string[],
): [string, string[]] {
  return ['/bin/sh', ['-c', 'echo $$ > "$0" && exec "$@"', procsFile, command, ...args]];
}

const read = (file: string) => readFileSync(file, 'utf8');
const field = (text: string, name: string) =>
  Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

/** The bench's own group in the hierarchy that holds the memory controller, and its version. */
function ownGroup(): { dir: string; version: 1 | 2 } | { why: string } {
  if (process.platform !== 'linux') return { why: 'not Linux' };
  let lines: string[];
  try {
    lines = read('/proc/self/cgroup').trim().split('\n');
  } catch {
    return { why: 'no /proc/self/cgroup' };
  }
  for (const line of lines) {
    const [, controllers, where] = line.split(':');
    if (controllers?.split(',').includes('memory') && where !== undefined) {
      const dir = path.join(ROOT, 'memory', where);
      if (existsSync(path.join(dir, 'memory.limit_in_bytes'))) return { dir, version: 1 };
    }
  }
  const unified = lines.find((line) => line.startsWith('0::'));
  if (unified) {
    const dir = path.join(ROOT, unified.slice(3));
    try {
      if (read(path.join(dir, 'cgroup.controllers')).split(/\s+/).includes('memory')) {
        return { dir, version: 2 };
      }
    } catch {
      // no cgroup v2 mounted at /sys/fs/cgroup
    }
  }
  return { why: 'no memory cgroup controller the bench may use' };
}

/** A group limited to `limitMb`, or why none could be made here. */
export function memoryLimit(limitMb: number, name: string): MemoryLimit | { why: string } {
  const own = ownGroup();
  if ('why' in own) return own;
  const dir = path.join(own.dir, name);
  const limitBytes = limitMb * 1024 * 1024;
  const file = (name: string) => path.join(dir, name);
  try {
    mkdirSync(dir);
    if (own.version === 1) {
      writeFileSync(file('memory.limit_in_bytes'), String(limitBytes));
      // With swap on, memory and swap together are held to the same limit: none swapped.
      if (existsSync(file('memory.memsw.limit_in_bytes'))) {
        writeFileSync(file('memory.memsw.limit_in_bytes'), String(limitBytes));
      }
    } else {
      writeFileSync(file('memory.max'), String(limitBytes));
      if (existsSync(file('memory.swap.max'))) writeFileSync(file('memory.swap.max'), '0');
    }
  } catch (error) {
    try {
      rmdirSync(dir);
    } catch {
      // never made
    }
    return { why: `the memory cgroup could not be made (${(error as Error).message})` };
  }
  return {
    procsFile: file('cgroup.procs'),
    oomKills: () =>
      own.version === 1
        ? field(read(file('memory.oom_control')), 'oom_kill')
        : field(read(file('memory.events')), 'oom_kill'),
    peakBytes: () => {
      try {
        return Number(
          read(file(own.version === 1 ? 'memory.max_usage_in_bytes' : 'memory.peak')).trim(),
        );
      } catch {
        return Number.NaN; // cgroup v2 before Linux 5.19 keeps no peak
      }
    },
    anonymousBytes: () => {
      const stat = read(file('memory.stat'));
      return own.version === 1
        ? field(stat, 'total_rss') + field(stat, 'total_shmem')
        : field(stat, 'anon') + field(stat, 'shmem');
    },
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {
        // a process still in it: the kernel keeps the group until it ends
      }
    },
  };
}
