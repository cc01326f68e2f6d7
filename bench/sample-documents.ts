/**
 * The files the documents' benchmarks upload: random bytes, a camera's photo, a scanner's
 * PDF (bench/documents.ts, bench/heavy-jobs.ts).
 */
import sharp from 'sharp';
import { scannedPdf } from '../src/server/documents/fixtures/sample-files';

/** Random bytes (incompressible), so that a file's size is what it says. */
export const noise = (bytes: number) => {
  const buffer = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i += 4) buffer.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  return buffer;
};

/**
 * A photo of noise (incompressible, so large for its pixels), with a camera's EXIF;
 * `sideways`: taken with the phone on its side (EXIF orientation 6), so it is turned upright.
 */
export async function photo(
  width: number,
  height: number,
  quality: number,
  sideways = false,
): Promise<Buffer> {
  const image = sharp(noise(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .withExif({ IFD0: { Make: 'Bench', Model: 'Camera', ...(sideways && { Orientation: '6' }) } });
  return image.toBuffer();
}

/**
 * A scanned letter as a scanner makes it: `pages` Letter pages at 300 dpi (2550 × 3300), each
 * a JPEG of paper grain with lines of dark print (about 1.75 MB a page).
 */
export async function scan(pages: number): Promise<Buffer> {
  const [width, height] = [2550, 3300];
  const grey = Buffer.allocUnsafe(width * height);
  for (let i = 0; i < grey.length; i += 1) grey[i] = 235 + Math.floor(Math.random() * 20);
  for (let line = 300; line < 3000; line += 60) {
    for (let y = line; y < line + 25; y += 1) {
      for (let x = 250; x < 2300; x += 1) {
        if ((x >> 5) % 4) grey[y * width + x] = 30 + Math.floor(Math.random() * 40);
      }
    }
  }
  const page = await sharp(grey, { raw: { width, height, channels: 1 } })
    .toColourspace('srgb')
    .jpeg({ quality: 85 })
    .toBuffer();
  return scannedPdf(page, pages);
}
