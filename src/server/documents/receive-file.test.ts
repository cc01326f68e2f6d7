/**
 * A file received as a request's body arrives: a chunk at a time, each a Buffer of its own
 * that is garbage once written. Receiving 24 MB must not leave most of them in memory.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { receiveFile } from './document-intake';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;
const dir = mkdtempSync(path.join(tmpdir(), 'kin-receive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('receiving a file', () => {
  it('keeps at most a few MB of a 24 MB upload in memory, and the file whole', async () => {
    const total = 24 * MB;
    const hash = createHash('sha256');
    const start = process.memoryUsage().arrayBuffers;
    let peak = 0;
    // Chunks as a socket's copies: each a buffer of its own, made as it is asked for.
    async function* body() {
      for (let sent = 0; sent < total; sent += CHUNK) {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - start);
        const chunk = Buffer.allocUnsafeSlow(CHUNK).fill(sent / CHUNK);
        hash.update(chunk);
        yield chunk;
      }
    }
    const file = path.join(dir, 'upload');
    const received = await receiveFile(body(), file);

    expect(received.size).toBe(total);
    expect(received.sha256).toBe(hash.digest('hex'));
    expect(Buffer.from(received.head)).toEqual(Buffer.alloc(4100));
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(received.sha256);
    // Without collections along the way, all 24 MB stayed until V8's own (past 64 MB).
    expect(peak).toBeLessThan(10 * MB);
  });
});
