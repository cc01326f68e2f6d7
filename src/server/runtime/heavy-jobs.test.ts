/**
 * The server's heavy jobs run a few at a time, the others waiting their turn in the order
 * they asked; one that waits is told so, and one that fails gives its place to the next.
 */
import { describe, expect, it } from 'vitest';
import { heavyJobs } from './heavy-jobs';

/** A job that runs until it is let go. */
function held() {
  let letGo: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (letGo = resolve));
  return { done, letGo: () => letGo() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('heavy jobs', () => {
  it('run one at a time at one at once: the next waits, is told so, and runs when the first ends', async () => {
    const jobs = heavyJobs(1);
    const first = held();
    const order: string[] = [];
    const waited: string[] = [];
    const a = jobs.run(
      async () => {
        order.push('a starts');
        await first.done;
        order.push('a ends');
      },
      () => waited.push('a'),
    );
    const b = jobs.run(
      async () => order.push('b runs'),
      () => waited.push('b'),
    );
    await tick();
    expect(order).toEqual(['a starts']);
    expect(waited).toEqual(['b']);
    expect([jobs.running, jobs.waiting]).toEqual([1, 1]);
    first.letGo();
    await Promise.all([a, b]);
    expect(order).toEqual(['a starts', 'a ends', 'b runs']);
    expect([jobs.running, jobs.waiting]).toEqual([0, 0]);
  });

  it('run as many at once as allowed, the rest in the order they asked', async () => {
    const jobs = heavyJobs(2);
    const holds = [held(), held()];
    const ran: number[] = [];
    const runs = [0, 1, 2, 3].map((index) =>
      jobs.run(async () => {
        ran.push(index);
        await holds[index]?.done;
      }),
    );
    await tick();
    expect(ran).toEqual([0, 1]);
    expect([jobs.running, jobs.waiting]).toEqual([2, 2]);
    holds[1]?.letGo();
    await tick();
    await tick();
    expect(ran).toEqual([0, 1, 2, 3]);
    holds[0]?.letGo();
    await Promise.all(runs);
    expect([jobs.running, jobs.waiting]).toEqual([0, 0]);
  });

  it('give the place of a job that fails to the next, and pass its error on', async () => {
    const jobs = heavyJobs(1);
    const failing = jobs.run(async () => {
      await tick();
      throw new Error('the file could not be read');
    });
    const next = jobs.run(async () => 'read');
    await expect(failing).rejects.toThrow('the file could not be read');
    await expect(next).resolves.toBe('read');
    expect([jobs.running, jobs.waiting]).toEqual([0, 0]);
  });

  it('let a job whose asker has gone leave the queue: it never runs, and the next keeps its place', async () => {
    const jobs = heavyJobs(1);
    const first = held();
    const ran: string[] = [];
    const a = jobs.run(() => first.done);
    const gone = new AbortController();
    const b = jobs.run(async () => ran.push('b'), undefined, gone.signal);
    const c = jobs.run(async () => ran.push('c'));
    await tick();
    expect([jobs.running, jobs.waiting]).toEqual([1, 2]);
    gone.abort(new Error('the page was left'));
    await expect(b).rejects.toThrow('the page was left');
    expect([jobs.running, jobs.waiting]).toEqual([1, 1]);
    first.letGo();
    await Promise.all([a, c]);
    expect(ran).toEqual(['c']);
    expect([jobs.running, jobs.waiting]).toEqual([0, 0]);
    // Gone before it asked: it does not take a place.
    await expect(jobs.run(async () => ran.push('d'), undefined, gone.signal)).rejects.toThrow(
      'the page was left',
    );
    expect([jobs.running, jobs.waiting, ran.length]).toEqual([0, 0, 1]);
  });

  it('tell what listens as each job begins, before its work, until it stops listening', async () => {
    const jobs = heavyJobs(1);
    const said: string[] = [];
    const stop = jobs.onBegin(() => said.push('begins'));
    await jobs.run(async () => said.push('works'));
    await jobs.run(async () => said.push('works'));
    stop();
    await jobs.run(async () => said.push('works'));
    expect(said).toEqual(['begins', 'works', 'begins', 'works', 'works']);
  });

  it('tell what listens as each job ends, failed or done, once its place is given on', async () => {
    const jobs = heavyJobs(1);
    const said: string[] = [];
    const stop = jobs.onEnd(() => said.push(`ends with ${jobs.running} running`));
    await jobs.run(async () => said.push('works'));
    await expect(
      jobs.run(async () => {
        said.push('fails');
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    stop();
    await jobs.run(async () => said.push('works'));
    expect(said).toEqual(['works', 'ends with 0 running', 'fails', 'ends with 0 running', 'works']);
  });

  it('refuse fewer than one at once', () => {
    expect(() => heavyJobs(0)).toThrow('at least one at once, not 0');
  });
});
