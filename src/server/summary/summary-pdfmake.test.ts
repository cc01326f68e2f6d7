/** The width estimate the summary uses to hand pdfmake whole lines instead of words. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fullSummary } from './summary-factories';
import { textWidth } from './summary-pdfmake';

// The pdfkit that pdfmake lays text out with, and its measure of a string in the same face.
const require = createRequire(import.meta.url);
const PDFKit = createRequire(require.resolve('pdfmake'))('pdfkit') as new (options: object) => {
  font(source: Buffer): { _font: { widthOfString(text: string, size: number): number } };
};
const fontFile = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf'));
const pdfkitWidth = (text: string, size: number) =>
  new PDFKit({ autoFirstPage: false }).font(fontFile)._font.widthOfString(text, size);

describe('the text width estimate', () => {
  it('is never narrower than pdfkit measures, so a line that fits by it fits on the page', () => {
    const summary = fullSummary();
    const samples = [
      summary.person.name,
      ...summary.allergies.map((a) => a.reaction ?? ''),
      ...summary.care_team.map((c) => c.contact_name),
      ...summary.upcoming_visits.map((v) => `${v.doctor_name} ${v.office_name}`),
      'AVAWAY Tooth TeVe LT Yy Ww Vv., “quoted” ‘text’',
      'office affine ffi fl',
      'Łukasz Żółć · Ţară Ăşî · Ελένη Παπαδοπούλου · Иван Петров',
      'a\u0301 e\u0308 Zoe\u0308',
      'September 30, 2030, 12:30 PM',
      '漢字 😀',
    ];
    for (const text of samples) {
      const estimate = textWidth(text, 9);
      expect(estimate, text).toBeGreaterThanOrEqual(pdfkitWidth(text, 9) - 0.001);
      expect(estimate, text).toBeLessThan(pdfkitWidth(text, 9) * 1.05 + 1);
    }
  });

  it('grows with the font size', () => {
    expect(textWidth('Penicillin', 18)).toBeCloseTo(textWidth('Penicillin', 9) * 2, 6);
    expect(textWidth('', 9)).toBe(0);
  });
});
