/**
 * The growing delay of a limit (the server-wide limit on wrong passcodes): the window's
 * attempts go ahead, then one more at a time after a pause that doubles, up to the window's
 * length, and a new window starts afresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness';
import { createAttemptLimits, FIRST_DELAY_MS } from './attempt-limits';

describe('a limit with a growing delay', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const key = { scope: 'server', subject: 'test', action: 'guess' };

  it('lets the window’s attempts through, then one per doubling pause, at most the window', async () => {
    const limits = createAttemptLimits(database.database.db, { max: 3, windowSeconds: 3600 });
    const start = 1_000_000_000_000;
    const at = (ms: number) => limits.consumeWithGrowingDelay(key, start + ms);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await at(attempt)).toMatchObject({ allowed: true, limitReached: false });
    }
    // The first over the limit goes ahead, and the pause begins.
    expect(await at(10)).toMatchObject({ allowed: true, limitReached: true });
    expect(await at(10 + FIRST_DELAY_MS - 1)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 1,
    });
    let now = 10 + FIRST_DELAY_MS;
    const pauses: number[] = [];
    for (let step = 0; step < 14; step += 1) {
      const decision = await at(now);
      expect(decision).toMatchObject({ allowed: true, limitReached: false });
      // Right away, the next is refused until the new pause is over.
      const refused = await at(now);
      expect(refused.allowed).toBe(false);
      pauses.push(refused.retryAfterSeconds);
      now += refused.retryAfterSeconds * 1000;
      if (now >= 3_600_000) break;
    }
    expect(pauses.slice(0, 4)).toEqual([2, 4, 8, 16]);
    // Within the hour: the three of the window, and about a dozen more.
    expect(pauses.length).toBeLessThanOrEqual(12);
    // A new window starts afresh.
    expect(await at(3_600_000 + 10_000)).toMatchObject({ allowed: true, limitReached: false });
  });

  it('does not count a refunded attempt (a right passcode)', async () => {
    const limits = createAttemptLimits(database.database.db, { max: 2, windowSeconds: 60 });
    const refundKey = { ...key, subject: 'refund' };
    const now = 2_000_000_000_000;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await limits.consumeWithGrowingDelay(refundKey, now)).allowed).toBe(true);
      await limits.refund(refundKey);
    }
  });
});
