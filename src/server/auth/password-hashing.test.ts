/** Hashing one at a time: a burst of sign-ins waits its turn rather than holding 32 MiB each. */
import { describe, expect, it } from 'vitest';
import { concurrencyLimit, hashSecret, verifySecret } from './password-hashing';

describe('the concurrency limit', () => {
  it('never runs more tasks at once than allowed, and runs them all in order', async () => {
    const limit = concurrencyLimit(2);
    let running = 0;
    let most = 0;
    const finished: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, (_, index) =>
        limit(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
          finished.push(index);
        }),
      ),
    );
    expect(most).toBe(2);
    expect(finished).toHaveLength(7);
  });

  it('goes on after a task fails', async () => {
    const limit = concurrencyLimit(1);
    await expect(limit(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(limit(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});

describe('hashing', () => {
  it('checks a secret against its own hash and no other', async () => {
    const hash = await hashSecret('246810');
    const [right, wrong] = await Promise.all([
      verifySecret({ hash, password: '246810' }),
      verifySecret({ hash, password: '135790' }),
    ]);
    expect([right, wrong]).toEqual([true, false]);
  });
});
