/**
 * How a file becomes a document, whoever brings it (an upload, a FHIR import's attachment):
 * streamed to a temporary file with its size counted and its hash taken as it comes, typed
 * by its bytes (never by its name or what it is said to be), the account's storage limit
 * checked before and reserved after (decision 0052), its photo or PDF stripped of metadata
 * (0051), its HEIC converted and its thumbnail made on the documents thread, then kept, its
 * row written (the limit checked again) and its text queued for search. Its name loses its
 * invisible characters. What is refused (an ApiError naming the file) leaves nothing behind.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromBuffer } from 'file-type';
import {
  DOCUMENT_EMPTY_MESSAGE,
  DOCUMENT_KIND_MESSAGE,
  DOCUMENT_MIME_TYPES,
  DOCUMENT_QUOTA_MESSAGE,
  DOCUMENT_TOO_LARGE_MESSAGE,
  MAX_DOCUMENT_BYTES,
  type DocumentMimeType,
} from '../../shared/documents';
import { ApiError } from '../../shared/api-error';
import { cleanFileName } from '../../shared/file-names';
import type { Database } from '../db/database';
import { collectingAsItStreams } from '../runtime/collect-garbage';
import type { HeavyJobs } from '../runtime/heavy-jobs';
import type { Logger } from '../logger';
import type { DeriveThread } from './document-derive-thread';
import type { DocumentFileStore } from './document-files';
import { onDocumentStored } from './document-hooks';
import {
  filesOf,
  type DocumentDetails,
  type DocumentRepository,
  type DocumentRow,
  type KeptFile,
} from './document-repository';

/** What taking a file in needs: where files and rows go, the thread, each account's limit. */
export interface DocumentIntake {
  database: Database;
  store: DocumentFileStore;
  documents: DocumentRepository;
  derive: DeriveThread;
  /** Each account's storage limit, in bytes (DOCUMENT_QUOTA_MB). */
  quotaBytes: number;
  /** Where a file's heavy work waits its turn: an import's, a portal's records (KIN_MEMORY_MB). */
  heavy: HeavyJobs;
  /** Where a file kept without its thumbnail or display copy is told of, with why. */
  logger?: Pick<Logger, 'warn'>;
}

export const tooLarge = () => new ApiError(413, DOCUMENT_TOO_LARGE_MESSAGE, 'file');
export const overQuota = () => new ApiError(413, DOCUMENT_QUOTA_MESSAGE, 'file');
const notAccepted = () => new ApiError(415, DOCUMENT_KIND_MESSAGE, 'file');

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The bytes `file-type` needs to tell a file's kind. */
const HEAD_BYTES = 4100;

/** A file received: its size, its SHA-256 and its first bytes, to tell its kind by. */
export interface ReceivedFile {
  size: number;
  sha256: string;
  head: Uint8Array;
}

/**
 * Streams a file's bytes to a temporary file: its size counted (more than `maxBytes` stops
 * it at once, with the error `refuse` makes), its SHA-256 taken, its first bytes kept. A
 * file not received whole is removed.
 */
export async function receiveFile(
  bytes: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  file: string,
  maxBytes = MAX_DOCUMENT_BYTES,
  refuse: () => Error = tooLarge,
): Promise<ReceivedFile> {
  const hash = createHash('sha256');
  let size = 0;
  const headParts: Uint8Array[] = [];
  let headBytes = 0;
  const collecting = collectingAsItStreams();
  const counted = Readable.from(
    (async function* () {
      for await (const chunk of bytes) {
        size += chunk.byteLength;
        if (size > maxBytes) throw refuse();
        hash.update(chunk);
        collecting(chunk.byteLength);
        if (headBytes < HEAD_BYTES) {
          // A copy: a view would keep the whole first chunk.
          headParts.push(new Uint8Array(chunk.subarray(0, HEAD_BYTES - headBytes)));
          headBytes += Math.min(chunk.byteLength, HEAD_BYTES - headBytes);
        }
        yield chunk;
      }
    })(),
  );
  try {
    await pipeline(counted, createWriteStream(file, { mode: 0o600, flush: true }));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(headParts) };
}

/**
 * The kind of file its first bytes say it is, when it is one a document may be. XML only when
 * the caller says so (an import keeping a C-CDA, an archive bringing one back): an upload is a
 * PDF or an image.
 */
async function documentKindOf(
  head: Uint8Array,
  acceptXml = false,
): Promise<DocumentMimeType | undefined> {
  const kind = await fileTypeFromBuffer(head);
  const mimeType = (kind?.mime === 'image/heif' ? 'image/heic' : kind?.mime) as
    DocumentMimeType | undefined;
  if (mimeType === 'application/xml' && !acceptXml) return undefined;
  return mimeType && DOCUMENT_MIME_TYPES.includes(mimeType) ? mimeType : undefined;
}

/** What a kept file gives a document's row. */
export interface KeptFiles {
  mime_type: DocumentMimeType;
  size_bytes: number;
  sha256: string;
  display?: { sha256: string; bytes: number };
  thumbnail?: { sha256: string; bytes: number };
}

/**
 * Keeps a received file (a temporary file of the store's) as the owner's: typed by its bytes
 * (PDF and images only), held to the storage limit with `usedBytes` already taken, prepared
 * on the documents thread and kept with its display copy and thumbnail. `asArchived`: the
 * file is one this product stored before (it comes back from an archive whose hash names
 * it), so an image or a PDF is kept byte for byte unless it carries metadata. The temporary
 * file is gone afterwards, kept or not.
 */
