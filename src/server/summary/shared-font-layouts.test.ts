/** Word layouts shared between documents: what pdfkit would have drawn, byte for byte. */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInLanguage, startServerLanguages } from '../i18n/server-language';
import { buildSummaryDocument } from './summary-document';
import { busySummary, fullSummary } from './summary-factories';
import { summaryFontFile, summaryPdfmake } from './summary-pdfmake';
import { sharedLayoutCount } from './shared-font-layouts';

interface Run {
  glyphs: { id: number }[];
  positions: object[];
  advanceWidth: number;
}
interface EmbeddedFont {
  layoutCache: Record<string, Run>;
  layout(text: string, features?: string[]): Run;
  layoutCached(text: string): Run;
}
const require = createRequire(import.meta.url);
const PDFKit = createRequire(require.resolve('pdfmake'))('pdfkit') as new (options: object) => {
  font(source: Uint8Array): { _font: EmbeddedFont };
};
const embedded = (file: Uint8Array) => new PDFKit({ autoFirstPage: false }).font(file)._font;
const shape = (run: Run) => ({
  glyphs: run.glyphs.map((glyph) => glyph.id),
  positions: run.positions,
  advanceWidth: run.advanceWidth,
});

beforeAll(() => startServerLanguages());

/** A summary's PDF with a fixed date of making, so two renderings can be compared byte for byte. */
async function renderFixed(
  options: { fontLayoutCache: boolean },
  language = 'en',
): Promise<Buffer> {
  const document = runInLanguage(language, () =>
    buildSummaryDocument(busySummary({ conditions: 100 }), { timeZone: 'UTC' }),
  );
  document.info = { ...document.info, creationDate: new Date('2030-03-04T08:15:00Z') };
  return summaryPdfmake().createPdf(document, options).getBuffer();
}

describe('shared font layouts', () => {
  it('lay words out exactly as pdfkit does on its own', () => {
    summaryPdfmake();
    const own = embedded(Buffer.from(summaryFontFile())); // a copy: not one of the shared files
    const words = ['March ', '4, ', '2030', 'AVAWAY ', 'office', 'Ελένη ', 'Иван', 'Zoë', '–'];
    for (const word of words) {
      const shared = embedded(summaryFontFile()).layoutCached(word);
      expect(shape(shared), word).toEqual(shape(own.layoutCached(word)));
    }
  });

  it('lay a run given with no font features out whole, as pdfkit does, and keep it', () => {
    summaryPdfmake();
    const own = embedded(Buffer.from(summaryFontFile()));
    for (const run of ['ملخص صحي', 'لا توجد سجلات', 'Mayo Clinic']) {
      const shared = embedded(summaryFontFile()).layout(run, []);
      expect(shape(shared), run).toEqual(shape(own.layout(run, [])));
      expect(embedded(summaryFontFile()).layoutCached(run), run).toBe(shared);
    }
  });

  it('are kept across documents, and pdfkit keeps its own cache for any other font', async () => {
    await summaryPdfmake()
      .createPdf(buildSummaryDocument(fullSummary(), { timeZone: 'UTC' }))
      .getBuffer();
    expect(sharedLayoutCount(summaryFontFile())).toBeGreaterThan(0);

    const summaryFont = embedded(summaryFontFile());
    summaryFont.layoutCached('Penicillin');
    expect(Object.keys(summaryFont.layoutCache)).toEqual([]);

    const otherFont = embedded(Buffer.from(summaryFontFile()));
    otherFont.layoutCached('Penicillin');
    expect(Object.keys(otherFont.layoutCache)).toEqual(['Penicillin']);
  });

  it('change no byte of the PDF', async () => {
    await renderFixed({ fontLayoutCache: true }); // the shared layouts now hold its words
    const withShared = await renderFixed({ fontLayoutCache: true });
    const withoutCache = await renderFixed({ fontLayoutCache: false });
    expect(withShared.equals(withoutCache)).toBe(true);
  });

  it('change no byte of a PDF in Arabic, its runs laid out whole', async () => {
    await renderFixed({ fontLayoutCache: true }, 'ar');
    const withShared = await renderFixed({ fontLayoutCache: true }, 'ar');
    const withoutCache = await renderFixed({ fontLayoutCache: false }, 'ar');
    expect(withShared.equals(withoutCache)).toBe(true);
  });
});
