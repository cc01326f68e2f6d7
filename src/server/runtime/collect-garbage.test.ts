/**
 * A collection that reduces memory gives V8's pooled pages back to the system (a whole
 * collection of the usual kind keeps them), and the server asks for one once heavy jobs that
 * grew its memory have ended, not for jobs that did not.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { GIVE_BACK_AFTER_MS, GROWTH_TO_GIVE_BACK, giveMemoryBackAfter } from './collect-garbage';
import { heavyJobs } from './heavy-jobs';

const MB = 1024 * 1024;

describe('a collection that reduces memory', () => {
  it('gives back the pages a larger heap left, which a whole collection keeps', () => {
    const module = fileURLToPath(new URL('./collect-garbage.ts', import.meta.url));
    // In a process of its own: its memory is nobody else's.
    const script = `
      const { collectGarbage } = await import(${JSON.stringify(module)});
      let kept = [];
      for (let i = 0; i < 300; i++) {
        kept.push(Array.from({ length: 20000 }, (_, j) => ({ i, j, s: 'x' + j })));
        if (kept.length > 60) kept.shift();
      }
      kept = null;
      collectGarbage('major');
      const afterWhole = process.memoryUsage.rss();
      collectGarbage('reduce');
      const afterReducing = process.memoryUsage.rss();
      console.log(JSON.stringify({ afterWhole, afterReducing }));
    `;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--max-semi-space-size=4', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    const { afterWhole, afterReducing } = JSON.parse(run.stdout) as {
      afterWhole: number;
      afterReducing: number;
    };
    expect(afterWhole - afterReducing).toBeGreaterThan(60 * MB);
  });
});

describe('memory given back after heavy jobs', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The server's resident memory as the test sets it, and each time it was given back. */
  function watched() {
    vi.useFakeTimers();
    const jobs = heavyJobs(1);
    const memory = { resident: 150 * MB, givenBack: 0 };
    const stop = giveMemoryBackAfter(jobs, createLogger('silent'), {
      residentBytes: () => memory.resident,
      giveBack: () => {
        memory.givenBack += 1;
        memory.resident = 160 * MB;
      },
    });
    return { jobs, memory, stop };
  }

  it('once the jobs that grew it by 32 MB have ended, a second after', async () => {
    const { jobs, memory } = watched();
    await jobs.run(async () => {
      memory.resident += GROWTH_TO_GIVE_BACK;
    });
    expect(memory.givenBack).toBe(0);
    vi.advanceTimersByTime(GIVE_BACK_AFTER_MS - 1);
    expect(memory.givenBack).toBe(0);
    vi.advanceTimersByTime(1);
    expect(memory.givenBack).toBe(1);
    // Measured again from where it was given back: a job that grows it less is left alone.
    await jobs.run(async () => {
      memory.resident += GROWTH_TO_GIVE_BACK - MB;
    });
    vi.advanceTimersByTime(GIVE_BACK_AFTER_MS);
    expect(memory.givenBack).toBe(1);
  });

  it('once for jobs that end together, and never for jobs that did not grow it', async () => {
    const { jobs, memory } = watched();
    await jobs.run(async () => undefined);
    vi.advanceTimersByTime(GIVE_BACK_AFTER_MS);
    expect(memory.givenBack).toBe(0);
    await Promise.all([
      jobs.run(async () => {
        memory.resident += GROWTH_TO_GIVE_BACK;
      }),
      // Waits its turn, then begins while the giving back waits: counted from the first.
      jobs.run(async () => {
        memory.resident += MB;
      }),
    ]);
    vi.advanceTimersByTime(GIVE_BACK_AFTER_MS);
    expect(memory.givenBack).toBe(1);
  });

  it('not once stopped', async () => {
    const { jobs, memory, stop } = watched();
    await jobs.run(async () => {
      memory.resident += 2 * GROWTH_TO_GIVE_BACK;
    });
    stop();
    vi.advanceTimersByTime(GIVE_BACK_AFTER_MS);
    expect(memory.givenBack).toBe(0);
  });
});
