/**
 * Opening the .zip the Health app's 'Export All Health Data' writes, entry by entry and never
 * whole: `apple_health_export/export.xml` (its name may be in the phone's language: the
 * .xml at the top of the folder that is not `export_cda.xml`), and the clinical records'
 * FHIR JSON in `apple_health_export/clinical-records/`. Everything else (the CDA copy,
 * workout routes, electrocardiograms) is left unread. A zip is a file from outside, so it is
 * opened with bounds, each refused with a sentence that says which: how many entries, how
 * large each entry read and all of them together say they are, and how many times its
 * compressed size an entry may grow (a zip bomb grows a thousand times); yauzl holds each
 * entry to the size it declares as it inflates.
 */
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { formatNumber } from '../../../shared/dates';
import { key, tr } from '../../../shared/i18n/translate';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

export const ZIP_LIMITS = {
  entries: 100_000,
  /** export.xml, uncompressed: a decade of a watch's readings is a few GB. */
  xmlBytes: 8 * GB,
  /** Every entry together, as their sizes are declared (the CDA copy is as large again). */
  totalBytes: 20 * GB,
  clinicalRecordBytes: 10 * MB,
  clinicalRecordsBytes: 64 * MB,
  /** Uncompressed over compressed, for an entry of more than `ratioFromBytes`. */
  ratio: 200,
  ratioFromBytes: 64 * 1024,
};

/** A bound's size as the language in force writes it: '20 GB', '10 Mo'. */
const size = (bytes: number) =>
  bytes >= GB
    ? tr('{size} GB', { size: formatNumber(Math.round(bytes / GB)) })
    : tr('{size} MB', { size: formatNumber(Math.round(bytes / MB)) });

export const NO_EXPORT_XML = key(
  'This .zip holds no export.xml: it is not an Apple Health export. Export it again from the Health app (Profile → Export All Health Data)',
);

/**
 * Why an export could not be read, in the language in force: the reason's own words (the
 * zip or XML library's, in English) kept inside the sentence.
 */
export const unreadableExport = (detail: string) =>
  tr('This Apple Health export cannot be read ({detail}); nothing was imported', { detail });

export interface ClinicalRecordFile {
  name: string;
  text: string;
}

export interface OpenedExportZip {
  /** export.xml's bytes, inflated as they are read. */
  xml(): Promise<AsyncIterable<Uint8Array>>;
  /** Each clinical record's text, read one at a time. */
  clinicalRecords(): AsyncGenerator<ClinicalRecordFile>;
  close(): void;
}

export class ZipRefused extends Error {}

const XML_NAME = /^(?:[^/]+\/)?[^/]+\.xml$/i;
const CDA_NAME = /(^|\/)export_cda\.xml$/i;
const CLINICAL_NAME = /^(?:[^/]+\/)?clinical-records\/[^/]+\.json$/i;

function refusal(error: unknown): ZipRefused {
  if (error instanceof ZipRefused) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ZipRefused(unreadableExport(message));
}

async function readText(stream: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > max) {
      stream.destroy();
      throw new ZipRefused(
        tr('A clinical record in this export is larger than {size}; nothing was imported', {
          size: size(max),
        }),
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Checks an entry to be read against the ratio bound. */
function checkRatio(entry: Entry) {
  const { uncompressedSize, compressedSize } = entry;
  if (uncompressedSize <= ZIP_LIMITS.ratioFromBytes) return;
  const ratio = uncompressedSize / Math.max(compressedSize, 1);
  if (ratio > ZIP_LIMITS.ratio) {
    throw new ZipRefused(
      tr(
        'This .zip expands past its limits: {file} would grow to {ratio} times its compressed size (at most {most}), as a zip bomb does; nothing was imported',
        {
          file: entry.fileName,
          ratio: formatNumber(Math.round(ratio), { useGrouping: false }),
          most: formatNumber(ZIP_LIMITS.ratio),
        },
      ),
    );
  }
}

/** Opens an export .zip, or throws ZipRefused with the reason for the user. */
export async function openExportZip(path: string): Promise<OpenedExportZip> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw refusal(error);
  }
  try {
    if (zip.entryCount > ZIP_LIMITS.entries) {
      throw new ZipRefused(
        tr(
          'This .zip holds {files} files, more than the {most} an Apple Health export is read with; nothing was imported',
          { files: formatNumber(zip.entryCount), most: formatNumber(ZIP_LIMITS.entries) },
        ),
      );
    }
    const xmls: Entry[] = [];
    const clinical: Entry[] = [];
    let total = 0;
    let clinicalTotal = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        total += entry.uncompressedSize;
        if (total > ZIP_LIMITS.totalBytes) {
          throw new ZipRefused(
            tr(
              'This .zip expands past its limits: its files come to more than {size}; nothing was imported',
              { size: size(ZIP_LIMITS.totalBytes) },
            ),
          );
        }
        if (XML_NAME.test(entry.fileName) && !CDA_NAME.test(entry.fileName)) {
          xmls.push(entry);
        } else if (CLINICAL_NAME.test(entry.fileName)) {
          clinicalTotal += entry.uncompressedSize;
          if (entry.uncompressedSize > ZIP_LIMITS.clinicalRecordBytes) {
            throw new ZipRefused(
              tr("This .zip's clinical record {file} is larger than {size}; nothing was imported", {
                file: entry.fileName,
                size: size(ZIP_LIMITS.clinicalRecordBytes),
              }),
            );
          }
          if (clinicalTotal > ZIP_LIMITS.clinicalRecordsBytes) {
            throw new ZipRefused(
              tr("This .zip's clinical records come to more than {size}; nothing was imported", {
                size: size(ZIP_LIMITS.clinicalRecordsBytes),
              }),
            );
          }
          checkRatio(entry);
          clinical.push(entry);
        }
      }
    } catch (error) {
      throw refusal(error);
    }
    // Apple's own name first; else the one .xml at the top of the export's folder.
    const xml =
      xmls.find((entry) => /(^|\/)export\.xml$/i.test(entry.fileName)) ??
      (xmls.length === 1 ? xmls[0] : undefined);
    if (!xml) throw new ZipRefused(NO_EXPORT_XML);
    if (xml.uncompressedSize > ZIP_LIMITS.xmlBytes) {
      throw new ZipRefused(
        tr("This .zip's {file} is larger than {size} uncompressed; nothing was imported", {
          file: xml.fileName,
          size: size(ZIP_LIMITS.xmlBytes),
        }),
      );
    }
    checkRatio(xml);
    const open = async (entry: Entry) => {
      try {
        return await zip.openReadStreamPromise(entry);
      } catch (error) {
        throw refusal(error);
      }
    };
    return {
      async xml() {
        const stream = await open(xml);
        // A damaged entry (sizes that lie, a broken deflate) says so in the import's words.
        return (async function* () {
          try {
            yield* stream as AsyncIterable<Uint8Array>;
          } catch (error) {
            throw refusal(error);
          }
        })();
      },
      async *clinicalRecords() {
        for (const entry of clinical) {
          const text = await readText(await open(entry), ZIP_LIMITS.clinicalRecordBytes).catch(
            (error: unknown) => {
              throw refusal(error);
            },
          );
          yield { name: entry.fileName, text };
        }
      },
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}
