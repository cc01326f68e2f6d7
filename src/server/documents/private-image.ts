/**
 * An image written by libvips to a new file of the server's alone (0600), as every file a
 * document leaves on disk is: the file is created empty first, with its mode, and libvips
 * writes into it, keeping that mode. For a photo kept without its metadata
 * (processors/image.ts) and an image made ready for OCR (the same, on the server's thread).
 */
import { writeFile } from 'node:fs/promises';
import type { Sharp } from 'sharp';

export async function writeImagePrivately(image: Sharp, file: string): Promise<void> {
  await writeFile(file, new Uint8Array(), { mode: 0o600 });
  await image.toFile(file);
}
