/**
 * A job thread (job-thread.ts) with a time limit on each job: jobs waiting behind others are
 * not failed by their wait; a job that keeps its thread busy fails when the limit passes,
 * alone: the jobs behind it are done on a new thread. On a process of its own, a job that
 * fills its heap fails alone too (a worker thread's would take the server with it). Jobs of several accounts are taken in turn. A thread with an idle time
 * ends when it has had nothing to do that long, or at once when asked to rest, and the next job
 * starts another.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLOCK_LIMIT_FACTOR,
  isPastLimits,
  jobThread,
  JobThreadStoppedError,
  JobTimeLimitError,
  type JobThreadOptions,
} from './job-thread';

/** A job: how long it sleeps, whose it is, and its own time limit. */
type Sleep = { ms: number; account?: string; limitMs?: number; marker?: string };

const sleepy = (
  options: Partial<JobThreadOptions<Sleep, { id: number; slept: number }, number>> = {},
) =>
  jobThread<Sleep, { id: number; slept: number }, number>({
    entry: 'sleepy-worker',
    from: new URL('./testing/', import.meta.url).href,
    name: 'sleepy',
    result: (answer) => ({ ok: answer.slept }),
    timeLimitMs: 1_500,
    ...options,
  });

/** What a job failed with (none: it did not). */
const failureOf = (job: Promise<unknown>) =>
  job.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('a job thread with a time limit', () => {
  it('answers the jobs that finish in time, however long they waited behind others', async () => {
    const thread = sleepy();
    try {
      // The thread started first: its start (loading its code from source) is the first
      // job's time.
      expect(await thread.run({ ms: 1 })).toBe(1);
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

  it('fails only the job past its limit: the jobs behind it are done on a new thread', async () => {
    const thread = sleepy();
    try {
      expect(await thread.run({ ms: 1 })).toBe(1);
      const started = Date.now();
      const stuck = thread.run({ ms: -1 });
      const behind = [thread.run({ ms: 1 }), thread.run({ ms: 20 })];
      const failure = await failureOf(stuck);
      expect(failure).toBeInstanceOf(JobTimeLimitError);
      expect(isPastLimits(failure)).toBe(true);
      expect(String(failure)).toContain('The sleepy thread took over 1500 ms on one job');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      expect(await Promise.all(behind)).toEqual([1, 20]);
      expect(thread.running).toBe(true);
      expect(await thread.run({ ms: 5 })).toBe(5);
    } finally {
      await thread.close();
    }
  });

  it('in a process of its own, fails only the job that fills its heap, or runs past its limit', async () => {
    // Time for a process to start and load its code from source, on a busy machine.
    const thread = sleepy({ timeLimitMs: 8_000, heapMb: 64 });
    try {
      expect(await thread.run({ ms: 1 })).toBe(1);
      const hungry = failureOf(thread.run({ ms: -2 }));
      const stuck = failureOf(thread.run({ ms: -1 }));
      const behind = thread.run({ ms: 3 });
      const full = await hungry;
      expect(String(full)).toMatch(/The sleepy process ran out of memory \(its heap is 64 MB\)/);
      expect(isPastLimits(full)).toBe(true);
      expect(await stuck).toBeInstanceOf(JobTimeLimitError);
      expect(await behind).toBe(3);
      // The server's process goes on: this test is in it.
      expect(thread.running).toBe(true);
    } finally {
      await thread.close();
    }
  }, 60_000);
});

describe.runIf(process.platform === 'linux')('a job process’s time', () => {
  it('is the CPU time it spends: a wait past its limit is no fault, a busy loop is, and so is a wait ten times as long', async () => {
    // Time for a process to start and load its code from source, on a busy machine.
    const thread = sleepy({ heapMb: 64, timeLimitMs: (job) => job.limitMs ?? 8_000 });
    try {
      expect(await thread.run({ ms: 1 })).toBe(1);
      // A thread made to wait (as a niced one does behind busier work) spends no CPU.
      expect(await thread.run({ ms: 1_500, limitMs: 500 })).toBe(1_500);
      // One that keeps the CPU busy fails once it has spent its limit.
      expect(await failureOf(thread.run({ ms: -1, limitMs: 500 }))).toBeInstanceOf(
        JobTimeLimitError,
      );
      // The next process started (its start is not the next job's time).
      expect(await thread.run({ ms: 1 })).toBe(1);
      // One still waiting after CLOCK_LIMIT_FACTOR times its limit fails all the same.
      const started = Date.now();
      const waiting = await failureOf(thread.run({ ms: 4_000, limitMs: 200 }));
      expect(waiting).toBeInstanceOf(JobTimeLimitError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(200 * CLOCK_LIMIT_FACTOR - 100);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(await thread.run({ ms: 2 })).toBe(2);
    } finally {
      await thread.close();
    }
  }, 60_000);
});

describe('a job thread taking jobs in turn', () => {
  it('does one of each account’s jobs in turn: a second account’s job does not wait for all of the first’s', async () => {
    const thread = sleepy({ turnOf: (job) => job.account ?? '' });
    const done: string[] = [];
    const run = (account: string, name: string) =>
      thread.run({ ms: 50, account }).then(() => done.push(name));
    try {
      await Promise.all([
        run('a', 'a1'),
        run('a', 'a2'),
        run('a', 'a3'),
        run('a', 'a4'),
        run('b', 'b1'),
        run('c', 'c1'),
        run('b', 'b2'),
      ]);
      expect(done).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    } finally {
      await thread.close();
    }
  });
});

describe('a job thread with an idle time', () => {
  it('stays while jobs come, ends once idle that long, and starts again for the next job', async () => {
    const thread = sleepy({ timeLimitMs: undefined, idleMs: 400 });
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

  it('rests when asked: at once if idle, not while it holds a job', async () => {
    const thread = sleepy({ timeLimitMs: undefined, idleMs: 60_000 });
    try {
      expect(await thread.run({ ms: 1 })).toBe(1);
      expect(thread.running).toBe(true);
      const busy = thread.run({ ms: 300 });
      thread.rest();
      expect(thread.running).toBe(true);
      expect(await busy).toBe(300);
      thread.rest();
      expect(thread.running).toBe(false);
      expect(await thread.run({ ms: 2 })).toBe(2);
      expect(thread.running).toBe(true);
    } finally {
      await thread.close();
    }
  });
});

describe('a job thread whose process crashes under a job', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'kin-crash-'));
  const crashing = (againAfterCrash: boolean) =>
    sleepy({ timeLimitMs: undefined, heapMb: 64, againAfterCrash });

  it('runs the job once more on a new process when asked to, and the jobs behind it', async () => {
    const thread = crashing(true);
    try {
      const marker = path.join(folder, 'once');
      const jobs = [thread.run({ ms: -3, marker }), thread.run({ ms: 5 })];
      expect(await Promise.all(jobs)).toEqual([-3, 5]);
    } finally {
      await thread.close();
    }
  });

  it('fails it, saying the signal, when not asked to, or when it crashes again', async () => {
    for (const [againAfterCrash, ms] of [
      [false, -3],
      [true, -4],
    ] as const) {
      const thread = crashing(againAfterCrash);
      try {
        const marker = path.join(folder, `${againAfterCrash}`);
        const failure = await failureOf(thread.run({ ms, marker }));
        expect(failure).toBeInstanceOf(JobThreadStoppedError);
        expect((failure as Error).message).toBe('The sleepy thread stopped (SIGKILL)');
        expect(isPastLimits(failure)).toBe(false);
        // The next job is done on a new process.
        expect(await thread.run({ ms: 5 })).toBe(5);
      } finally {
        await thread.close();
      }
    }
    rmSync(folder, { recursive: true, force: true });
  });
});
