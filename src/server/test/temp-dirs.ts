/**
 * Directories a test file makes under the system's temporary directory, all removed when the
 * file's tests are done.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** A maker of fresh directories named `prefix…`; call it at the top of a test file. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** A file's or directory's permission bits, such as 0o600. */
export const modeOf = (file: string) => statSync(file).mode & 0o777;
