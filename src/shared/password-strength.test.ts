import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_MESSAGE, passwordStrength } from './password-strength';

describe('password strength', () => {
  it.each(['123456', 'password123', 'Password123', 'qwerty12'])(
    'says plainly that %s is one of the most common',
    (password) => {
      expect(passwordStrength(password)).toMatchObject({
        common: true,
        score: 0,
        message: COMMON_PASSWORD_MESSAGE,
      });
    },
  );

  it('does not call a long, uncommon password common, and rates it strong', () => {
    const strength = passwordStrength('violet-harbour-71-kettle');
    expect(strength.common).toBe(false);
    expect(strength.score).toBeGreaterThanOrEqual(3);
    expect(strength.label).toMatch(/strong/i);
  });

  it('does not call a password common for a common word inside it', () => {
    expect(passwordStrength('secret-password').common).toBe(false);
  });
});
