/**
 * What is made from an uploaded file before it is stored (run on the documents thread,
 * document-derive-worker.ts, reading the upload's temporary file): a photo turned upright by
 * its EXIF orientation and stripped of its metadata (GPS position, device), a HEIC photo's
 * metadata emptied in place and its JPEG for display, and a small WebP thumbnail (an image's
 * by sharp, shrunk as it is decoded; a PDF's first page drawn by pdf.js, pdf-pages.ts).
 * A cleaned file is written beside the upload, hashed as it is written: no whole file is held
 * in memory but a HEIC photo's (its decoder's).
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp, { type Sharp } from 'sharp';
import type { DocumentMimeType } from '../../shared/documents';
import { stripHeicMetadata } from './heic-metadata';
import { writeImagePrivately } from './private-image';
import { cleanPdfFile } from './pdf-metadata';
import { pdfFirstPage } from './pdf-pages';
import { ccdaNarrativePage } from '../imports/ccda/ccda-narrative';

// libvips keeps no decoded image for a next one: each upload's memory goes back at its end.
sharp.cache(false);

/** The longest side of a thumbnail, in pixels; a list of 50 stays light (about 8 kB each). */
export const THUMBNAIL_SIZE = 320;
const THUMBNAIL_QUALITY = 70;
/** A re-encoded photo's quality: indistinguishable from the camera's for a paper's photo. */
const PHOTO_QUALITY = 90;
/**
 * A photo's JPEG, written in one pass with the standard Huffman tables: optimised ones need
 * every coefficient of the photo in memory at once (72 MB for 12 megapixels) for a file a
 * few percent smaller.
 */
const PHOTO_JPEG = { quality: PHOTO_QUALITY, mozjpeg: false, optimiseCoding: false } as const;

export interface DeriveJob {
  /** Whose upload it is: each account's uploads are prepared in turn with others'. */
  owner?: string;
  /** The uploaded file, as received (a temporary file of the store's). */
  file: string;
  mimeType: DocumentMimeType;
  /** Where to write the file kept in place of the upload (a temporary file of the store's). */
  cleanedFile: string;
  /**
   * The file is one this product stored before (an archive's, its hash checked): an image
   * with no metadata left is kept byte for byte, so that it keeps its hash.
   */
  keepIfClean?: boolean;
}

/** A file written: its SHA-256 and its size. */
export interface WrittenFile {
  sha256: string;
  size: number;
}

export interface Derived {
  /** The job's cleanedFile is written, to keep in place of the upload (a photo without its
   * metadata); none: keep the upload. */
  cleaned?: WrittenFile;
  /** A JPEG to show in place of a file browsers cannot show (HEIC). */
  display?: Uint8Array;
  /** The thumbnail (WebP); none when the file could not be drawn. */
  thumbnail?: Uint8Array;
}

async function thumbnailOf(image: Sharp): Promise<Uint8Array> {
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
async function writeHashed(source: Readable, file: string): Promise<WrittenFile> {
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
async function hashOf(file: string): Promise<WrittenFile> {
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

export async function deriveDocument(job: DeriveJob): Promise<Derived> {
  switch (job.mimeType) {
    case 'application/pdf': {
      // Kept without its metadata (pdf-metadata.ts), drawn as kept; a PDF pdf.js cannot
      // draw is kept without a thumbnail.
      const cleaned = await cleanPdfFile(job.file, job.cleanedFile);
      const page = await pdfFirstPage(cleaned ? job.cleanedFile : job.file).catch(() => undefined);
      return { cleaned, thumbnail: page && (await thumbnailOf(sharp(page))) };
    }
    // A C-CDA kept by an import: kept as it came, shown as its narrative (sanitised HTML).
    case 'application/xml': {
      const text = await readFile(job.file, 'utf8');
      return { display: Buffer.from(ccdaNarrativePage(text)) };
    }
    case 'image/heic': {
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
    default: {
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
  }
}
