/**
 * A PDF's text as a reader gets it, read back with poppler's `pdftotext` (in reading order,
 * pages separated by form feeds): what can be searched, selected and read aloud.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The text of a PDF given as bytes, or as the path of a file; `options` are pdftotext's own
 * (`-layout`, `-bbox` for each word's box in points, …).
 */
export async function pdfText(
  pdf: Uint8Array | string,
  options: readonly string[] = [],
): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'kin-pdf-text-'));
  try {
    const file = typeof pdf === 'string' ? pdf : join(folder, 'document.pdf');
    if (typeof pdf !== 'string') await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', [...options, '-enc', 'UTF-8', file, '-'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
