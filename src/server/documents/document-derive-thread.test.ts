/**
 * The documents thread (document-derive-thread.ts) with issue #49's reproduction: one
 * account's 24 MB PDF of 1.4 million empty objects and no cross-reference table, which pdf.js
 * indexes one by one (over a minute, and 2 GB of heap, on the thread unbounded). That upload
 * fails alone, past its time or its heap, whichever comes first on the machine; another
 * account's photo and PDF sent behind it are prepared, on a new thread.
 */
import { DEFAULT_MEMORY_PLAN } from '../config/memory';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentDeriveThread } from './document-derive-thread';
import { manyObjectsPdf } from './fixtures/hostile-pdfs';
import { samplePdf } from './fixtures/sample-files';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'kin-derive-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A file in the test's folder, and where its cleaned copy would go. */
function file(name: string, bytes: Buffer) {
  const at = path.join(folder, name);
  writeFileSync(at, bytes);
  return { file: at, cleanedFile: `${at}.cleaned` };
}

describe('the documents thread', () => {
  it('fails only the upload past its time: another account’s uploads behind it are prepared', async () => {
    // The thread's own limits: a PDF's 10 s (its start, loading pdf.js, aside), its heap.
    const thread = documentDeriveThread(DEFAULT_MEMORY_PLAN);
    try {
      const slow = thread.derive({
        owner: 'mallory',
        mimeType: 'application/pdf',
        ...file('objects.pdf', manyObjectsPdf(1_400_000)),
      });
      const photo = thread.derive({
        owner: 'ada',
        mimeType: 'image/png',
        ...file(
          'photo.png',
          await sharp({
            create: { width: 600, height: 400, channels: 3, background: '#20c997' },
          })
            .png()
            .toBuffer(),
        ),
      });
      const letter = thread.derive({
        owner: 'ada',
        mimeType: 'application/pdf',
        ...file('letter.pdf', await samplePdf()),
      });
      await expect(slow).rejects.toThrow(
        /The documents thread took over 10000 ms on one job|The documents process ran out of memory/,
      );
      const prepared = await photo;
      expect(prepared.cleaned?.size).toBeGreaterThan(0);
      expect((await sharp(prepared.thumbnail).metadata()).format).toBe('webp');
      expect((await sharp((await letter).thumbnail).metadata()).format).toBe('webp');
    } finally {
      await thread.close();
    }
  }, 90_000);
});
