/**
 * How a file becomes a document's files, whether it arrives as an upload or in an archive
 * being imported: streamed to a temporary file with its size counted and its hash taken,
 * typed by its bytes, held to the quota, prepared on the documents thread (a photo cleaned
 * of its metadata, a HEIC photo's JPEG, a thumbnail) and kept in the store. What is refused
 * leaves nothing behind in the store.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';
import {
  DOCUMENT_KIND_MESSAGE,
  DOCUMENT_MIME_TYPES,
  DOCUMENT_QUOTA_MESSAGE,
  DOCUMENT_TOO_LARGE_MESSAGE,
  MAX_DOCUMENT_BYTES,
  type DocumentMimeType,
} from '../../shared/documents';
import { ApiError } from '../../shared/api-error';
import type { DeriveThread } from './document-derive-thread';
import type { DocumentFileStore } from './document-files';

/** The bytes `file-type` needs to tell a file's kind. */
const HEAD_BYTES = 4100;

export const documentTooLarge = () => new ApiError(413, DOCUMENT_TOO_LARGE_MESSAGE, 'file');
export const overQuota = () => new ApiError(413, DOCUMENT_QUOTA_MESSAGE, 'file');

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface ReceivedFile {
  size: number;
  sha256: string;
  /** The first bytes, to tell its kind by. */
  head: Uint8Array;
}

/**
 * Streams a file's bytes to a temporary file: its size counted (more than `maxBytes` stops
 * it at once, with the error `tooLarge` makes), its SHA-256 taken, its first bytes kept.
 */
export async function receiveFile(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  maxBytes = MAX_DOCUMENT_BYTES,
  tooLarge: () => Error = documentTooLarge,
): Promise<ReceivedFile> {
  const hash = createHash('sha256');
  let size = 0;
  const headParts: Uint8Array[] = [];
  let headBytes = 0;
  const counted = Readable.from(
    (async function* () {
      for await (const chunk of chunks) {
        size += chunk.byteLength;
        if (size > maxBytes) throw tooLarge();
        hash.update(chunk);
        if (headBytes < HEAD_BYTES) {
          headParts.push(chunk.subarray(0, HEAD_BYTES - headBytes));
          headBytes += Math.min(chunk.byteLength, HEAD_BYTES - headBytes);
        }
        yield chunk;
      }
    })(),
  );
  await pipeline(counted, createWriteStream(file, { mode: 0o600, flush: true }));
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(headParts) };
}

/** What a kept file gives a document's row. */
export interface KeptFiles {
  mime_type: DocumentMimeType;
  size_bytes: number;
  sha256: string;
  display?: { sha256: string; bytes: number };
  thumbnail?: { sha256: string; bytes: number };
}

export interface DocumentIntake {
  store: DocumentFileStore;
  derive: DeriveThread;
  /** Each account's storage limit, in bytes (DOCUMENT_QUOTA_MB). */
  quotaBytes: number;
}

/**
 * Keeps a received file (a temporary file of the store's) as the owner's: typed by its bytes
 * (PDF and images only), held to the quota with `usedBytes` already taken, prepared on the
 * documents thread and kept with its display copy and thumbnail. `asArchived`: the file is
 * one this product stored before (it comes back from an archive whose hash names it), so
 * an image is kept byte for byte unless it carries metadata. The temporary file is gone
 * afterwards, kept or not.
 */
export async function keepReceivedFile(
  intake: DocumentIntake,
  input: {
    owner: string;
    file: string;
    received: ReceivedFile;
    usedBytes: number;
    asArchived?: boolean;
  },
): Promise<KeptFiles> {
  const { store, derive, quotaBytes } = intake;
  const { owner, file, received } = input;
  try {
    const kind = await fileTypeFromBuffer(received.head);
    const mimeType = (kind?.mime === 'image/heif' ? 'image/heic' : kind?.mime) as
      DocumentMimeType | undefined;
    if (!mimeType || !DOCUMENT_MIME_TYPES.includes(mimeType)) {
      throw new ApiError(415, DOCUMENT_KIND_MESSAGE, 'file');
    }
    if (input.usedBytes + received.size > quotaBytes) throw overQuota();

    let derived;
    try {
      derived = await derive.derive({ file, mimeType, keepIfClean: input.asArchived });
    } catch {
      // A PDF pdf.js cannot draw is still kept (without a thumbnail); an image that
      // cannot be decoded is not an image.
      if (mimeType !== 'application/pdf') throw new ApiError(415, DOCUMENT_KIND_MESSAGE, 'file');
      derived = {};
    }
    let size = received.size;
    let sha256 = received.sha256;
    if (derived.cleaned) {
      // The photo without its metadata takes the file's place.
      size = derived.cleaned.byteLength;
      sha256 = sha256Of(derived.cleaned);
      await store.keepBytes(owner, sha256, derived.cleaned);
    } else {
      await store.keepFile(owner, sha256, file);
    }
    const keep = async (bytes: Uint8Array | undefined) => {
      if (!bytes) return undefined;
      const hash = sha256Of(bytes);
      await store.keepBytes(owner, hash, bytes);
      return { sha256: hash, bytes: bytes.byteLength };
    };
    return {
      mime_type: mimeType,
      size_bytes: size,
      sha256,
      display: await keep(derived.display),
      thumbnail: await keep(derived.thumbnail),
    };
  } finally {
    await rm(file, { force: true });
  }
}
