/**
 * A PDF's first page as its thumbnail draws it (pdf-pages.ts): pictures decoded by
 * sharp (JPEG: colour, grey, CMYK) or by pdf.js (PNG) come out where the page has them, in
 * their colours, and the text beside them too. What a drawing may take is bounded whatever
 * the file states: a picture larger than MAX_PICTURE_PIXELS is left out, a page larger than
 * MAX_PAGE_PIXELS is drawn at the resolution that fits.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfBytes, samplePdf } from './fixtures/sample-files';
import { MAX_PAGE_PIXELS, MAX_PICTURE_PIXELS } from './drawing-limits';
import { drawPage, openPdf, pdfFirstPage } from './pdf-pages';

const folder = mkdtempSync(path.join(tmpdir(), 'kin-pdf-pages-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A file of the folder holding `bytes`. */
function saved(bytes: Buffer): string {
  const file = path.join(folder, `${randomUUID()}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

/**
 * A PDF written by hand: a Letter page whose one picture, an RGB one of `width` × `height`
 * pixels, is drawn over most of it; its bytes `deflated` as they are, read with
 * `decodeParms` (none: rows of pixels, no predictor).
 */
function pdfWithPicture(picture: {
  width: number;
  height: number;
  deflated: Buffer;
  decodeParms?: string;
}): Buffer {
  const { width, height, deflated, decodeParms } = picture;
  const content = 'q 500 0 0 700 50 50 cm /Im1 Do Q';
  const objects: (string | Buffer)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R >>'],
    ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' +
        '/Resources << /XObject << /Im1 5 0 R >> >> >>',
    ],
    [`<< /Length ${content.length} >>\nstream\n${content}\nendstream`],
    [
      `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} ` +
        `/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode ` +
        (decodeParms ? `/DecodeParms ${decodeParms} ` : '') +
        `/Length ${deflated.length} >>\nstream\n`,
      deflated,
      '\nendstream',
    ],
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const add = (part: string | Buffer) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  objects.forEach((object, index) => {
    offsets.push(length);
    add(`${index + 1} 0 obj\n`);
    object.forEach(add);
    add('\nendobj\n');
  });
  const table = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`);
  add(
    `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${table.join('')}` +
      `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
  );
  return Buffer.concat(parts);
}

/** A picture that says it is `width` × `height` pixels of black (zeros compress a thousandfold). */
const pictureBomb = (width: number, height: number) =>
  pdfWithPicture({
    width,
    height,
    deflated: deflateSync(Buffer.alloc(width * height * 3), { level: 9 }),
  });

/** A Letter page (612 × 792 points) with one picture at (x, y), w × h points, and a title. */
async function pageWith(picture: Buffer, at: { x: number; y: number; w: number; h: number }) {
  const bytes = await pdfBytes(
    (doc) => {
      doc.fontSize(40).text('Referral', 20, 700);
      doc.image(picture, at.x, at.y, { width: at.w, height: at.h });
    },
    { size: 'LETTER', margin: 0 },
  );
  return saved(bytes);
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

  it('hands sharp a PNG picture as a PNG, decoded a few rows at a time (patches/pdfjs-dist)', async () => {
    // 6,000 × 6,000 pixels (36 megapixels) stored as a PNG stores it, as PDF makers embed a
    // PNG. Decoded whole by pdf.js, and probed first with a canvas of its size, it took 335
    // MB; handed over as a PNG but probed, 117-133 MB; now 31-38 MB. Measured in a process of
    // its own, where nothing before it has raised the highest RSS.
    const picture = await sharp({
      create: { width: 6000, height: 6000, channels: 3, background: '#2a9d8f' },
    })
      .png()
      .toBuffer();
    const file = await pageWith(picture, { x: 56, y: 100, w: 500, h: 500 });
    const warmUp = saved(await samplePdf(1));
    const fixture = path.join(import.meta.dirname, 'fixtures', 'first-page-memory.ts');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', fixture, file, warmUp],
      { cwd: path.join(import.meta.dirname, '..', '..', '..') },
    );
    const { grewKb } = JSON.parse(stdout) as { grewKb: number };
    expect(grewKb).toBeLessThan(100 * 1024);
    // And it is drawn, in its colour, where the page has it.
    const png = await pdfFirstPage(file);
    expect(near(await pixelAt(png, 300, 350), [0x2a, 0x9d, 0x8f])).toBe(true);
    expect(near(await pixelAt(png, 300, 50), [255, 255, 255])).toBe(true);
  });

  it('draws a PNG picture sharp cannot read as pdf.js reads it (a row short)', async () => {
    // Rows as a PNG stores them (a filter byte, then RGB), one fewer than the picture says:
    // libpng refuses it, pdf.js draws what there is.
    const [width, height] = [200, 100];
    const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3)]);
    for (let x = 0; x < width; x += 1) row.set([200, 30, 30], 1 + x * 3);
    const file = saved(
      pdfWithPicture({
        width,
        height,
        deflated: deflateSync(Buffer.concat(Array.from({ length: height - 1 }, () => row))),
        decodeParms: `<< /Predictor 15 /Colors 3 /Columns ${width} /BitsPerComponent 8 >>`,
      }),
    );
    const png = await pdfFirstPage(file);
    expect(near(await pixelAt(png, 300, 400), [200, 30, 30])).toBe(true);
  });

  it('draws a picture pdf.js decodes itself up to MAX_PICTURE_PIXELS', async () => {
    const png = await pdfFirstPage(saved(pictureBomb(600, 800)));
    expect(near(await pixelAt(png, 300, 400), [0, 0, 0])).toBe(true);
  });

  it('leaves out a picture that states more than MAX_PICTURE_PIXELS, and takes no more memory for it', async () => {
    // 12,000 × 12,000 pixels in a 420 kB file: drawn, it took 1.9 GB (13 bytes a pixel).
    const side = 12_000;
    expect(side * side).toBeGreaterThan(MAX_PICTURE_PIXELS);
    const file = saved(pictureBomb(side, side));
    const before = process.resourceUsage().maxRSS * 1024;
    const png = await pdfFirstPage(file);
    const grew = process.resourceUsage().maxRSS * 1024 - before;
    // The rest of the page is drawn; where the picture would be, the page stays white.
    expect(near(await pixelAt(png, 300, 400), [255, 255, 255])).toBe(true);
    expect(grew).toBeLessThan(200 * 1024 * 1024);
  });

  it('draws a page larger than MAX_PAGE_PIXELS at 300 dpi at the resolution that fits it', async () => {
    // A 1 kB file whose page is 5,000 points square: at 300 dpi a canvas of 1.7 GB.
    const file = saved(
      await pdfBytes(
        (doc) => {
          doc.addPage({ size: [5000, 5000], margin: 0 });
          doc.rect(0, 0, 2500, 5000).fill('#000000');
        },
        { autoFirstPage: false },
      ),
    );
    const document = await openPdf(file);
    try {
      const canvas = await drawPage(await document.getPage(1), 300 / 72);
      expect(canvas.width * canvas.height).toBeLessThanOrEqual(MAX_PAGE_PIXELS * 1.001);
      expect(canvas.width).toBeGreaterThan(4000);
      // Drawn whole at that resolution: its left half black, its right half white.
      const context = canvas.getContext('2d');
      const pixel = (x: number) => [...context.getImageData(x, canvas.height / 2, 1, 1).data];
      expect(pixel(canvas.width / 4).slice(0, 3)).toEqual([0, 0, 0]);
      expect(pixel((canvas.width * 3) / 4).slice(0, 3)).toEqual([255, 255, 255]);
    } finally {
      await document.destroy();
    }
  });

  it('still draws a Letter page at 300 dpi', async () => {
    const document = await openPdf(
      saved(await pdfBytes((doc) => doc.text('Letter'), { size: 'LETTER' })),
    );
    try {
      const canvas = await drawPage(await document.getPage(1), 300 / 72);
      expect(canvas.width).toBe(2550);
      expect(Math.abs(canvas.height - 3300)).toBeLessThanOrEqual(1);
    } finally {
      await document.destroy();
    }
  });

  it('reads the file into an array of small pages (patches/pdfjs-dist)', () => {
    // pdf.js holds a PDF in one array of the file's size, filled a range at a time. Made by
    // malloc, under npm start's glibc.malloc.hugetlb=1, each range it read made a 2 MB huge
    // page resident: about 30 MB for a 23 MB scan. A resizable ArrayBuffer's memory is
    // V8's own mapping, which asks for no huge pages. `npm ci` applies the patch
    // (postinstall: patch-package).
    const worker = readFileSync(
      createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'),
      'utf8',
    );
    const constructor =
      /class ChunkedStream extends Stream \{[\s\S]*?constructor\([^)]*\) \{([\s\S]*?)\n {2}\}/.exec(
        worker,
      )?.[1];
    expect(constructor).toContain('new ArrayBuffer(length, {');
    expect(constructor).toContain('maxByteLength: length');
  });
});
