/**
 * A language's words are loaded when it is first spoken, not at the start: a server whose
 * families speak English holds no other catalogue (about 17 MB of heap for the seven), and
 * one that speaks French holds French alone. A language not loaded is refused rather than
 * answered in English, so that a caller that forgot to load it fails its tests.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

// A fresh copy of the modules for each test: the API test files share their worker's
// modules, and another file may have loaded every language already.
async function freshLanguages() {
  vi.resetModules();
  const languages = await import('./server-language');
  const { tr } = await import('../../shared/i18n/translate');
  return { ...languages, tr };
}

describe('languages loaded as they are spoken', () => {
  let fresh: Awaited<ReturnType<typeof freshLanguages>>;
  beforeEach(async () => {
    fresh = await freshLanguages();
  });

  it('holds English alone until another language is spoken', async () => {
    expect(fresh.languagesLoaded()).toEqual(['en']);
    expect(await fresh.inLanguage('fr', () => fresh.tr('Person not found'))).toBe(
      'Personne introuvable',
    );
    expect(fresh.languagesLoaded()).toEqual(['en', 'fr']);
    // Loaded once, it is spoken at once.
    expect(fresh.runInLanguage('fr', () => fresh.tr('Person not found'))).toBe(
      'Personne introuvable',
    );
  });

  it('refuses a language not loaded rather than answer in English', () => {
    expect(() => fresh.runInLanguage('de', () => fresh.tr('Person not found'))).toThrow(
      "The words of 'de' are not loaded",
    );
    expect(fresh.languagesLoaded()).toEqual(['en']);
  });

  it('speaks a code it does not know as English, loading nothing', async () => {
    expect(await fresh.inLanguage('tlh', () => fresh.tr('Person not found'))).toBe(
      'Person not found',
    );
    expect(fresh.runInLanguage(null, () => fresh.tr('Person not found'))).toBe('Person not found');
    expect(fresh.languagesLoaded()).toEqual(['en']);
  });

  it('loads a language asked for by two at once a single time, and all of them on request', async () => {
    const [first, second] = [fresh.languageReady('de'), fresh.languageReady('de')];
    expect(second).toBe(first);
    await first;
    expect(fresh.languagesLoaded()).toEqual(['en', 'de']);
    await fresh.startServerLanguages();
    expect(new Set(fresh.languagesLoaded())).toEqual(
      new Set(['en', 'de', 'es', 'fr', 'pt-BR', 'zh-CN', 'ar', 'ru', 'en-XA']),
    );
  });
});
