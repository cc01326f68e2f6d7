/**
 * What the processors share to make a document's copies at upload (on the derive thread,
 * document-derive-worker.ts): the WebP thumbnail, a photo's JPEG, and a written file's
 * SHA-256. Loaded by the processors' `derive` alone: the server's and the text thread never
 * load it.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Sharp } from '../image-library';
import type { WrittenFile } from './processor';

/** The longest side of a thumbnail, in pixels; a list of 50 stays light (about 8 kB each). */
export const THUMBNAIL_SIZE = 320;
const THUMBNAIL_QUALITY = 70;
/** A re-encoded photo's quality: indistinguishable from the camera's for a paper's photo. */
export const PHOTO_QUALITY = 90;
/**
 * A photo's JPEG, written in one pass with the standard Huffman tables: optimised ones need
 * every coefficient of the photo in memory at once (72 MB for 12 megapixels) for a file a
 * few percent smaller.
 */
export const PHOTO_JPEG = {
  quality: PHOTO_QUALITY,
  mozjpeg: false,
  optimiseCoding: false,
} as const;

export async function thumbnailOf(image: Sharp): Promise<Uint8Array> {
  return image
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, {
      fit: 'inside',
      withoutEnlargement: true,
      // A JPEG decoded at 1/2, 1/4 or 1/8 of its size, a WebP or HEIF shrunk as it loads.
      fastShrinkOnLoad: true,
    })
    .webp({ quality: THUMBNAIL_QUALITY })
    .toBuffer();
}

/** Writes bytes as they come to a new file (0600), hashing them on the way. */
export async function writeHashed(source: Readable, file: string): Promise<WrittenFile> {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        size += chunk.byteLength;
        yield chunk;
      }
    },
    createWriteStream(file, { mode: 0o600, flush: true }),
  );
  return { sha256: hash.digest('hex'), size };
}

/** A file's SHA-256 and size, read a part at a time; it is synced to disk on the way. */
export async function hashOf(file: string): Promise<WrittenFile> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).byteLength;
    }
    return { sha256: hash.digest('hex'), size };
  } finally {
    await handle.close();
  }
}
