/**
 * A PDF's metadata, removed from the file that is kept (as a photo's is, processors/image.ts):
 * its document information dictionary (/Author, /Creator, /Producer, dates), every XMP
 * stream (/Metadata, the document's and any page's, picture's or font's), applications'
 * private data (/PieceInfo), and, in each JPEG picture it holds (a DCTDecode stream, which is
 * a whole JPEG file), the segments a camera or a phone's scanner writes: EXIF (GPS position,
 * camera, time), XMP, IPTC, ICC profiles, comments. The pictures' compressed data is kept
 * byte for byte, so the pages look exactly as before; the file is written anew by pdf-lib
 * with only the objects its pages still reach (an earlier revision's metadata, left in the
 * file by an incremental save, goes too).
 *
 * Kept as uploaded: an encrypted PDF (its streams cannot be read without its key), a signed
 * one (rewriting it would break its signature, and what is signed is the file as it is), and
 * one pdf-lib cannot read or write back with the same pages. Decision 0051.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import {
  PDFArray,
  PDFCatalog,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFPageLeaf,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFStreamWriter,
  PDFWriter,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';

/** What cleaning a PDF came to. */
export type PdfCleaning =
  | { kind: 'cleaned'; bytes: Uint8Array }
  /** Nothing to remove: the file is kept byte for byte. */
  | { kind: 'clean' }
  | { kind: 'kept'; reason: 'encrypted' | 'signed' | 'too many objects' | 'unreadable' };

/**
 * The most objects a PDF may have to be rewritten: pdf-lib reads every object of the file
 * into memory (about 15 µs and 600 bytes each), where pdf.js reads only a page's. A phone
 * scanner's PDF has a handful a page, a 500-page book some 50 000; a file of two million
 * empty objects took 30 s and 1.3 GB.
 */
export const MAX_PDF_OBJECTS = 100_000;

class TooManyObjects extends Error {}

const METADATA_KEYS = [PDFName.of('Metadata'), PDFName.of('PieceInfo')];
const DCT_DECODE = PDFName.of('DCTDecode');
const FILTER = PDFName.of('Filter');

/** JPEG markers: start of image, start of scan, the application segments and a comment. */
const SOI = 0xd8;
const SOS = 0xda;
const APP0 = 0xe0;
const APP14 = 0xee;
const APP15 = 0xef;
const COM = 0xfe;

const startsWith = (bytes: Uint8Array, at: number, text: string) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(text.length, bytes.length - at))
    .toString('latin1')
    .startsWith(text);

/**
 * Whether a JPEG segment is needed to decode the picture as it was: all but the application
 * segments and comments, and of those, a JFIF header without a thumbnail and Adobe's colour
 * transform (APP14 'Adobe': a CMYK picture's colours depend on it), neither of which says
 * anything of who or where.
 */
function isNeeded(bytes: Uint8Array, marker: number, content: number, length: number) {
  if (marker === COM) return false;
  if (marker < APP0 || marker > APP15) return true;
  if (marker === APP0) {
    // 'JFIF\0', version (2), units (1), densities (4), thumbnail's width and height (1 + 1).
    return startsWith(bytes, content, 'JFIF\0') && length >= 14 && bytes[content + 12] === 0;
  }
  return marker === APP14 && startsWith(bytes, content, 'Adobe');
}

/**
 * A JPEG without its metadata segments (see isNeeded), or undefined when it has none or is
 * not a JPEG this can read. Only the segments before the first scan are looked at: what
 * follows (the compressed picture, and a progressive JPEG's later tables and scans) is
 * copied as it is.
 */
export function stripJpegMetadata(jpeg: Uint8Array): Uint8Array | undefined {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== SOI) return undefined;
  const kept: Uint8Array[] = [jpeg.subarray(0, 2)];
  let removed = false;
  let at = 2;
  for (;;) {
    // Fill bytes (0xff) may stand before a marker.
    while (at < jpeg.length && jpeg[at] === 0xff && jpeg[at + 1] === 0xff) at += 1;
    if (at + 4 > jpeg.length || jpeg[at] !== 0xff) return undefined;
    const marker = jpeg[at + 1]!;
    if (marker === SOS) break;
    const length = (jpeg[at + 2]! << 8) | jpeg[at + 3]!;
    const end = at + 2 + length;
    if (length < 2 || end > jpeg.length) return undefined;
    if (isNeeded(jpeg, marker, at + 4, length - 2)) kept.push(jpeg.subarray(at, end));
    else removed = true;
    at = end;
  }
  if (!removed) return undefined;
  kept.push(jpeg.subarray(at));
  return Buffer.concat(kept);
}

/** Whether a stream is a JPEG picture as a whole file (DCTDecode its one filter). */
function isJpeg(stream: PDFRawStream) {
  const filter = stream.dict.get(FILTER);
  if (filter === DCT_DECODE) return true;
  return filter instanceof PDFArray && filter.size() === 1 && filter.get(0) === DCT_DECODE;
}

/** Calls `visit` on every direct object within `object` (itself, a dictionary's values…). */
function eachObjectIn(object: PDFObject, visit: (object: PDFObject) => void) {
  visit(object);
  if (object instanceof PDFDict) {
    for (const [, value] of object.entries()) eachObjectIn(value, visit);
  } else if (object instanceof PDFArray) {
    for (const value of object.asArray()) eachObjectIn(value, visit);
  } else if (object instanceof PDFStream) {
    eachObjectIn(object.dict, visit);
  }
}

