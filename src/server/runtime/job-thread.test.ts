/**
 * A job thread (job-thread.ts) with a time limit on each job: jobs waiting behind others are
 * not failed by their wait; a job that keeps its thread busy fails when the limit passes,
 * with the jobs behind it, and the next job runs on a new thread. A thread with an idle time
 * ends when it has had nothing to do that long, and the next job starts another.
 */
import { describe, expect, it } from 'vitest';
import { jobThread } from './job-thread';

const sleepy = () =>
  jobThread<{ ms: number }, { id: number; slept: number }, number>({
    entry: 'sleepy-worker',
    from: new URL('./testing/', import.meta.url).href,
    name: 'sleepy',
    result: (answer) => ({ ok: answer.slept }),
    timeLimitMs: 1_500,
  });

describe('a job thread with a time limit', () => {
  it('answers the jobs that finish in time, however long they waited behind others', async () => {
    const thread = sleepy();
    try {
      // Three jobs of 0.9 s each, sent at once and done one after another: the last is
      // answered 2.7 s after it was sent, past the limit of 1.5 s, but took 0.9 s itself.
      const started = Date.now();
      const jobs = [thread.run({ ms: 900 }), thread.run({ ms: 900 }), thread.run({ ms: 900 })];
      expect(await Promise.all(jobs)).toEqual([900, 900, 900]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_600);
    } finally {
      await thread.close();
    }
  });

  it('fails a job past its limit, and the job behind it, then runs the next on a new thread', async () => {
    const thread = sleepy();
    try {
      expect(await thread.run({ ms: 1 })).toBe(1);
      const started = Date.now();
      const stuck = thread.run({ ms: -1 });
      const behind = thread.run({ ms: 1 });
      await expect(stuck).rejects.toThrow('The sleepy thread took over 1500 ms on one job');
      await expect(behind).rejects.toThrow('The sleepy thread took over 1500 ms on one job');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      expect(thread.running).toBe(false);
      expect(await thread.run({ ms: 5 })).toBe(5);
    } finally {
      await thread.close();
    }
  });
});

describe('a job thread with an idle time', () => {
  it('stays while jobs come, ends once idle that long, and starts again for the next job', async () => {
    const thread = jobThread<{ ms: number }, { id: number; slept: number }, number>({
      entry: 'sleepy-worker',
      from: new URL('./testing/', import.meta.url).href,
      name: 'sleepy',
      result: (answer) => ({ ok: answer.slept }),
      idleMs: 400,
    });
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      expect(await thread.run({ ms: 1 })).toBe(1);
      await pause(250);
      // A job within the idle time: the same thread, its idle time counted afresh.
      expect(thread.running).toBe(true);
      expect(await thread.run({ ms: 300 })).toBe(300);
      await pause(250);
      expect(thread.running).toBe(true);
      await pause(400);
      expect(thread.running).toBe(false);
      expect(await thread.run({ ms: 2 })).toBe(2);
      expect(thread.running).toBe(true);
    } finally {
      await thread.close();
    }
  });
});
