/**
 * A portal's tokens at rest: sealed as a JWE (`dir`, A256GCM) with a key derived from
 * AUTH_SECRET by HKDF for this one use, so that a copy of the database (a backup) holds them
 * only sealed, and a changed AUTH_SECRET makes them unreadable (the family reconnects). Each
 * sealed text is bound to its connection and field, so one cannot be moved to another row.
 */
import { hkdfSync } from 'node:crypto';
import { compactDecrypt, CompactEncrypt } from 'jose';

const INFO = 'kin-health patient-portal tokens';

export interface TokenSeal {
  seal(text: string, binding: string): Promise<string>;
  /** The sealed text, or null when it cannot be opened (another key, another binding). */
  open(sealed: string, binding: string): Promise<string | null>;
}

export function createTokenSeal(authSecret: string): TokenSeal {
  const key = new Uint8Array(hkdfSync('sha256', authSecret, new Uint8Array(0), INFO, 32));
  const encoder = new TextEncoder();
  return {
    seal: (text, binding) =>
      new CompactEncrypt(encoder.encode(text))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: binding })
        .encrypt(key),
    async open(sealed, binding) {
      try {
        const { plaintext, protectedHeader } = await compactDecrypt(sealed, key);
        return protectedHeader.kid === binding ? new TextDecoder().decode(plaintext) : null;
      } catch {
        return null;
      }
    },
  };
}
