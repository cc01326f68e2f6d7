/**
 * Word layouts shared between documents, for the summary's fonts (and the runs of a
 * right-to-left line, each laid out whole). pdfkit lays out every word
 * with fontkit (glyphs, kerning) and caches the result per document: each new summary starts
 * cold, parses the font's layout tables again and lays out 'March', 'Daily' and every number
 * anew, about a tenth of a busy summary's time and half of a small one's. Here the cache lives
 * as long as the process, one per font file, bounded, and pdfkit's own cache is left to every
 * other font. A layout depends on nothing but the font file and the text, and pdfkit only
 * reads it, so sharing it changes no byte of what is drawn (see shared-font-layouts.test.ts).
 * Why this reaches into pdfkit: docs/decisions/0008-summary-pdf-fonts.md.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A word laid out: glyphs and positions, as pdfkit's EmbeddedFont.layoutRun returns it. */
type Run = object;

/** The part of pdfkit's EmbeddedFont this relies on (pdfkit 0.19: js/pdfkit.js). */
interface EmbeddedFont {
  font: { stream: { buffer: Uint8Array } };
  layoutCache?: object;
  layout(text: string, features?: unknown, onlyWidth?: boolean): Run;
  layoutRun(text: string): Run;
  layoutCached(text: string): Run;
}

/** Enough for the words of several busy summaries; past it, a cache starts again. */
export const SHARED_LAYOUTS_LIMIT = 20_000;

const sharedLayouts = new WeakMap<Uint8Array, Map<string, Run>>();
let installed = false;

/** The pdfkit that pdfmake uses, and the class of the fonts it embeds. */
function embeddedFontClass(fontFile: Uint8Array): { prototype: EmbeddedFont } {
  const pdfkit = createRequire(require.resolve('pdfmake'))('pdfkit') as new (options: object) => {
    font(source: Uint8Array): { _font: { constructor: { prototype: EmbeddedFont } } };
  };
  return new pdfkit({ autoFirstPage: false }).font(fontFile)._font.constructor;
}

/**
 * Shares word layouts between documents for these font files (the very buffers pdfmake is
 * given). Returns whether it could: it checks the shape of pdfkit it relies on, and leaves
 * pdfkit as it is if that has changed.
 */
export function shareFontLayouts(fontFiles: readonly Uint8Array[]): boolean {
  for (const file of fontFiles) if (!sharedLayouts.has(file)) sharedLayouts.set(file, new Map());
  if (installed) return true;
  let prototype: EmbeddedFont | undefined;
  try {
    prototype = embeddedFontClass(fontFiles[0]!).prototype;
  } catch {
    return false;
  }
  if (
    typeof prototype?.layoutCached !== 'function' ||
    typeof prototype.layoutRun !== 'function' ||
    typeof prototype.layout !== 'function'
  ) {
    return false;
  }
  const ownCache = prototype.layoutCached;
  prototype.layoutCached = function (this: EmbeddedFont, text: string): Run {
    const layouts = this.layoutCache && sharedLayouts.get(this.font.stream.buffer);
    if (!layouts) return ownCache.call(this, text);
    let run = layouts.get(text);
    if (!run) {
      run = this.layoutRun(text);
      if (layouts.size >= SHARED_LAYOUTS_LIMIT) layouts.clear();
      layouts.set(text, run);
    }
    return run;
  };
  // A text given with an empty list of font features is laid out as one run, not word by word
  // (right-to-left lines, summary-document.ts): the same run as `layoutRun(text)`, so it is
  // shared too, where pdfkit would lay it out anew each time it measures or draws it.
  const ownLayout = prototype.layout;
  prototype.layout = function (
    this: EmbeddedFont,
    text: string,
    features?: unknown,
    onlyWidth?: boolean,
  ): Run {
    const shared = this.layoutCache && sharedLayouts.has(this.font.stream.buffer);
    if (shared && Array.isArray(features) && features.length === 0) return this.layoutCached(text);
    return ownLayout.call(this, text, features, onlyWidth);
  };
  installed = true;
  return true;
}

/** How many word layouts are kept for a font file (for tests). */
export function sharedLayoutCount(fontFile: Uint8Array): number | undefined {
  return sharedLayouts.get(fontFile)?.size;
}
