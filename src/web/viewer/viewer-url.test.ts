// @vitest-environment node
/**
 * The viewer's address carries the reader's language (CONTRACT §6) before its fragment, and
 * the fragment stays a standard `shlink:/` payload; the viewer reads the language back, else
 * speaks the browser's. A link made in the app (createShareLink) names the language chosen;
 * an emergency card's names none.
 */
// Node's own environment: jose encrypts with Node's Uint8Array, which jsdom's is not.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeShlink, viewerUrl, type ShlinkPayload } from '../../shared/shlink';
import { linkLanguage, viewerLanguage, viewerLink } from './viewer-url';

vi.mock('../features/share/share-links-api', () => ({
  shareLinksApi: {
    bundle: vi.fn(() => Promise.resolve(JSON.stringify({ resourceType: 'Bundle', entry: [] }))),
    create: vi.fn((input: { label: string }) =>
      Promise.resolve({
        id: 'link-1',
        url: 'https://kin.example/api/shl/manifest-1',
        exp: 1_900_000_000,
        flag: '',
        label: input.label,
      }),
    ),
  },
}));

const PAYLOAD: ShlinkPayload = {
  url: 'https://kin.example/api/shl/abc',
  key: 'k'.repeat(43),
  exp: 1_900_000_000,
  label: 'Health records of Leo Garcia',
  v: 1,
};

const ORIGIN = 'https://kin.example';
vi.stubGlobal('window', { location: { origin: ORIGIN } });

afterEach(() => vi.clearAllMocks());

describe('viewerLink', () => {
  it('names the language in the query, before the shlink fragment', () => {
    const link = viewerLink('https://kin.example', PAYLOAD, 'pt-BR');
    expect(link).toMatch(/^https:\/\/kin\.example\/shl\?lang=pt-BR#shlink:\//);
    const url = new URL(link);
    expect(url.searchParams.get('lang')).toBe('pt-BR');
    expect(url.hash.startsWith('#shlink:/')).toBe(true);
    expect(decodeShlink(link)).toEqual(PAYLOAD);
    expect(decodeShlink(url.hash.slice(1))).toEqual(PAYLOAD);
  });

  it('without a language is the plain viewer URL', () => {
    expect(viewerLink('https://kin.example', PAYLOAD)).toBe(
      viewerUrl('https://kin.example', PAYLOAD),
    );
    expect(viewerLink('https://kin.example', PAYLOAD, null)).toMatch(/\/shl#shlink:\//);
  });

  it("names the reader's language unless English is chosen in English", () => {
    expect(linkLanguage('pt-BR', 'en')).toBe('pt-BR');
    expect(linkLanguage('en', 'pt-BR')).toBe('en');
    expect(linkLanguage('ar', 'ar')).toBe('ar');
    expect(linkLanguage('en', 'en')).toBeNull();
  });
});

describe('viewerLanguage', () => {
  it('speaks the language the address names', () => {
    expect(viewerLanguage('?lang=pt-BR', ['en-US'])).toBe('pt-BR');
    expect(viewerLanguage('?lang=ar', ['de-DE'])).toBe('ar');
    expect(viewerLanguage('?lang=en', ['fr-FR'])).toBe('en');
  });

  it("else the browser's", () => {
    expect(viewerLanguage('', ['de-DE', 'en'])).toBe('de');
    expect(viewerLanguage('?lang=xx', ['fr-CA'])).toBe('fr');
    expect(viewerLanguage('', ['ja-JP'])).toBe('en');
  });

  it('reads a language named by a near tag', () => {
    expect(viewerLanguage('?lang=pt', ['en-US'])).toBe('pt-BR');
    expect(viewerLanguage('?lang=zh-TW', ['en-US'])).toBe('zh-CN');
  });
});

describe('createShareLink', () => {
  it("makes a link whose viewer opens in the reader's language", async () => {
    const { createShareLink } = await import('../features/share/share-link-queries');
    const { link } = await createShareLink({
      personId: 'leo',
      personName: 'Leo Garcia',
      types: ['allergy'],
      expiresInDays: 7,
      passcode: '',
      language: 'pt-BR',
    });
    expect(link).toBe(`${ORIGIN}/shl?lang=pt-BR#${link.slice(link.indexOf('shlink:/'))}`);
    expect(viewerLanguage(new URL(link).search, ['en-US'])).toBe('pt-BR');
    expect(decodeShlink(link)).toMatchObject({
      url: 'https://kin.example/api/shl/manifest-1',
      label: 'Health records of Leo Garcia',
      v: 1,
    });
  });

  it("leaves an emergency card's link to the reader's browser", async () => {
    const { createShareLink } = await import('../features/share/share-link-queries');
    const { link } = await createShareLink({
      purpose: 'emergency-card',
      personId: 'leo',
      personName: 'Leo Garcia',
    });
    expect(link).toMatch(/\/shl#shlink:\//);
  });
});
