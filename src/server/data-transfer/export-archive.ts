/**
 * 'Download my data' of an account with documents: a zip archive of the export's JSON
 * (`kin-health.json`, the same file an account without documents downloads) and each
 * document's file, once per file, under `documents/{sha256}.{extension}` (decision 0037).
 * Streamed: each file is read from the store when the archive reaches it, and the archive
 * goes out as it is written, so memory does not grow with the files.
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { Archiver, ZipOptions } from 'archiver';
import { ARCHIVE_JSON_NAME, archiveFileName, type DataExport } from '../../shared/data-export';
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
  data: DataExport,
  store: DocumentFileStore,
  owner: string,
): ReadableStream<Uint8Array> {
  const archive = zipArchive();
  const date = new Date(data.exported_at);
  archive.append(JSON.stringify(data), { name: ARCHIVE_JSON_NAME, date });
  const added = new Set<string>();
  for (const document of data.documents) {
    if (added.has(document.sha256)) continue;
    added.add(document.sha256);
    // PDFs and photos are compressed already: stored as they are, no time spent deflating.
    archive.append(
      whenRead(() => store.read(owner, document.sha256)),
      { name: archiveFileName(document), date, store: true },
    );
  }
  // A failure (a file missing from the store) errors the stream itself: the download breaks off.
  archive.finalize().catch(() => undefined);
  return Readable.toWeb(archive) as ReadableStream<Uint8Array>;
}
