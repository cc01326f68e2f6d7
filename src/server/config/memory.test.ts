/**
 * KIN_MEMORY_MB: the server's memory budget and what follows from it, with a message naming
 * the variable when it is wrong.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from './env';
import { DEFAULT_MEMORY_MB, memoryPlan, memoryPlanOf } from './memory';

describe('KIN_MEMORY_MB', () => {
  it('is 512 MB when unset or empty: one heavy job at a time, one image thread, small job heaps, idle processes making room', () => {
    for (const env of [{}, { KIN_MEMORY_MB: '' }]) {
      expect(memoryPlanOf(env)).toEqual({
        budgetMb: DEFAULT_MEMORY_MB,
        heavyJobsAtOnce: 1,
        jobHeapMb: 192,
        imageThreads: 1,
        jobIdleMs: 5_000,
        restForHeavyJobs: true,
        releaseOcr: true,
      });
    }
  });

  it('gives a bigger machine more at once, and libvips its own threads', () => {
    expect(memoryPlan(1024)).toMatchObject({
      heavyJobsAtOnce: 2,
      jobHeapMb: 384,
      imageThreads: 0,
      restForHeavyJobs: false,
      releaseOcr: false,
    });
    expect(memoryPlan(4096)).toMatchObject({
      heavyJobsAtOnce: 3,
      jobHeapMb: 512,
      jobIdleMs: 60_000,
    });
    expect(memoryPlan(256)).toMatchObject({ heavyJobsAtOnce: 1, jobHeapMb: 128 });
  });

  it('names itself when it is not a whole number of megabytes, 256 or more', () => {
    for (const value of ['200', '1.5', 'lots', '-512']) {
      expect(() => memoryPlanOf({ KIN_MEMORY_MB: value })).toThrow(ConfigError);
      expect(() => memoryPlanOf({ KIN_MEMORY_MB: value })).toThrow(
        `KIN_MEMORY_MB must be a whole number of megabytes, 256 or more, not "${value}"`,
      );
    }
  });
});
