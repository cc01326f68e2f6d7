import { describe, expect, it } from 'vitest';
import { cleanFileName, downloadName } from './file-names';

describe('file names', () => {
  it.each([
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['\u2066scan\u2069 \u200Bone\u200F.pdf', 'scan one.pdf'],
    ['a\u202A\u202B\u202C\u202D\u2067\u2068\uFEFF\u00AD\u061Cb', 'ab'],
    ['line\nbreak\u2028.pdf', 'linebreak.pdf'],
    ['\u202E', 'document'],
    ['Überweisung März.pdf', 'Überweisung März.pdf'],
  ])('clean %j to %j', (name, cleaned) => {
    expect(cleanFileName(name)).toBe(cleaned);
  });

  it.each([
    ['report.html', 'application/pdf', 'report.html.pdf'],
    ['report.PDF', 'application/pdf', 'report.PDF'],
    ['Dr. Smith', 'application/pdf', 'Dr. Smith.pdf'],
    ['photo.JPEG', 'image/jpeg', 'photo.JPEG'],
    ['photo.png', 'image/jpeg', 'photo.png.jpg'],
    ['IMG_0001.HEIC', 'image/heic', 'IMG_0001.HEIC'],
    ['invoice\u202Efdp.exe', 'application/pdf', 'invoicefdp.exe.pdf'],
    ['card.webp', 'image/webp', 'card.webp'],
  ])('name %j stored as %s %j', (name, type, download) => {
    expect(downloadName(name, type)).toBe(download);
  });
});
