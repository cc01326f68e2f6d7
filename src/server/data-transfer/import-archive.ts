/**
 * Reading an archive 'Download my data' wrote (export-archive.ts), from a temporary file:
 * its JSON and its documents' files, read one at a time as the import reaches them. An
 * archive is a file from outside, so it is read with bounds: how many entries, how large
 * each says it is (and yauzl checks each is no larger than it says as it inflates), a name
 * that leads outside the archive refuses it, and a name this product does not write is not
 * read at all.
 */
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import {
  ARCHIVE_JSON_NAME,
  IMPORT_TOO_LARGE,
  MAX_ARCHIVE_DOCUMENTS,
  MAX_IMPORT_BYTES,
} from '../../shared/data-export';
import { MAX_DOCUMENT_MB, MAX_DOCUMENT_BYTES } from '../../shared/documents';
import { ApiError } from '../../shared/api-error';
import { badRequest } from '../http/errors';
import { tr } from '../../shared/i18n/translate';

const DOCUMENT_FILE = /^documents\/([0-9a-f]{64})\.[a-z]{1,5}$/;

/** Documents' files of an archive, by their SHA-256. */
export interface ArchiveFiles {
  /** The size the archive gives the file, or undefined when it holds no such file. */
  size(sha256: string): number | undefined;
  /** The file's bytes, inflated as they are read. */
  read(sha256: string): Promise<AsyncIterable<Uint8Array>>;
}

export interface OpenedArchive {
  json: string;
  files: ArchiveFiles;
  close(): void;
}

/** yauzl's refusals in the words of the import. */
export function unreadable(error: unknown): Error {
  if (error instanceof ApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const traversal =
    /^(invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(message);
  if (traversal) {
    return badRequest(
      tr('The archive holds a file whose name leads outside it ({name}); nothing was imported', {
        name: traversal[2],
      }),
      'file',
    );
  }
  return badRequest(
    tr('The archive cannot be read ({reason}); nothing was imported', { reason: message }),
    'file',
  );
}

async function readText(stream: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > max) {
      stream.destroy();
      throw new ApiError(413, IMPORT_TOO_LARGE, 'file');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function openArchive(file: string): Promise<OpenedArchive> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw unreadable(error);
  }
  try {
    if (zip.entryCount > MAX_ARCHIVE_DOCUMENTS + 1) {
      throw badRequest(
        tr('The archive holds too many files (at most {count} documents); nothing was imported', {
          count: MAX_ARCHIVE_DOCUMENTS,
        }),
        'file',
      );
    }
    let json: Entry | undefined;
    const documents = new Map<string, Entry>();
    try {
      for await (const entry of zip.eachEntry()) {
        if (entry.fileName === ARCHIVE_JSON_NAME) {
          if (entry.uncompressedSize > MAX_IMPORT_BYTES) {
            throw new ApiError(413, IMPORT_TOO_LARGE, 'file');
          }
          json = entry;
          continue;
        }
        const hash = DOCUMENT_FILE.exec(entry.fileName)?.[1];
        // A name this product does not write is left unread.
        if (!hash) continue;
        if (entry.uncompressedSize > MAX_DOCUMENT_BYTES) {
          throw new ApiError(
            413,
            tr("The archive's file {name} is larger than {size} MB; nothing was imported", {
              name: entry.fileName,
              size: MAX_DOCUMENT_MB,
            }),
            'file',
          );
        }
        documents.set(hash, entry);
      }
    } catch (error) {
      throw unreadable(error);
    }
    if (!json) {
      throw badRequest(
        tr('The archive holds no {name}: it is not a Kin Health export', {
          name: ARCHIVE_JSON_NAME,
        }),
        'file',
      );
    }
    const open = async (entry: Entry) => {
      try {
        return await zip.openReadStreamPromise(entry);
      } catch (error) {
        throw unreadable(error);
      }
    };
    const text = await readText(await open(json), MAX_IMPORT_BYTES).catch((error: unknown) => {
      throw unreadable(error);
    });
    return {
      json: text,
      files: {
        size: (sha256) => documents.get(sha256)?.uncompressedSize,
        async read(sha256) {
          const entry = documents.get(sha256);
          if (!entry) throw new Error(`No file ${sha256} in the archive`);
          const stream = await open(entry);
          // A damaged entry (sizes that lie, a broken deflate) says so in the import's words.
          return (async function* () {
            try {
              yield* stream as AsyncIterable<Uint8Array>;
            } catch (error) {
              throw unreadable(error);
            }
          })();
        },
      },
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}
