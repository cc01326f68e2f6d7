/** A stored or asked-for language code, read as one the product speaks or as the default. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, languageOrDefault } from './languages';

describe('languageOrDefault', () => {
  it('keeps every language the product speaks', () => {
    for (const code of LANGUAGE_CODES) expect(languageOrDefault(code)).toBe(code);
  });

  it('reads anything else as the default, English', () => {
    expect(DEFAULT_LANGUAGE).toBe('en');
    for (const value of ['tlh', 'EN', 'fr-FR', '', null, undefined, 7]) {
      expect(languageOrDefault(value)).toBe('en');
    }
  });
});
