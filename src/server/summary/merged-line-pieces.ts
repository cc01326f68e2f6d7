/**
 * One text object for each run of like pieces on a line. pdfmake breaks wrapping text into
 * words and draws every word as a text object of its own, setting its colour, opacity, font
 * and position each time (its own TODO in Renderer.renderLine). Words side by side on a line
 * in the same font, size, colour and opacity are drawn here as one piece: pdfkit lays out a
 * piece word by word in any case (EmbeddedFont.layout splits it at spaces and adds the
 * words' advances), so each glyph lands where it did. A busy summary draws a quarter fewer
 * text objects, in a smaller file and a little less time (merged-line-pieces.test.ts,
 * docs/decisions/0008-summary-pdf-fonts.md). A piece that draws anything besides its text
 * (a link, a destination, a decoration, a background, a raised or lowered baseline, font
 * features, a page number) is drawn on its own, as pdfmake draws it.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A piece of a line as pdfmake's LayoutBuilder makes it (pdfmake 0.3: js/Line.js). */
export interface LinePiece {
  text: string;
  /** From the line's start, in points. */
  x: number;
  width: number;
  font: object;
  fontSize: number;
  color?: unknown;
  opacity?: unknown;
  characterSpacing?: unknown;
  [property: string]: unknown;
}

interface Line {
  inlines: LinePiece[];
}

interface RendererPrototype {
  renderLine(line: Line, x: number, y: number): void;
}

/** What pdfmake sets for each piece it draws: pieces alike in these can be drawn as one. */
const DRAWN_WITH = ['font', 'fontSize', 'color', 'opacity', 'characterSpacing'] as const;

/** What pdfmake draws or places besides a piece's text: such a piece stays whole. */
const DRAWS_MORE = [
  'link',
  'linkToPage',
  'linkToDestination',
  'fontFeatures',
  '_pageNodeRef',
  'sup',
  'sub',
  'decoration',
  'background',
] as const;

/** Far less than anything a page shows: pieces this close are side by side. */
const SAME_POSITION = 1e-6;

/** pdfmake gives a piece every property, null or false when it is not set. */
const unset = (value: unknown) => value === undefined || value === null || value === false;

const drawsOnlyText = (piece: LinePiece) => DRAWS_MORE.every((property) => unset(piece[property]));

/** Whether `next` starts where `piece` ends and is drawn the same way (not justified apart). */
const continues = (piece: LinePiece, next: LinePiece) =>
  DRAWN_WITH.every((property) => piece[property] === next[property]) &&
  Math.abs(piece.x + piece.width - next.x) < SAME_POSITION;

/**
 * The pieces of a line with each run of like pieces made one (the same array when there is
 * nothing to merge). The pieces themselves are left as they are.
 */
export function mergedPieces(pieces: readonly LinePiece[]): readonly LinePiece[] {
  const merged: LinePiece[] = [];
  for (const piece of pieces) {
    const last = merged.at(-1);
    if (last && drawsOnlyText(last) && drawsOnlyText(piece) && continues(last, piece)) {
      merged[merged.length - 1] = {
        ...last,
        text: last.text + piece.text,
        width: last.width + piece.width,
      };
    } else {
      merged.push(piece);
    }
  }
  return merged.length === pieces.length ? pieces : merged;
}

let installed = false;

/**
 * Makes pdfmake draw each run of like pieces on a line as one. Returns whether it could: it
 * checks the shape of pdfmake it relies on, and leaves pdfmake as it is if that has changed.
 */
export function mergeLinePieces(): boolean {
  if (installed) return true;
  let prototype: RendererPrototype | undefined;
  try {
    const renderer = createRequire(require.resolve('pdfmake'))('./Renderer') as {
      default?: { prototype?: RendererPrototype };
    };
    prototype = renderer.default?.prototype;
  } catch {
    return false;
  }
  if (typeof prototype?.renderLine !== 'function') return false;
  const drawLine = prototype.renderLine;
  prototype.renderLine = function (this: unknown, line: Line, x: number, y: number) {
    const pieces = line.inlines;
    const merged = Array.isArray(pieces) ? mergedPieces(pieces) : pieces;
    if (merged === pieces) return drawLine.call(this, line, x, y);
    // The line is pdfmake's own, done with once drawn; it gets its pieces back all the same.
    line.inlines = merged as LinePiece[];
    try {
      return drawLine.call(this, line, x, y);
    } finally {
      line.inlines = pieces;
    }
  };
  installed = true;
  return true;
}
