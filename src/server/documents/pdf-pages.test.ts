/**
 * A PDF's first page as its thumbnail draws it (pdf-pages.ts): pictures decoded by
 * sharp (JPEG: colour, grey, CMYK) or by pdf.js (PNG) come out where the page has them, in
 * their colours, and the text beside them too.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfBytes } from './fixtures/sample-files';
import { pdfFirstPage } from './pdf-pages';

const folder = mkdtempSync(path.join(tmpdir(), 'kin-pdf-pages-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A Letter page (612 × 792 points) with one picture at (x, y), w × h points, and a title. */
async function pageWith(picture: Buffer, at: { x: number; y: number; w: number; h: number }) {
  const bytes = await pdfBytes(
    (doc) => {
      doc.fontSize(40).text('Referral', 20, 700);
      doc.image(picture, at.x, at.y, { width: at.w, height: at.h });
    },
    { size: 'LETTER', margin: 0 },
  );
  const file = path.join(folder, `${randomUUID()}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

/** The drawn page's pixel at a point of the page (in points, from its top left), as RGB. */
async function pixelAt(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / 612;
  const at = (Math.round(y * scale) * info.width + Math.round(x * scale)) * 3;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

const near = (actual: number[], expected: number[]) =>
  actual.every((value, index) => Math.abs(value - expected[index]!) <= 40);

/** A picture of one colour, large as a scanner's (2,400 × 3,000 pixels). */
const scan = (background: string) =>
  sharp({ create: { width: 2400, height: 3000, channels: 3, background } });

describe('a PDF first page, drawn', () => {
  it('draws a colour JPEG where the page has it, at the size of the drawing', async () => {
    const file = await pageWith(await scan('#1f5fbf').jpeg().toBuffer(), {
      x: 100,
      y: 100,
      w: 200,
      h: 250,
    });
    const png = await pdfFirstPage(file);
    expect((await sharp(png).metadata()).height).toBe(640);
    expect(near(await pixelAt(png, 200, 225), [0x1f, 0x5f, 0xbf])).toBe(true);
    // Outside the picture the page stays white: it is drawn in its place, not stretched.
    expect(near(await pixelAt(png, 400, 225), [255, 255, 255])).toBe(true);
    expect(near(await pixelAt(png, 200, 500), [255, 255, 255])).toBe(true);
    // The title beside it is drawn too (black strokes somewhere on its line).
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const scale = info.width / 612;
    const line = data.subarray(
      Math.round(715 * scale) * info.width,
      Math.round(730 * scale) * info.width,
    );
    expect(Math.min(...line)).toBeLessThan(100);
  });

  it('draws a grey scan filling the page', async () => {
    const grey = await scan('#808080').toColourspace('b-w').jpeg().toBuffer();
    expect((await sharp(grey).metadata()).channels).toBe(1);
    const png = await pdfFirstPage(await pageWith(grey, { x: 0, y: 0, w: 612, h: 600 }));
    expect(near(await pixelAt(png, 300, 300), [128, 128, 128])).toBe(true);
  });

  it('draws a CMYK JPEG in its colour', async () => {
    const cmyk = await scan('#d02020').toColourspace('cmyk').jpeg().toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const png = await pdfFirstPage(await pageWith(cmyk, { x: 50, y: 50, w: 300, h: 300 }));
    const [red, green, blue] = await pixelAt(png, 200, 200);
    expect(red).toBeGreaterThan(150);
    expect(green).toBeLessThan(110);
    expect(blue).toBeLessThan(110);
  });

  it('draws a PNG (decoded by pdf.js) where the page has it', async () => {
    const logo = await sharp({
      create: { width: 120, height: 60, channels: 3, background: '#c33' },
    })
      .png()
      .toBuffer();
    const png = await pdfFirstPage(await pageWith(logo, { x: 300, y: 50, w: 240, h: 120 }));
    expect(near(await pixelAt(png, 420, 110), [0xcc, 0x33, 0x33])).toBe(true);
    expect(near(await pixelAt(png, 150, 110), [255, 255, 255])).toBe(true);
  });

  it('draws a large PNG (kept at the size the page needs) in its place, halves in their colours', async () => {
    // 2,000 × 1,000 pixels: red on the left, blue on the right, over a quarter of the page.
    const halves = await sharp({
      create: { width: 2000, height: 1000, channels: 3, background: '#d02020' },
    })
      .composite([
        {
          input: { create: { width: 1000, height: 1000, channels: 3, background: '#2020d0' } },
          left: 1000,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const png = await pdfFirstPage(await pageWith(halves, { x: 56, y: 100, w: 500, h: 250 }));
    expect(near(await pixelAt(png, 150, 225), [0xd0, 0x20, 0x20])).toBe(true);
    expect(near(await pixelAt(png, 450, 225), [0x20, 0x20, 0xd0])).toBe(true);
    expect(near(await pixelAt(png, 306, 120), [255, 255, 255])).toBe(false);
    expect(near(await pixelAt(png, 306, 400), [255, 255, 255])).toBe(true);
    expect(near(await pixelAt(png, 30, 225), [255, 255, 255])).toBe(true);
  });
});
