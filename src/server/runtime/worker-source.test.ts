/**
 * A worker runs as built when a build of it is there (beside the server's bundle, or the
 * tests' build), else from its source through tsx.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { useBuiltWorkers, workerSource } from './worker-source';

describe('where a worker’s code is', () => {
  afterEach(() => {
    // The other test files of this worker run the tests' build again.
    useBuiltWorkers(inject('builtServerDir'));
  });

  it('the build’s, when it made one; else the source, through tsx', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kin-workers-'));
    try {
      writeFileSync(path.join(dir, 'document-derive-worker.js'), '');
      useBuiltWorkers(dir);
      expect(workerSource(import.meta.url, 'document-derive-worker')).toEqual({
        url: pathToFileURL(path.join(dir, 'document-derive-worker.js')),
      });
      const source = workerSource(import.meta.url, 'sleepy-worker');
      expect(fileURLToPath(source.url)).toBe(
        fileURLToPath(new URL('./sleepy-worker.ts', import.meta.url)),
      );
      expect(source.execArgv).toEqual(['--import', 'tsx']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the tests’ build of every worker the build makes', () => {
    const built = readdirSync(inject('builtServerDir')).filter((file) =>
      file.endsWith('-worker.js'),
    );
    expect(built).toContain('document-derive-worker.js');
    for (const file of built) {
      const name = file.replace(/\.js$/, '');
      expect(workerSource(import.meta.url, name).execArgv, name).toBeUndefined();
    }
  });
});
