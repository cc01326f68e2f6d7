/**
 * vite.config.ts loads with Vite's native config loader (Node's own import, planned as
 * Vite's default), not only through the bundling loader used today: every relative import in
 * it names its file with the extension.
 */
import { loadConfigFromFile } from 'vite';
import { describe, expect, it } from 'vitest';

describe('vite.config.ts', () => {
  it("loads with Vite's native config loader", async () => {
    const loaded = await loadConfigFromFile(
      { command: 'build', mode: 'production' },
      'vite.config.ts',
      process.cwd(),
      'silent',
      undefined,
      'native',
    );
    expect(loaded?.config.root).toBe('src/web');
    const plugins = (loaded?.config.plugins ?? []).flat().map((plugin) => plugin?.name);
    expect(plugins).toContain('kin-service-worker');
  });
});
