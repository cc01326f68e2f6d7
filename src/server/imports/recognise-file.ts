/**
 * What kind of file an import was sent, told by its content, never by its name (CONTRACT §6
 * 'Bring records in'): its first bytes, and for a zip its central directory (read without
 * inflating a byte of it). JSON with the product's export format is 'kin-health-export', JSON
 * with a resourceType is 'fhir'; XML whose root is `ClinicalDocument` in `urn:hl7-org:v3` is
 * 'ccda', whose root is `HealthData` is 'apple-health' (its prologue checked by xml-safety.ts
 * before anything parses it); a zip holding the export's JSON is 'kin-health-export', one
 * holding `apple_health_export/*.xml` is 'apple-health'; text whose first line is a delimited
 * header is 'csv'. Anything else is refused with NOT_IMPORTABLE. A zip is held to bounds on
 * its entries and what they expand to, from its directory, before it is read.
 */
import { open } from 'node:fs/promises';
import yauzl from 'yauzl';
import { ApiError } from '../../shared/api-error';
import { ARCHIVE_JSON_NAME, EXPORT_FORMAT, isZip } from '../../shared/data-export';
import { NOT_IMPORTABLE, type ImportKind } from '../../shared/imports';
import { badRequest } from '../http/errors';
import { unreadable } from '../data-transfer/import-archive';
import { MAX_PROLOGUE_CHARS, xmlRefusal } from './xml-safety';
import { key } from '../../shared/i18n/translate';

/** What a file is, and whether it came as a zip. */
export interface RecognisedFile {
  kind: ImportKind;
  zip: boolean;
}

/** A zip holds at most this many entries (an Apple Health export: some thousands). */
export const MAX_ZIP_ENTRIES = 100_000;
/** What a zip's entries may expand to in all. */
export const MAX_ZIP_EXPANDED_BYTES = 16 * 1024 ** 3;
/**
 * How far one entry may expand past its compressed size: XML and JSON deflate some 10 to 30
 * times; a zip bomb's entries, hundreds to a thousand times.
 */
export const MAX_ZIP_RATIO = 200;
/** Below this an entry's ratio is not looked at (a small file of repeated text may be high). */
const RATIO_FROM_BYTES = 1024 * 1024;

export const ZIP_TOO_LARGE = key(
  'This zip expands past what Kin Health imports (too many files, or files that grow too large); nothing was imported',
);

const notImportable = () => badRequest(NOT_IMPORTABLE, 'file');
const zipTooLarge = () => new ApiError(413, ZIP_TOO_LARGE, 'file');

/** The first bytes of a file (at most `max`). */
export async function headOf(path: string, max = MAX_PROLOGUE_CHARS): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(max);
    const { bytesRead } = await handle.read(buffer, 0, max, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A file's text as the start of it reads, without a byte-order mark. */
const textOf = (head: Uint8Array) =>
  new TextDecoder('utf-8', { fatal: false }).decode(head).replace(/^\uFEFF/, '');

/** An Apple Health export's XML inside its zip ('apple_health_export/export.xml'). */
const APPLE_HEALTH_XML = /^(?:[^/]+\/)?apple_health_export\/[^/]+\.xml$/;

/** The kind of a zip, read from its directory, its bounds checked. */
async function zipKind(path: string): Promise<ImportKind> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  } catch (error) {
    throw unreadable(error);
  }
  try {
    if (zip.entryCount > MAX_ZIP_ENTRIES) throw zipTooLarge();
    let expanded = 0;
    let overLimits = false;
    let kind: ImportKind | undefined;
    try {
      for await (const entry of zip.eachEntry()) {
        expanded += entry.uncompressedSize;
        const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
        if (
          expanded > MAX_ZIP_EXPANDED_BYTES ||
          (entry.uncompressedSize > RATIO_FROM_BYTES && ratio > MAX_ZIP_RATIO)
        ) {
          overLimits = true;
        }
        if (entry.fileName === ARCHIVE_JSON_NAME) kind ??= 'kin-health-export';
        else if (APPLE_HEALTH_XML.test(entry.fileName)) kind ??= 'apple-health';
      }
    } catch (error) {
      throw unreadable(error);
    }
    if (!kind) throw notImportable();
    // The product's own archive is held to its own bounds as it is read (import-archive.ts).
    if (overLimits && kind !== 'kin-health-export') throw zipTooLarge();
    return kind;
  } finally {
    zip.close();
  }
}

/** The root element's name and its start tag: the first tag after the prologue. */
function rootOf(text: string): { name: string; tag: string } | null {
  const start = /<([A-Za-z_][\w.:-]*)([^>]*)>?/.exec(text);
  return start ? { name: start[1]!, tag: start[0] } : null;
}

function xmlKind(text: string): ImportKind {
  const root = rootOf(text);
  const local = root?.name.replace(/^[\w.-]+:/, '');
  const refusal = xmlRefusal(text, local === 'HealthData' ? 'declarations-only' : 'none');
  if (refusal) throw badRequest(refusal, 'file');
  if (local === 'HealthData') return 'apple-health';
  if (local === 'ClinicalDocument' && root!.tag.includes('urn:hl7-org:v3')) return 'ccda';
  throw notImportable();
}

function jsonKind(text: string): ImportKind {
  // The export writes its format first; a FHIR resource names its type.
  if (new RegExp(`"format"\\s*:\\s*"${EXPORT_FORMAT}"`).test(text)) return 'kin-health-export';
  if (/"resourceType"\s*:\s*"[A-Za-z]+"/.test(text)) return 'fhir';
  throw notImportable();
}

/** A header line: two or more names between commas, semicolons or tabs, no markup. */
function isCsvHeader(text: string): boolean {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  if (line.length === 0 || line.length > 10_000) return false;
  const delimiter = [',', ';', '\t'].find((candidate) => line.includes(candidate));
  if (!delimiter) return false;
  const names = line.split(delimiter).map((name) => name.trim().replace(/^"|"$/g, ''));
  return names.filter((name) => name.length > 0).length >= 2;
}

/** What kind a file is, from its first bytes (`head`) and, for a zip, its directory. */
export async function recogniseFile(path: string, head: Uint8Array): Promise<RecognisedFile> {
  if (isZip(head)) return { kind: await zipKind(path), zip: true };
  // Text only: a NUL byte is a binary file's (a PDF's, a photo's).
  if (head.includes(0)) throw notImportable();
  const text = textOf(head);
  const start = text.trimStart();
  if (start.startsWith('<')) return { kind: xmlKind(start), zip: false };
  if (start.startsWith('{') || start.startsWith('[')) return { kind: jsonKind(start), zip: false };
  if (isCsvHeader(start)) return { kind: 'csv', zip: false };
  throw notImportable();
}
