/**
 * A stored file sent as a download: a piece at a time, each garbage once written to the
 * socket. Sending 24 MB must not leave most of them in memory (documents/document-files.ts
 * responseBodyOf, which the download route answers with).
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { responseBodyOf } from './document-files';

const MB = 1024 * 1024;
const PIECE = 64 * 1024;

describe('sending a stored file', () => {
  it('keeps at most a few MB of a 24 MB download in memory, and sends it whole', async () => {
    const total = 24 * MB;
    const start = process.memoryUsage().arrayBuffers;
    let peak = 0;
    // Pieces as a file's reads: each a buffer of its own, made as it is asked for.
    const stored = Readable.from(
      (function* () {
        for (let read = 0; read < total; read += PIECE) {
          yield Buffer.allocUnsafeSlow(PIECE).fill(read / PIECE);
        }
      })(),
    );
    let sent = 0;
    let last = -1;
    for await (const piece of responseBodyOf(stored)) {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - start);
      sent += piece.byteLength;
      last = piece[0]!;
    }
    expect(sent).toBe(total);
    expect(last).toBe((total / PIECE - 1) % 256);
    // Without collections along the way, all 24 MB stayed until V8's own (past 64 MB).
    expect(peak).toBeLessThan(10 * MB);
  });
});
