/**
 * A page opening on a first screen in another language loads only the words that screen
 * shows: the files it loads are read for the keys they ask for, and each language's module
 * holds exactly its words for them.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstScreenKeys } from '../src/shared/i18n/catalogue-keys.ts';
import { loadCatalogue } from '../src/shared/i18n/catalogue.ts';
import { firstScreenWords } from './first-screen-words-plugin.ts';
import {
  firstScreenChunks,
  firstScreenFiles,
  firstScreens,
  staticClosure,
} from './first-screens.ts';

const PLURAL = /_(zero|one|two|few|many|other)$/;

async function moduleOf(code, screen) {
  const plugin = firstScreenWords({ webRoot: 'src/web' });
  plugin.configResolved({ command: 'build' });
  const id = plugin.resolveId(`virtual:first-screen-words/first-screen-words-${code}-${screen}`);
  const source = await plugin.load(id);
  return JSON.parse(source.replace(/^export default /, '').replace(/;\s*$/, ''));
}

describe('the first screens’ chunks', () => {
  it('place each first screen’s own files in its chunk, and those both load in one', () => {
    const { entry, screens } = firstScreens('src/web');
    expect(screens.map((screen) => screen.name)).toEqual(['timeline-page', 'auth-page']);
    const groups = firstScreenChunks('src/web', { apart: ['viewer/viewer.tsx'] });
    const chunkOf = (file) =>
      groups
        .filter((group) => group.test(path.resolve(file)))
        .sort((a, b) => b.priority - a.priority)[0]?.name;
    expect(chunkOf('src/web/features/timeline/timeline-page.tsx')).toBe('timeline-page');
    expect(chunkOf('src/web/features/shell/app-layout.tsx')).toBe('timeline-page');
    expect(chunkOf('src/web/features/auth/auth-page.tsx')).toBe('auth-page');
    expect(chunkOf('src/web/components/ui/button.tsx')).toBe('first-screens');
    // The entry's files, and a screen loaded later, are left where the bundler puts them.
    expect(entry.has(path.resolve('src/web/routes.tsx'))).toBe(true);
    expect(chunkOf('src/web/routes.tsx')).toBeUndefined();
    expect(chunkOf('src/web/features/share/share-page.tsx')).toBeUndefined();
    // Nor a file or an icon the share viewer loads: the viewer never loads the app's chunks.
    expect(chunkOf('src/web/lib/react-i18n.ts')).toBeUndefined();
    const viewerFiles = staticClosure([path.resolve('src/web/viewer/viewer.tsx')], true);
    const appChunks = new Set(['first-screens', ...screens.map((screen) => screen.name)]);
    for (const file of viewerFiles) expect(appChunks.has(chunkOf(file)), file).toBe(false);
    for (const icon of ['shield-check', 'download', 'eye', 'triangle-alert', 'arrow-up']) {
      const id = `node_modules/lucide-react/dist/esm/icons/${icon}.mjs`;
      expect(appChunks.has(chunkOf(id)), icon).toBe(false);
    }
  });
});

describe('the first screens’ words', () => {
  it('come from the files loaded before a first screen shows, not from those loaded later', () => {
    const files = firstScreenFiles('src/web').map((file) => path.relative(process.cwd(), file));
    expect(files).toEqual(
      expect.arrayContaining([
        'src/web/main.tsx',
        'src/web/features/auth/auth-page.tsx',
        'src/web/features/timeline/timeline-page.tsx',
        'src/web/features/shell/signed-in-layout.tsx',
      ]),
    );
    // Loaded when opened (import()), with the rest of the language.
    expect(files).not.toContain('src/web/features/symptoms/quick-symptom-dialog.tsx');
    expect(files).not.toContain('src/web/features/profile-settings/profile-settings-page.tsx');
    const keys = firstScreenKeys(firstScreenFiles('src/web'));
    expect(keys).toContain('Sign In');
    expect(keys).toContain('How is {name} feeling?');
    expect(keys).toContain('Visits');
    expect(keys).not.toContain('Sign Out Everywhere');
  });

  it.each([
    ['es', 'timeline-page'],
    ['ar', 'timeline-page'],
    ['pt-BR', 'auth-page'],
  ])('in %s, for %s: every word the screen asks for, and no other', async (code, name) => {
    const { entry, screens } = firstScreens('src/web');
    const screen = screens.find((candidate) => candidate.name === name);
    const keys = firstScreenKeys([...entry, ...screen.files]);
    const whole = await loadCatalogue(code);
    const expected = Object.fromEntries(
      Object.entries(whole).filter(([key]) => keys.has(key.replace(PLURAL, ''))),
    );
    const words = await moduleOf(code, name);
    expect(words).toEqual(expected);
    expect(Object.keys(words).length).toBeLessThan(Object.keys(whole).length / 4);
    // Each screen's own: the sign-in screen's words are not the timeline's.
    expect('Sign In' in words).toBe(name === 'auth-page');
    expect('How is {name} feeling?' in words).toBe(name === 'timeline-page');
  });
});
