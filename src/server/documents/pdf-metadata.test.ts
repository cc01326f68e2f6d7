/**
 * A PDF's metadata removed (pdf-metadata.ts): its JPEG pictures' segments, its information
 * dictionary and XMP, and the PDFs kept as uploaded (encrypted, signed, too many objects,
 * unreadable).
 */
import exifr from 'exifr';
import { PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { gpsPhoto, pdfBytes, scannerPdf } from './fixtures/sample-files';
import { cleanPdf, MAX_PDF_OBJECTS, stripJpegMetadata } from './pdf-metadata';

const segment = (marker: number, content: string) => {
  const bytes = Buffer.from(content, 'latin1');
  return Buffer.concat([
    Buffer.from([0xff, marker, (bytes.length + 2) >> 8, (bytes.length + 2) & 255]),
    bytes,
  ]);
};
/** A JPEG with segments put in after its start. */
const withSegments = (jpeg: Buffer, ...segments: Buffer[]) =>
  Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);

const markersOf = (jpeg: Uint8Array) => {
  const markers: number[] = [];
  for (let at = 2; jpeg[at + 1] !== 0xda; at += 2 + ((jpeg[at + 2]! << 8) | jpeg[at + 3]!)) {
    markers.push(jpeg[at + 1]!);
  }
  return markers;
};

describe('a JPEG without its metadata', () => {
  it('loses its EXIF, XMP, ICC profile and comments, and keeps its pixels and its Adobe colour transform', async () => {
    const photo = withSegments(
      await gpsPhoto({ width: 64, height: 48 }),
      // A JFIF header, and one with a thumbnail (1×1 pixel) of the photo.
      segment(0xe0, 'JFIF\0\x01\x01\0\0\x01\0\x01\0\0'),
      segment(0xe0, 'JFIF\0\x01\x01\0\0\x01\0\x01\x01\x01\xff\xff\xff'),
      segment(0xe2, 'ICC_PROFILE\0\x01\x01Phone 12 camera profile'),
      segment(0xe1, 'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>Jane Doe</x:xmpmeta>'),
      segment(0xed, 'Photoshop 3.0\0IPTC Jane Doe'),
      segment(0xfe, 'Scanned by Jane Doe'),
      segment(0xee, 'Adobe\0\x64\0\0\0\0\x01'),
    );
    expect((await exifr.gps(photo))?.latitude).toBeCloseTo(48.85, 1);
    const stripped = stripJpegMetadata(photo)!;
    expect(stripped).toBeDefined();
    expect(
      await exifr.parse(Buffer.from(stripped), { tiff: true, gps: true, xmp: true, icc: true }),
    ).toBeUndefined();
    for (const trace of ['Exif', 'Acme', 'Phone 12', 'Jane Doe', 'ICC_PROFILE']) {
      expect(Buffer.from(stripped).includes(trace), trace).toBe(false);
    }
    // What decoding needs stays: the JFIF header, Adobe's transform, the tables, the frame.
    expect(markersOf(stripped).filter((marker) => marker >= 0xe0 && marker <= 0xef)).toEqual([
      0xe0, 0xee,
    ]);
    const pixels = (jpeg: Uint8Array) => sharp(jpeg).raw().toBuffer();
    expect((await pixels(stripped)).equals(await pixels(photo))).toBe(true);
  });

  it('is none when there is nothing to remove, or it is not a JPEG', async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    expect(stripJpegMetadata(plain)).toBeUndefined();
    expect(stripJpegMetadata(Buffer.from('%PDF-1.7'))).toBeUndefined();
    // Cut short in its segments: left as it is.
    expect(stripJpegMetadata((await gpsPhoto()).subarray(0, 30))).toBeUndefined();
  });
});

describe('a PDF without its metadata', () => {
  it('is cleaned once: cleaning it again finds nothing', async () => {
    const cleaning = await cleanPdf(await scannerPdf());
    expect(cleaning.kind).toBe('cleaned');
    if (cleaning.kind !== 'cleaned') return;
    const document = await PDFDocument.load(cleaning.bytes, { updateMetadata: false });
    expect(document.getAuthor()).toBeUndefined();
    expect(document.getProducer()).toBeUndefined();
    expect(document.catalog.has(PDFName.of('Metadata'))).toBe(false);
    expect(await cleanPdf(cleaning.bytes)).toEqual({ kind: 'clean' });
  });

  it('is kept as uploaded when it is encrypted', async () => {
    const encrypted = await pdfBytes((doc) => doc.text('Statement'), {
      userPassword: '',
      ownerPassword: 'owner',
      info: { Author: 'Jane Doe' },
    });
    expect(await cleanPdf(encrypted)).toEqual({ kind: 'kept', reason: 'encrypted' });
  });

  it('is kept as uploaded when it is signed', async () => {
    const document = await PDFDocument.load(await scannerPdf(), { updateMetadata: false });
    const signature = document.context.obj({
      Type: 'Sig',
      Filter: 'Adobe.PPKLite',
      ByteRange: [0, 10, 20, 30],
    });
    document.catalog.set(PDFName.of('AcroForm'), document.context.obj({ SigFlags: 3, Fields: [] }));
    document.context.register(signature);
    const signed = await document.save();
    expect(await cleanPdf(signed)).toEqual({ kind: 'kept', reason: 'signed' });
  });

  it(`is kept as uploaded when it has more than ${MAX_PDF_OBJECTS} objects`, async () => {
    const objects = Array.from(
      { length: MAX_PDF_OBJECTS + 1 },
      (_, i) => `${i + 4} 0 obj<<>>endobj\n`,
    );
    const pdf = Buffer.from(
      [
        '%PDF-1.7\n',
        '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n',
        '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n',
        '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n',
        ...objects,
        `trailer<</Size ${MAX_PDF_OBJECTS + 5}/Root 1 0 R/Info 4 0 R>>\n%%EOF\n`,
      ].join(''),
      'latin1',
    );
    expect(await cleanPdf(pdf)).toEqual({ kind: 'kept', reason: 'too many objects' });
  });

  it('is kept as uploaded when pdf-lib cannot read its pages', async () => {
    const broken = Buffer.from(
      '%PDF-1.7\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    );
    expect(await cleanPdf(broken)).toEqual({ kind: 'kept', reason: 'unreadable' });
  });
});
