/**
 * What is made from an uploaded file before it is stored (run on the documents thread,
 * document-derive-worker.ts): a photo turned upright by its EXIF orientation and stripped of
 * its metadata (GPS position, device), a HEIC photo's JPEG for display, and a small WebP
 * thumbnail (an image's by sharp, a PDF's first page rendered by pdf.js on a canvas).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as Canvas from '@napi-rs/canvas';
import sharp, { type Sharp } from 'sharp';
import type { DocumentMimeType } from '../../shared/documents';

/** The longest side of a thumbnail, in pixels; a list of 50 stays light (about 8 kB each). */
export const THUMBNAIL_SIZE = 320;
const THUMBNAIL_QUALITY = 70;
/** A re-encoded photo's quality: indistinguishable from the camera's for a paper's photo. */
const PHOTO_QUALITY = 90;

export interface DeriveJob {
  /** The uploaded file, as received (a temporary file of the store's). */
  file: string;
  mimeType: DocumentMimeType;
  /**
   * The file is one this product stored before (an archive's, its hash checked): an image
   * with no metadata left is kept byte for byte, so that it keeps its hash.
   */
  keepIfClean?: boolean;
}

export interface Derived {
  /** The bytes to keep in place of the upload (a photo without its metadata); none: keep it. */
  cleaned?: Uint8Array;
  /** A JPEG to show in place of a file browsers cannot show (HEIC). */
  display?: Uint8Array;
  /** The thumbnail (WebP); none when the file could not be drawn. */
  thumbnail?: Uint8Array;
}

async function thumbnailOf(image: Sharp): Promise<Uint8Array> {
  return image
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: THUMBNAIL_QUALITY })
    .toBuffer();
}

/** A HEIC photo's pixels, by a WebAssembly decoder (sharp's libvips cannot read HEVC). */
async function decodeHeic(bytes: Buffer): Promise<Sharp> {
  // heic-decode ships no types; this is its documented call.
  // @ts-expect-error -- no declaration file
  const loaded = (await import('heic-decode')) as {
    default: (input: {
      buffer: Uint8Array;
    }) => Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
  };
  const decode = loaded.default;
  const image = await decode({ buffer: bytes });
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 4 },
  });
}

/**
 * The canvas module pdf.js itself draws images with. pdf.js pins its own @napi-rs/canvas
 * (0.1.x, under pdfjs-dist/node_modules); drawing its canvases onto one of another copy (the
 * 1.x at the top of node_modules) mixes two builds of Skia in one process, which corrupted
 * the heap and crashed the process on the first PDF with an image in it. So the page is
 * drawn on a canvas of pdf.js's own copy, found from pdf.js's folder as pdf.js finds it.
 */
function canvasOfPdfjs(): typeof Canvas {
  const fromHere = createRequire(import.meta.url);
  const fromPdfjs = createRequire(fromHere.resolve('pdfjs-dist/package.json'));
  return fromPdfjs('@napi-rs/canvas') as typeof Canvas;
}

/** The first page of a PDF, drawn at thumbnail size. */
async function pdfFirstPage(bytes: Buffer): Promise<Uint8Array> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const { createCanvas } = canvasOfPdfjs();
  const document = await pdfjs.getDocument({
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    // No fonts from the system's; the PDF's own drawn on the canvas.
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    const page = await document.getPage(1);
    const unscaled = page.getViewport({ scale: 1 });
    const scale = (THUMBNAIL_SIZE * 2) / Math.max(unscaled.width, unscaled.height);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      canvasContext: context as unknown as CanvasRenderingContext2D,
      viewport,
    }).promise;
    return thumbnailOf(sharp(await canvas.encode('png')));
  } finally {
    await document.destroy();
  }
}

export async function deriveDocument(job: DeriveJob): Promise<Derived> {
  const bytes = await readFile(job.file);
  switch (job.mimeType) {
    case 'application/pdf':
      return { thumbnail: await pdfFirstPage(bytes) };
    case 'image/heic': {
      const image = await decodeHeic(bytes);
      const display = await image.clone().jpeg({ quality: PHOTO_QUALITY }).toBuffer();
      return { display, thumbnail: await thumbnailOf(sharp(display)) };
    }
    default: {
      if (job.keepIfClean) {
        const { exif, xmp, iptc } = await sharp(bytes).metadata();
        if (!exif && !xmp && !iptc) return { thumbnail: await thumbnailOf(sharp(bytes)) };
      }
      // sharp writes no metadata unless asked: rotate() applies the EXIF orientation first.
      const upright = sharp(bytes).rotate();
      const cleaned =
        job.mimeType === 'image/jpeg'
          ? await upright.jpeg({ quality: PHOTO_QUALITY, mozjpeg: false }).toBuffer()
          : job.mimeType === 'image/png'
            ? await upright.png().toBuffer()
            : await upright.webp({ quality: PHOTO_QUALITY }).toBuffer();
      return { cleaned, thumbnail: await thumbnailOf(sharp(cleaned)) };
    }
  }
}
