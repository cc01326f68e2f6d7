/**
 * Like pieces of a line drawn as one: fewer text objects, and every word where it was, read
 * back with poppler's pdftotext.
 */
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../test/pdf-text';
import { mergedPieces, type LinePiece } from './merged-line-pieces';
import { SUMMARY_FONT, summaryPdfmake } from './summary-pdfmake';

const font = {};
const piece = (text: string, x: number, width: number, more: Partial<LinePiece> = {}) =>
  ({
    text,
    x,
    width,
    font,
    fontSize: 9,
    color: '#1f2a30',
    opacity: 1,
    link: null,
    ...more,
  }) as LinePiece;

describe('merged pieces of a line', () => {
  it('make one piece of each run drawn alike and side by side', () => {
    const pieces = [piece('Hives, ', 0, 25), piece('itching ', 25, 30), piece('and', 55, 15)];
    expect(mergedPieces(pieces)).toEqual([piece('Hives, itching and', 0, 70)]);
    expect(pieces.map((p) => p.text)).toEqual(['Hives, ', 'itching ', 'and']);
  });

  it('keep apart pieces of another colour, font, size or opacity', () => {
    const bold = {};
    const pieces = [
      piece('Date ', 0, 20, { color: '#5a6a72' }),
      piece('of ', 20, 10, { color: '#5a6a72' }),
      piece('March ', 30, 25),
      piece('4, ', 55, 10, { font: bold }),
      piece('2030', 65, 20, { font: bold, fontSize: 10 }),
      piece(' ok', 85, 10, { font: bold, fontSize: 10, opacity: 0.5 }),
    ];
    expect(mergedPieces(pieces).map((p) => p.text)).toEqual([
      'Date of ',
      'March ',
      '4, ',
      '2030',
      ' ok',
    ]);
  });

  it('keep apart pieces that are not side by side (justified) or draw more than text', () => {
    const justified = [piece('one ', 0, 20), piece('two', 24, 15)];
    expect(mergedPieces(justified)).toBe(justified);
    const linked = [piece('see ', 0, 20), piece('here', 20, 20, { link: 'https://example.org' })];
    expect(mergedPieces(linked)).toBe(linked);
    const raised = [piece('x', 0, 5), piece('2', 5, 3, { sup: true })];
    expect(mergedPieces(raised)).toBe(raised);
    const underlined = [piece('a ', 0, 8, { decoration: 'underline' }), piece('b', 8, 5)];
    expect(mergedPieces(underlined)).toBe(underlined);
  });
});

const WORDS = 'Followed every six months; last review found it stable, with no change of dose.';

/** A page of wrapped text whose words take turns in two colours, or are all one colour. */
function document(twoColours: boolean): TDocumentDefinitions {
  const paragraph = (size: number, text = WORDS): Content => ({
    fontSize: size,
    text: text.split(/(?<= )/).map((word, i) => ({
      text: word,
      color: twoColours && i % 2 === 1 ? '#1f2a31' : '#1f2a30',
    })),
  });
  return {
    content: [
      paragraph(9),
      {
        columns: [
          { width: 120, stack: [paragraph(9)] },
          { width: 90, stack: [paragraph(11)] },
        ],
      },
      { stack: [paragraph(9, `${WORDS} ${WORDS}`)], alignment: 'center', margin: [60, 0] },
    ],
    defaultStyle: { font: SUMMARY_FONT },
    info: { creationDate: new Date('2030-03-04T08:15:00Z') },
  };
}

async function rendered(definition: TDocumentDefinitions): Promise<Buffer> {
  return summaryPdfmake()
    .createPdf({ ...definition, compress: false })
    .getBuffer();
}

/** Each word on the page and where pdftotext finds it, in points. */
async function wordBoxes(pdf: Buffer): Promise<string[]> {
  const boxes = await pdfText(pdf, ['-bbox']);
  return [
    ...boxes.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>([^<]*)</g),
  ].map(
    ([, xMin, yMin, xMax, word]) =>
      `${word} ${Number(xMin).toFixed(2)} ${Number(yMin).toFixed(2)} ${Number(xMax).toFixed(2)}`,
  );
}

const textObjects = (pdf: Buffer) => pdf.toString('latin1').match(/^BT$/gm)?.length ?? 0;

describe('a PDF drawn with merged pieces', () => {
  it('draws a line of words in one colour as one text object, every word where it was', async () => {
    const alike = await rendered(document(false));
    const apart = await rendered(document(true)); // no two words side by side alike
    const words = WORDS.split(' ').length;

    expect(textObjects(apart)).toBeGreaterThanOrEqual(5 * words);
    expect(textObjects(alike)).toBeLessThan(textObjects(apart) / 3);
    const boxes = await wordBoxes(alike);
    expect(boxes.length).toBeGreaterThanOrEqual(5 * words);
    expect(boxes).toEqual(await wordBoxes(apart));
  });
});
