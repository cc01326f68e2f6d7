/**
 * 'Download my data' of an account with documents: a zip archive of the export's JSON
 * (`kin-health.json`, the same file an account without documents downloads) and each
 * document's file, once per file, under `documents/{sha256}.{extension}` (decision 0037).
 * Streamed: the JSON as it is written (export-user-data.ts), each file read from the store
 * when the archive reaches it, and the archive goes out as it is written, so memory does not
 * grow with the records or the files.
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { Archiver, ZipOptions } from 'archiver';
import { ARCHIVE_JSON_NAME, archiveFileName } from '../../shared/data-export';
import type { DocumentFileStore } from '../documents/document-files';

/**
 * archiver 7's one entry point, `archiver(format, options)`. (@types/archiver 8 describes
 * archiver 8's classes, which 7 does not have; the Archiver it returns is the same.)
 */
const archiver = createRequire(import.meta.url)('archiver') as (
  format: 'zip',
  options?: ZipOptions,
) => Archiver;

/** A new zip archive, written as it is read. */
export const zipArchive = (): Archiver => archiver('zip', { zlib: { level: 6 } });

/** A stream that opens its source only when it is first read (one file open at a time). */
function whenRead(open: () => Readable): Readable {
  return Readable.from(
    (async function* () {
      yield* open();
    })(),
  );
}

export function exportArchive(
  json: AsyncIterable<string>,
  documents: AsyncIterable<{ sha256: string; mime_type: string }>,
  store: DocumentFileStore,
  owner: string,
  exportedAt: string,
): ReadableStream<Uint8Array> {
  const archive = zipArchive();
  const date = new Date(exportedAt);
  archive.append(Readable.from(json), { name: ARCHIVE_JSON_NAME, date });
  void (async () => {
    const added = new Set<string>();
    for await (const document of documents) {
      if (added.has(document.sha256)) continue;
      added.add(document.sha256);
      // PDFs and photos are compressed already: stored as they are, no time spent deflating.
      archive.append(
        whenRead(() => store.read(owner, document.sha256)),
        { name: archiveFileName(document), date, store: true },
      );
    }
    await archive.finalize();
  })().catch((error: unknown) => {
    // A failure (a file missing from the store) errors the stream itself: the download breaks off.
    archive.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return Readable.toWeb(archive) as ReadableStream<Uint8Array>;
}
