/**
 * Password hashing at OWASP/ASVS strength, for account passwords and the Friends & Family
 * Passcode alike: scrypt with N = 2^17, r = 8, p = 1 (128 MiB, about half a second of one
 * core), from node:crypto, so it runs on libuv's thread pool and needs no native package.
 *
 * A new hash carries its own parameters, in the PHC string style:
 * `$scrypt$ln=17,r=8,p=1$<salt>$<key>` (salt and key in unpadded base64url). Raising the cost
 * later leaves every stored hash verifiable. Hashes in better-auth's default format
 * (`<hex salt>:<hex key>`, N = 2^14, r = 16, p = 1), made before this module existed,
 * still verify, and `needsRehash` tells the caller to replace them.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  /** log2 of scrypt's N (CPU/memory cost). */
  log2N: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

/** The product's cost: OWASP's scrypt recommendation (N = 2^17, r = 8, p = 1). */
export const DEFAULT_SCRYPT_COST: ScryptCost = Object.freeze({ log2N: 17, r: 8, p: 1 });

/** better-auth's default format, which existing users' hashes are in. */
const LEGACY_COST: ScryptCost = { log2N: 14, r: 16, p: 1 };
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
const PREFIX = '$scrypt$';

// Bounds for parameters read back from a stored hash, so that a damaged row cannot make
// the server try to allocate gigabytes.
const LIMITS = { log2N: [10, 20], r: [1, 32], p: [1, 16] } as const;

function derive(password: string, salt: Buffer | string, cost: ScryptCost): Promise<Buffer> {
  const N = 2 ** cost.log2N;
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      // scrypt needs 128 * N * r bytes; maxmem leaves room for the rest of its state.
      { N, r: cost.r, p: cost.p, maxmem: 2 * 128 * N * cost.r },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

interface ParsedHash {
  kind: 'scrypt' | 'legacy';
  cost: ScryptCost;
  salt: Buffer | string;
  key: Buffer;
}

function within(value: number, [min, max]: readonly [number, number]) {
  return Number.isInteger(value) && value >= min && value <= max;
}

function parseHash(hash: string): ParsedHash | null {
  if (hash.startsWith(PREFIX)) {
    const [params, salt, key] = hash.slice(PREFIX.length).split('$');
    const match = /^ln=(\d+),r=(\d+),p=(\d+)$/.exec(params ?? '');
    if (!match || !salt || !key) return null;
    const cost = { log2N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
    if (
      !within(cost.log2N, LIMITS.log2N) ||
      !within(cost.r, LIMITS.r) ||
      !within(cost.p, LIMITS.p)
    ) {
      return null;
    }
    return {
      kind: 'scrypt',
      cost,
      salt: Buffer.from(salt, 'base64url'),
      key: Buffer.from(key, 'base64url'),
    };
  }
  const legacy = /^([0-9a-f]+):([0-9a-f]+)$/i.exec(hash);
  if (!legacy?.[1] || !legacy[2]) return null;
  // better-auth hands its hex salt to scrypt as a string, not as the bytes it spells.
  return { kind: 'legacy', cost: LEGACY_COST, salt: legacy[1], key: Buffer.from(legacy[2], 'hex') };
}

/** The cost parameters a stored hash was made with, or null for a hash this module cannot read. */
export function hashCost(hash: string): ScryptCost | null {
  return parseHash(hash)?.cost ?? null;
}

export interface PasswordHasher {
  cost: ScryptCost;
  hash(password: string): Promise<string>;
  verify(input: { hash: string; password: string }): Promise<boolean>;
  /** Whether a stored hash is weaker than, or in an older format than, what `hash` makes now. */
  needsRehash(hash: string): boolean;
}

export function createPasswordHasher(cost: ScryptCost = DEFAULT_SCRYPT_COST): PasswordHasher {
  return {
    cost,
    async hash(password) {
      const salt = randomBytes(SALT_BYTES);
      const key = await derive(password, salt, cost);
      const params = `ln=${cost.log2N},r=${cost.r},p=${cost.p}`;
      return `${PREFIX}${params}$${salt.toString('base64url')}$${key.toString('base64url')}`;
    },
    async verify({ hash, password }) {
      const parsed = parseHash(hash);
      if (!parsed) return false;
      const key = await derive(password, parsed.salt, parsed.cost);
      return sameBytes(key, parsed.key);
    },
    needsRehash(hash) {
      const parsed = parseHash(hash);
      if (!parsed || parsed.kind === 'legacy') return true;
      return parsed.cost.log2N < cost.log2N || parsed.cost.r < cost.r || parsed.cost.p < cost.p;
    },
  };
}