/** Whether the document carries a digital signature (a signature field's value, or /Perms). */
function isSigned(context: PDFContext, catalog: PDFDict) {
  if (catalog.has(PDFName.of('Perms'))) return true;
  const form = catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const flags = form?.get(PDFName.of('SigFlags'));
  if (flags instanceof PDFNumber && (flags.asNumber() & 1) === 1) return true;
  const byteRange = PDFName.of('ByteRange');
  return context
    .enumerateIndirectObjects()
    .some(([, object]) => object instanceof PDFDict && object.has(byteRange));
}

/**
 * The indirect objects the document's catalog reaches (its pages, their fonts and pictures,
 * its outline…), following every reference.
 */
function reachableFrom(context: PDFContext, root: PDFRef): Set<PDFRef> {
  const reached = new Set<PDFRef>([root]);
  const waiting: PDFRef[] = [root];
  while (waiting.length > 0) {
    const object = context.lookup(waiting.pop());
    if (!object) continue;
    eachObjectIn(object, (inner) => {
      if (inner instanceof PDFRef && !reached.has(inner)) {
        reached.add(inner);
        waiting.push(inner);
      }
    });
  }
  return reached;
}

/**
 * Removes the metadata of a loaded document, in place; answers whether there was any.
 */
function removeMetadata(context: PDFContext): boolean {
  let removed = false;
  if (context.trailerInfo.Info) {
    context.trailerInfo.Info = undefined;
    removed = true;
  }
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    eachObjectIn(object, (inner) => {
      const dict = inner instanceof PDFStream ? inner.dict : inner;
      if (!(dict instanceof PDFDict)) return;
      for (const key of METADATA_KEYS) {
        if (dict.has(key)) {
          dict.delete(key);
          removed = true;
        }
      }
    });
    if (object instanceof PDFRawStream && isJpeg(object)) {
      const stripped = stripJpegMetadata(object.contents);
      if (stripped) {
        context.assign(ref, PDFRawStream.of(object.dict, stripped));
        removed = true;
      }
    }
  }
  // What no page reaches any more (the XMP streams, the information dictionary, an earlier
  // revision's objects) is not written.
  const root = context.trailerInfo.Root;
  if (!(root instanceof PDFRef)) throw new Error('A PDF without a catalog');
  const reached = reachableFrom(context, root);
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reached.has(ref)) {
      context.delete(ref);
      removed = true;
    }
  }
  return removed;
}

/**
 * A PDF's objects, read by pdf-lib (every object of the file, those in object streams too),
 * at most MAX_PDF_OBJECTS of them.
 */
async function parsePdf(bytes: Uint8Array): Promise<PDFContext> {
  const parser = PDFParser.forBytesWithOptions(bytes, Infinity);
  // The parser's context, which it fills as it reads: counted as it goes.
  const context = (parser as unknown as { context: PDFContext }).context;
  const assign = context.assign.bind(context);
  let objects = 0;
  context.assign = (ref, object) => {
    objects += 1;
    if (objects > MAX_PDF_OBJECTS) throw new TooManyObjects();
    assign(ref, object);
  };
  return parser.parseDocument();
}

/** The document's catalog and its number of pages, counted in its page tree. */
function pagesOf(context: PDFContext): { catalog: PDFCatalog; pages: number } {
  const catalog = context.lookup(context.trailerInfo.Root);
  if (!(catalog instanceof PDFCatalog)) throw new Error('A PDF without a catalog');
  let pages = 0;
  catalog.Pages().traverse((node) => {
    if (node instanceof PDFPageLeaf) pages += 1;
  });
  return { catalog, pages };
}

/** A PDF without its metadata (see the module's header), or why it is kept as it is. */
export async function cleanPdf(bytes: Uint8Array): Promise<PdfCleaning> {
  let context: PDFContext;
  try {
    context = await parsePdf(bytes);
  } catch (error) {
    return {
      kind: 'kept',
      reason: error instanceof TooManyObjects ? 'too many objects' : 'unreadable',
    };
  }
  if (context.lookup(context.trailerInfo.Encrypt)) return { kind: 'kept', reason: 'encrypted' };
  try {
    const { catalog, pages } = pagesOf(context);
    if (isSigned(context, catalog)) return { kind: 'kept', reason: 'signed' };
    if (!removeMetadata(context)) return { kind: 'clean' };
    // The objects written as they were (nothing of pdf-lib's own added), in object streams
    // when the file had them (PDF 1.5 and later), else with a classic xref table.
    const cleaned = await (
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('/ObjStm')
        ? PDFStreamWriter.forContext(context, Infinity)
        : PDFWriter.forContext(context, Infinity)
    ).serializeToBuffer();
    // Read back, the same pages must be there.
    if (pages === 0 || pagesOf(await parsePdf(cleaned)).pages !== pages) {
      return { kind: 'kept', reason: 'unreadable' };
    }
    return { kind: 'cleaned', bytes: cleaned };
  } catch {
    return { kind: 'kept', reason: 'unreadable' };
  }
}

/**
 * Cleans the PDF in `file` (see cleanPdf), writing the cleaned one to `cleanedFile` (0600,
 * synced): its SHA-256 and size, or undefined when the file is kept as it is.
 */
export async function cleanPdfFile(
  file: string,
  cleanedFile: string,
): Promise<{ sha256: string; size: number } | undefined> {
  const cleaning = await cleanPdf(await readFile(file));
  if (cleaning.kind !== 'cleaned') return undefined;
  await writeFile(cleanedFile, cleaning.bytes, { mode: 0o600, flush: true });
  return {
    sha256: createHash('sha256').update(cleaning.bytes).digest('hex'),
    size: cleaning.bytes.byteLength,
  };
}
