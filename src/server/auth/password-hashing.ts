/**
 * Password hashing at OWASP/ASVS strength, for account passwords and the Friends & Family
 * Passcode alike: Argon2id with 19 MiB of memory, 2 passes and 1 lane (OWASP's first
 * recommendation). Memory-hard like scrypt at N = 2^17, at a seventh of the memory per hash,
 * so a burst of sign-ins does not balloon the server; about 40 ms on one core.
 *
 * Hashes are PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>`) that carry their own
 * parameters, so the cost can rise later and every stored hash stays verifiable. Hashes in
 * better-auth's default format (`<hex salt>:<hex key>`, scrypt N = 2^14, r = 16, p = 1), made
 * before this module existed, still verify, and `needsRehash` tells the caller to replace them.
 *
 * Hashes run at most one per two CPU cores at a time, in the whole process (at least one,
 * never more than four): every hasher shares one queue. Hashing is all CPU: running more at
 * once only finishes each later, while every hash in flight holds its 19 MiB and a core
 * that every other request needs too. A burst of sign-ins waits its turn instead, and the
 * rest of the server keeps half the cores. (glibc would also keep each thread's 19 MiB for
 * good once it had been handed out; `npm start` sets GLIBC_TUNABLES so that it is given
 * back, on huge pages: see docs/operations.md, "Memory".)
 */
import { scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import pLimit from 'p-limit';

export interface HashCost {
  /** Memory per hash, in KiB. */
  memoryKiB: number;
  /** Passes over the memory. */
  iterations: number;
  /** Lanes. */
  parallelism: number;
}

/** The product's cost: OWASP's Argon2id recommendation (m = 19 MiB, t = 2, p = 1). */
export const DEFAULT_HASH_COST: HashCost = Object.freeze({
  memoryKiB: 19_456,
  iterations: 2,
  parallelism: 1,
});

/** better-auth's default format, which hashes made before this module are in. */
const LEGACY = { N: 2 ** 14, r: 16, p: 1, keyLength: 64 };

// Bounds for parameters read back from a stored hash, so that a damaged row cannot make
// the server try to allocate gigabytes.
const LIMITS = { memoryKiB: [8, 1_048_576], iterations: [1, 16], parallelism: [1, 16] } as const;

const ARGON2_PATTERN =
  /^\$argon2id\$v=19\$([a-z]=\d+(?:,[a-z]=\d+)*)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
const LEGACY_PATTERN = /^([0-9a-f]+):([0-9a-f]{128})$/i;

function within(value: number, [min, max]: readonly [number, number]) {
  return Number.isInteger(value) && value >= min && value <= max;
}

/** The cost a stored hash was made with; `legacy` for better-auth's format; null if unreadable. */
export function hashCost(hash: string): HashCost | 'legacy' | null {
  const match = ARGON2_PATTERN.exec(hash);
  if (match) {
    const params = Object.fromEntries((match[1] ?? '').split(',').map((pair) => pair.split('=')));
    const cost = {
      memoryKiB: Number(params.m),
      iterations: Number(params.t),
      parallelism: Number(params.p),
    };
    return within(cost.memoryKiB, LIMITS.memoryKiB) &&
      within(cost.iterations, LIMITS.iterations) &&
      within(cost.parallelism, LIMITS.parallelism)
      ? cost
      : null;
  }
  return LEGACY_PATTERN.test(hash) ? 'legacy' : null;
}

function verifyLegacy(hash: string, password: string): Promise<boolean> {
  const [, salt = '', key = ''] = LEGACY_PATTERN.exec(hash) ?? [];
  const expected = Buffer.from(key, 'hex');
  return new Promise((resolve) => {
    // better-auth hands its hex salt to scrypt as a string, not as the bytes it spells.
    scrypt(
      password.normalize('NFKC'),
      salt,
      LEGACY.keyLength,
      { N: LEGACY.N, r: LEGACY.r, p: LEGACY.p, maxmem: 2 * 128 * LEGACY.N * LEGACY.r },
      (error, derived) =>
        resolve(!error && derived.length === expected.length && timingSafeEqual(derived, expected)),
    );
  });
}

export interface PasswordHasher {
  cost: HashCost;
  hash(password: string): Promise<string>;
  verify(input: { hash: string; password: string }): Promise<boolean>;
  /** Whether a stored hash is weaker than, or in an older format than, what `hash` makes now. */
  needsRehash(hash: string): boolean;
}

/** How many hashes may run at once in the process: one per two cores, one to four. */
export const HASHING_CONCURRENCY = Math.min(Math.max(Math.floor(availableParallelism() / 2), 1), 4);

/** The one queue of every hasher in the process. */
const processTurn = pLimit(HASHING_CONCURRENCY);

/**
 * A hasher at the given cost. Its hashes wait in the process's one queue; a `concurrency`
 * gives it a queue of its own instead (tests).
 */
export function createPasswordHasher(
  cost: HashCost = DEFAULT_HASH_COST,
  concurrency?: number,
): PasswordHasher {
  const inTurn = concurrency === undefined ? processTurn : pLimit(concurrency);
  return {
    cost,
    hash(password) {
      return inTurn(() =>
        argon2.hash(password.normalize('NFKC'), {
          type: argon2.argon2id,
          memoryCost: cost.memoryKiB,
          timeCost: cost.iterations,
          parallelism: cost.parallelism,
        }),
      );
    },
    async verify({ hash, password }) {
      const stored = hashCost(hash);
      if (stored === null) return false;
      if (stored === 'legacy') return inTurn(() => verifyLegacy(hash, password));
      try {
        return await inTurn(() => argon2.verify(hash, password.normalize('NFKC')));
      } catch {
        return false;
      }
    },
    needsRehash(hash) {
      const stored = hashCost(hash);
      if (stored === null || stored === 'legacy') return true;
      return (
        stored.memoryKiB < cost.memoryKiB ||
        stored.iterations < cost.iterations ||
        stored.parallelism < cost.parallelism
      );
    },
  };
}
