/**
 * A photo or scan as an image (JPEG, PNG, WebP; HEIC, which sharp's libvips cannot decode,
 * by a WebAssembly decoder). At upload: turned upright by its EXIF orientation and kept
 * without its metadata (GPS position, device), a HEIC photo's metadata emptied in place and a
 * JPEG made to show it, and a WebP thumbnail shrunk as it is decoded. Its text: one page,
 * read by OCR from a grey PNG the server's thread prepares.
 */
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import sharp, { type Sharp } from '../image-library';
import { MAX_PAGE_PIXELS } from '../drawing-limits';
import { stripHeicMetadata } from '../heic-metadata';
import { writeImagePrivately } from '../private-image';
import type { DeriveJob, Derived, DocumentProcessor, TypedFile } from './processor';

/** A HEIC photo's pixels (RGBA), by a WebAssembly decoder (sharp's libvips cannot read HEVC). */
export async function heicPixels(
  bytes: Uint8Array,
): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  // heic-decode ships no types; this is its documented call.
  // @ts-expect-error -- no declaration file
  const loaded = (await import('heic-decode')) as {
    default: (input: {
      buffer: Uint8Array;
    }) => Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
  };
  return loaded.default({ buffer: bytes });
}

async function decodeHeic(bytes: Buffer): Promise<Sharp> {
  const image = await heicPixels(bytes);
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 4 },
  });
}

/** A JPEG, PNG or WebP: kept without its metadata, upright, and its thumbnail. */
async function derivePhoto(job: DeriveJob): Promise<Derived> {
  const { hashOf, PHOTO_JPEG, PHOTO_QUALITY, thumbnailOf } = await import('./derived-copies');
  if (job.keepIfClean) {
    const { exif, xmp, iptc } = await sharp(job.file).metadata();
    if (!exif && !xmp && !iptc) return { thumbnail: await thumbnailOf(sharp(job.file)) };
  }
  // sharp writes no metadata unless asked: rotate() applies the EXIF orientation first.
  // One decode of the photo at a time, written straight to the file (sharp's stream
  // would hold the whole output) and read back for its hash; the thumbnail is made from
  // it (upright already), shrunk as it loads (a JPEG at 1/8 of its size), so that the
  // memory an upload takes is one photo's, not two.
  const upright = sharp(job.file).rotate();
  const cleaned =
    job.mimeType === 'image/jpeg'
      ? upright.jpeg(PHOTO_JPEG)
      : job.mimeType === 'image/png'
        ? upright.png()
        : upright.webp({ quality: PHOTO_QUALITY });
  await writeImagePrivately(cleaned, job.cleanedFile);
  const written = await hashOf(job.cleanedFile);
  const thumbnail = await thumbnailOf(sharp(job.cleanedFile));
  return { cleaned: written, thumbnail };
}

/** A HEIC photo: its JPEG to show, its thumbnail, and the original without its metadata. */
async function deriveHeic(job: DeriveJob): Promise<Derived> {
  const { PHOTO_JPEG, thumbnailOf, writeHashed } = await import('./derived-copies');
  const bytes = await readFile(job.file);
  const image = await decodeHeic(bytes);
  const [display, thumbnail] = await Promise.all([
    image.clone().jpeg(PHOTO_JPEG).toBuffer(),
    thumbnailOf(image.clone()),
  ]);
  // The original kept for download, its Exif and XMP emptied where they are.
  const cleaned =
    stripHeicMetadata(bytes) > 0
      ? await writeHashed(Readable.from([bytes]), job.cleanedFile)
      : undefined;
  return { cleaned, display, thumbnail };
}

/**
 * What the text thread reads of an image: turned upright (its EXIF orientation) and grey, as
 * a PNG written to `prepared` (sharp works on libuv's threads, off the event loop), with at
 * most as many pixels as a PDF page is drawn with (MAX_PAGE_PIXELS: a letter photographed at
 * 48 megapixels is read at 20, well over 300 dpi).
 */
async function ocrReady(document: TypedFile, prepared: string): Promise<TypedFile> {
  const { width = 1, height = 1 } = await sharp(document.file).metadata();
  // The longest side that keeps the picture within the pixels, whichever way it turns.
  const side = Math.floor(Math.max(width, height) * Math.sqrt(MAX_PAGE_PIXELS / (width * height)));
  const image = sharp(document.file)
    .rotate()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    // One channel of grey (`greyscale()` alone wrote it three times over, in sRGB).
    .toColourspace('b-w')
    .png();
  await writeImagePrivately(image, prepared);
  return { file: prepared, mimeType: 'image/png' };
}

/** An image's text: the prepared image read by OCR, as one page. */
const imageText: DocumentProcessor['text'] = async (job, ocr) => ({
  text: await ocr.read(job.file),
  pages: 1,
  pagesRead: 1,
});

export const imageProcessor: DocumentProcessor = {
  derive: derivePhoto,
  textReady: ocrReady,
  text: imageText,
};

export const heicProcessor: DocumentProcessor = {
  derive: deriveHeic,
  textReady: ocrReady,
  text: imageText,
};