export async function keepReceivedFile(
  intake: Pick<DocumentIntake, 'store' | 'derive' | 'quotaBytes' | 'logger'>,
  input: {
    owner: string;
    file: string;
    received: ReceivedFile;
    usedBytes: number;
    asArchived?: boolean;
    /** An XML file may be kept (a C-CDA an import keeps); it has no display copy or thumbnail. */
    acceptXml?: boolean;
    /**
     * Called with the files about to be kept, once they are known and before any is: what
     * it throws refuses the file, nothing kept (an upload reserves its storage here).
     */
    beforeKeeping?: (files: KeptFile[]) => Promise<void>;
  },
): Promise<KeptFiles> {
  const { store, derive, quotaBytes } = intake;
  const { owner, file, received } = input;
  const cleanedFile = await store.incomingFile();
  try {
    const mimeType = await documentKindOf(received.head, input.acceptXml);
    if (!mimeType) throw notAccepted();
    if (input.usedBytes + received.size > quotaBytes) throw overQuota();

    // XML (a C-CDA an import keeps) is kept as it came, shown as its narrative (decision 0057).
    let derived: Awaited<ReturnType<typeof derive.derive>> = {};
    /** Tells the log that the file is kept without a copy to show, and why. */
    const keptUndrawn = (error: string) =>
      intake.logger?.warn(
        { owner, mimeType, error },
        'document kept without its thumbnail or display copy',
      );
    try {
      derived = await derive.derive({
        owner,
        file,
        mimeType,
        cleanedFile,
        keepIfClean: input.asArchived,
      });
    } catch (error) {
      // A PDF or a C-CDA whose copies could not be made (the documents process stopped, or
      // the file held it past its time) is still kept, without a copy to show; an image that
      // cannot be decoded is not an image.
      if (mimeType !== 'application/pdf' && mimeType !== 'application/xml') throw notAccepted();
      keptUndrawn(error instanceof Error ? error.message : String(error));
      derived = {};
    }
    // A PDF kept without its metadata whose first page pdf.js could not draw.
    if (derived.undrawn) keptUndrawn(derived.undrawn);
    // A photo or a PDF without its metadata (written by the thread to `cleanedFile`) takes
    // the file's place.
    const { size, sha256 } = derived.cleaned ?? received;
    const made = (bytes: Uint8Array | undefined) =>
      bytes && { bytes, file: { sha256: sha256Of(bytes), bytes: bytes.byteLength } };
    const display = made(derived.display);
    const thumbnail = made(derived.thumbnail);
    await input.beforeKeeping?.(
      [{ sha256, bytes: size }, display?.file, thumbnail?.file].filter(
        (kept): kept is KeptFile => kept !== undefined,
      ),
    );
    await store.keepFile(owner, sha256, derived.cleaned ? cleanedFile : file);
    for (const kept of [display, thumbnail]) {
      if (kept) await store.keepBytes(owner, kept.file.sha256, kept.bytes);
    }
    return {
      mime_type: mimeType,
      size_bytes: size,
      sha256,
      display: display?.file,
      thumbnail: thumbnail?.file,
    };
  } finally {
    await rm(file, { force: true });
    await rm(cleanedFile, { force: true });
  }
}

/**
 * Takes a file in as a document of `details.owner`'s. `declaredBytes`, when the sender said
 * how large it is, is held against the storage limit before a byte is read. Its storage is
 * reserved once it is received (before the documents thread prepares it), made exact before
 * its files are kept, and checked again as its row is written (decision 0052): uploads of one
 * account sent at once, to one app server or several, cannot pass the limit together.
 */
export async function takeDocument(
  intake: DocumentIntake,
  bytes: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  details: DocumentDetails,
  declaredBytes?: number,
  /** An XML file may be kept: a C-CDA an import keeps (an upload's never is). */
  acceptXml = false,
): Promise<DocumentRow> {
  const { database, store, documents, quotaBytes } = intake;
  const { owner } = details;
  const usedBytes = await documents.usedBytes(owner);
  if (usedBytes + (declaredBytes ?? 0) > quotaBytes) throw overQuota();

  const file = await store.incomingFile();
  const received = await receiveFile(bytes, file);
  if (received.size === 0) {
    await rm(file, { force: true });
    throw new ApiError(400, DOCUMENT_EMPTY_MESSAGE, 'file');
  }
  let reserved = await documents.reserve(
    owner,
    [{ sha256: received.sha256, bytes: received.size }],
    quotaBytes,
  );
  if (reserved === undefined) {
    await rm(file, { force: true });
    throw overQuota();
  }
  let written = false;
  try {
    const kept = await keepReceivedFile(intake, {
      owner,
      file,
      received,
      usedBytes,
      acceptXml,
      beforeKeeping: async (files) => {
        const exact = await documents.reserve(owner, files, quotaBytes, reserved);
        if (exact === undefined) throw overQuota();
        reserved = exact;
      },
    });
    const document = await documents.create(
      { ...details, file_name: cleanFileName(details.file_name), ...kept },
      { reservedBytes: reserved, quotaBytes },
    );
    written = true;
    if (!document) {
      await documents.releaseFiles(
        owner,
        filesOf({
          sha256: kept.sha256,
          display_sha256: kept.display?.sha256 ?? null,
          thumbnail_sha256: kept.thumbnail?.sha256 ?? null,
        }),
      );
      throw overQuota();
    }
    await onDocumentStored(database, { documentId: document.id, userId: owner });
    return document;
  } finally {
    // Given back unless the row's transaction took it.
    if (!written) await documents.release(owner, reserved);
  }
}
