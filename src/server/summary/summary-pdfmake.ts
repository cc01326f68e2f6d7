/**
 * pdfmake, set up once per process for the summaries: the DejaVu Sans font files read into its
 * in-memory file system, and access policies that refuse every URL and every file on disk. A
 * document can then only use what is already in memory: no text in a record can make the
 * server fetch a URL or read a file, whatever pdfmake node it ends up in.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Pdfmake from 'pdfmake';
import { mergeLinePieces } from './merged-line-pieces';
import { shareFontLayouts } from './shared-font-layouts';
import { lookUpStylesWithoutGarbage } from './style-lookups';

// pdfmake is CommonJS whose export is an instance built at run time: no named ESM exports.
const require = createRequire(import.meta.url);

/** pdfmake's server instance; its typings leave out the in-memory file system it reads fonts from. */
type PdfmakeServer = typeof Pdfmake & {
  virtualfs: { writeFileSync(name: string, content: Buffer): void };
};

/** The family name documents use. */
export const SUMMARY_FONT = 'DejaVuSansCondensed';

/**
 * DejaVu Sans Condensed (package `dejavu-fonts-ttf`, Bitstream Vera licence with public domain
 * changes: embedding allowed): Latin with diacritics, Greek, Cyrillic, Armenian, Georgian,
 * Hebrew and more, narrow enough for six columns on a page.
 */
const FONT_FILES = {
  normal: 'DejaVuSansCondensed.ttf',
  bold: 'DejaVuSansCondensed-Bold.ttf',
  italics: 'DejaVuSansCondensed-Oblique.ttf',
  bolditalics: 'DejaVuSansCondensed-BoldOblique.ttf',
} as const;

/**
 * Chinese: DejaVu has no Han characters, so a summary in 中文（简体） is set in Noto Sans SC
 * (package `@expo-google-fonts/noto-sans-sc`, SIL Open Font License: embedding allowed),
 * which has Latin too. About 10 MB a face, so it is read only for a Chinese summary.
 */
export const CJK_SUMMARY_FONT = 'NotoSansSC';
const CJK_FONT_FILES = {
  normal: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  italics: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bolditalics: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
} as const;

// The names the files have in pdfmake's in-memory file system.
const VFS_FOLDER = 'kin-health-summary';

let configured: PdfmakeServer | undefined;
let cjkAdded = false;
const fontFiles = new Map<string, Buffer>();

/** A font file's content, read once: pdfmake and the width estimate get the same buffer. */
function fontFile(file: string): Buffer {
  let content = fontFiles.get(file);
  if (!content) {
    const path = file.startsWith('@') ? file : `dejavu-fonts-ttf/ttf/${file}`;
    content = readFileSync(require.resolve(path));
    fontFiles.set(file, content);
  }
  return content;
}

/** pdfmake with the summary font loaded and every outside access refused; set up on first use. */
export function summaryPdfmake(): PdfmakeServer {
  if (configured) return configured;
  const pdfmake = require('pdfmake') as PdfmakeServer;
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  const font: Record<string, string> = {};
  for (const [style, file] of Object.entries(FONT_FILES)) {
    const name = `${VFS_FOLDER}/${file}`;
    pdfmake.virtualfs.writeFileSync(name, fontFile(file));
    font[style] = name;
  }
  pdfmake.addFonts({ [SUMMARY_FONT]: font });
  shareFontLayouts(Object.values(FONT_FILES).map(fontFile));
  mergeLinePieces();
  lookUpStylesWithoutGarbage();
  configured = pdfmake;
  return pdfmake;
}

/** The family a summary in `language` is set in; Chinese's is added to pdfmake on first use. */
export function summaryFontFor(language: string): string {
  if (language !== 'zh-CN') return SUMMARY_FONT;
  const pdfmake = summaryPdfmake();
  if (!cjkAdded) {
    const font: Record<string, string> = {};
    for (const [style, file] of Object.entries(CJK_FONT_FILES)) {
      const name = `${VFS_FOLDER}/${file.split('/').pop()}`;
      pdfmake.virtualfs.writeFileSync(name, fontFile(file));
      font[style] = name;
    }
    pdfmake.addFonts({ [CJK_SUMMARY_FONT]: font });
    cjkAdded = true;
  }
  return CJK_SUMMARY_FONT;
}

/** The regular face's file, as pdfmake has it. */
export function summaryFontFile(): Buffer {
  return fontFile(FONT_FILES.normal);
}

/** What the width estimate needs of fontkit (the font engine pdfkit itself uses). */
interface FontMetrics {
  unitsPerEm: number;
  glyphForCodePoint(codePoint: number): { advanceWidth: number };
}

const metricsOf = new Map<string, { font: FontMetrics; advances: Map<number, number> }>();

/**
 * The width in points of a line of text in the regular face: the sum of its characters'
 * advances, without kerning or ligatures. DejaVu's kerning only tightens, so this is never
 * narrower than pdfkit's own measure (summary-pdfmake.test.ts): text that fits by it fits.
 */
export function textWidth(text: string, fontSize: number, family = SUMMARY_FONT): number {
  let metrics = metricsOf.get(family);
  if (!metrics) {
    const fontkit = require('fontkit') as { create(buffer: Uint8Array): FontMetrics };
    const file = family === CJK_SUMMARY_FONT ? CJK_FONT_FILES.normal : FONT_FILES.normal;
    metrics = { font: fontkit.create(fontFile(file)), advances: new Map() };
    metricsOf.set(family, metrics);
  }
  const { font, advances } = metrics;
  let units = 0;
  for (const character of text) {
    const codePoint = character.codePointAt(0)!;
    let advance = advances.get(codePoint);
    if (advance === undefined) {
      advance = font.glyphForCodePoint(codePoint).advanceWidth;
      if (advances.size >= 10_000) advances.clear(); // text can hold any of a million characters
      advances.set(codePoint, advance);
    }
    units += advance;
  }
  return (units / font.unitsPerEm) * fontSize;
}

/** What the line breaking of right-to-left text needs of fontkit: a shaped run's advance. */
interface FontLayout {
  unitsPerEm: number;
  layout(text: string, features: string[]): { advanceWidth: number };
}

const layoutsOf = new Map<string, { font: FontLayout; widths: Map<string, number> }>();

/**
 * The width in points of a text as pdfkit draws it when it lays the text out as one run
 * (a piece with font features): shaped by fontkit, Arabic letters in their joined forms,
 * with kerning. In the regular or bold face of `family`.
 */
export function shapedWidth(text: string, fontSize: number, family: string, bold = false): number {
  const face = `${family}/${bold ? 'bold' : 'normal'}`;
  let layouts = layoutsOf.get(face);
  if (!layouts) {
    const fontkit = require('fontkit') as { create(buffer: Uint8Array): FontLayout };
    const files = family === CJK_SUMMARY_FONT ? CJK_FONT_FILES : FONT_FILES;
    const font = fontkit.create(fontFile(bold ? files.bold : files.normal));
    layouts = { font, widths: new Map() };
    layoutsOf.set(face, layouts);
  }
  const { font, widths } = layouts;
  let units = widths.get(text);
  if (units === undefined) {
    units = font.layout(text, []).advanceWidth;
    if (widths.size >= 10_000) widths.clear();
    widths.set(text, units);
  }
  return (units / font.unitsPerEm) * fontSize;
}
