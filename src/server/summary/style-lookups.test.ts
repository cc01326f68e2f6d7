/** pdfmake's style lookups without garbage: pdfmake's own answers, and the same PDF, byte for byte. */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSummaryDocument } from './summary-document';
import { busySummary, fullSummary } from './summary-factories';
import { summaryPdfmake } from './summary-pdfmake';
import { lookUpStylesWithoutGarbage, pdfmakeStyleLookups } from './style-lookups';

type Lookups = NonNullable<typeof pdfmakeStyleLookups>;
interface StackClass {
  new (
    styles: object,
    defaultStyle?: object,
  ): {
    styleOverrides: unknown[];
    getProperty(property: string): unknown;
  };
  prototype: { getProperty: Lookups['getProperty'] };
  getStyleProperty: Lookups['getStyleProperty'];
}

const require = createRequire(import.meta.url);
const StyleContextStack = (
  createRequire(require.resolve('pdfmake'))('./StyleContextStack') as { default: StackClass }
).default;

/** Runs `body` with pdfmake's own lookups, then puts ours back. */
function withPdfmakeLookups<T>(body: () => T): T {
  const ours = {
    getProperty: StyleContextStack.prototype.getProperty,
    getStyleProperty: StyleContextStack.getStyleProperty,
  };
  StyleContextStack.prototype.getProperty = pdfmakeStyleLookups!.getProperty;
  StyleContextStack.getStyleProperty = pdfmakeStyleLookups!.getStyleProperty;
  try {
    return body();
  } finally {
    StyleContextStack.prototype.getProperty = ours.getProperty;
    StyleContextStack.getStyleProperty = ours.getStyleProperty;
  }
}

describe('style lookups without garbage', () => {
  expect(lookUpStylesWithoutGarbage()).toBe(true);
  afterEach(() =>
    expect(StyleContextStack.getStyleProperty).not.toBe(pdfmakeStyleLookups!.getStyleProperty),
  );

  const styles = {
    heading: { fontSize: 12, bold: true },
    muted: { color: '#5a6a72', fontSize: null },
    small: { extends: 'muted', fontSize: 8 },
    footnote: { extends: ['heading', 'small'], italics: true },
    loop: { extends: ['loop', 'other'] },
    other: { extends: 'loop', margin: [1, 2, 3, 4] },
  };
  const defaultStyle = { font: 'DejaVuSansCondensed', fontSize: 9, color: '#1f2a30' };
  const stacks: unknown[][] = [
    [],
    ['heading'],
    ['missing', { color: 'red' }],
    [{ table: {} }, 'footnote', { fontSize: undefined, bold: null }],
    ['loop', new String('small'), { noWrap: true }],
  ];
  const items: unknown[] = [
    {},
    'A text given as a string',
    { text: 'own', color: 'blue', fontSize: 0, bold: false },
    { text: 'styled', style: 'small' },
    { text: 'styles', style: ['heading', 'missing', { color: 'green' }, 'footnote'] },
    { text: 'in a section', section: {}, style: 'heading' },
    { text: 'looping', style: 'loop' },
  ];
  const properties = ['font', 'fontSize', 'bold', 'italics', 'color', 'margin', 'noWrap', 'link'];

  it("answer as pdfmake's own do, for every item, stack and property", () => {
    for (const overrides of stacks) {
      const stack = new StyleContextStack(styles, defaultStyle);
      stack.styleOverrides.push(...overrides);
      for (const property of properties) {
        const expected = withPdfmakeLookups(() => stack.getProperty(property));
        expect(stack.getProperty(property), `${property} on ${JSON.stringify(overrides)}`).toEqual(
          expected,
        );
        for (const item of items) {
          for (const given of [stack, undefined]) {
            const lookUp = () =>
              StyleContextStack.getStyleProperty(item as never, given as never, property, 'none');
            expect(lookUp(), `${property} of ${JSON.stringify(item)}`).toEqual(
              withPdfmakeLookups(lookUp),
            );
          }
        }
        // The stack is left as it was.
        expect(stack.styleOverrides).toEqual(overrides);
      }
    }
  });

  it('change no byte of the PDF', async () => {
    for (const summary of [fullSummary(), busySummary({ conditions: 100 })]) {
      const render = () => {
        const document = buildSummaryDocument(summary, { timeZone: 'UTC' });
        document.info = { ...document.info, creationDate: new Date('2030-03-04T08:15:00Z') };
        return summaryPdfmake().createPdf(document).getBuffer();
      };
      const ours = await render();
      const pdfmakes = await withPdfmakeLookups(render);
      expect(ours.equals(pdfmakes)).toBe(true);
    }
  });
});
