import { describe, expect, it } from 'vitest';
import { createTokenSeal } from './token-seal';

const secret = 'a-secret-of-at-least-thirty-two-characters';

describe("a portal's tokens at rest", () => {
  it('are sealed, and opened only with the same key and binding', async () => {
    const seal = createTokenSeal(secret);
    const sealed = await seal.seal('refresh-token-value', 'c1:refresh');
    expect(sealed).not.toContain('refresh-token-value');
    expect(Buffer.from(sealed.split('.')[3] ?? '', 'base64url').toString()).not.toContain(
      'refresh-token-value',
    );
    expect(await seal.open(sealed, 'c1:refresh')).toBe('refresh-token-value');
    // Moved to another connection, or another field: not opened.
    expect(await seal.open(sealed, 'c2:refresh')).toBeNull();
    expect(await seal.open(sealed, 'c1:access')).toBeNull();
    // Another AUTH_SECRET: not opened.
    expect(await createTokenSeal(`${secret}-changed`).open(sealed, 'c1:refresh')).toBeNull();
    // Tampered with (one bit of the ciphertext flipped): not opened.
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[3] ?? '', 'base64url');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[3] = ciphertext.toString('base64url');
    expect(await seal.open(parts.join('.'), 'c1:refresh')).toBeNull();
  });

  it('are sealed differently each time', async () => {
    const seal = createTokenSeal(secret);
    expect(await seal.seal('t', 'b')).not.toBe(await seal.seal('t', 'b'));
  });
});
