/**
 * The text OCR read with confidence: each line tesseract.js found, kept when its words'
 * confidence is at least MIN_LINE_CONFIDENCE, in the engine's own layout (a line a line, a
 * blank line between paragraphs). A photo with no writing in it (a face, a rash, the
 * texture of a wall) is otherwise read as lines of noise ('oo a . =') that would be kept as
 * the document's text and found by search. Measured with the server's English model
 * (decision 0084): the lines of print, clean, small or grainy, at 85–96; those read from a
 * photo of noise at 0–20 (3 on average over 325 words).
 */

/** A line's confidence (0–100) below which it is taken for noise. */
export const MIN_LINE_CONFIDENCE = 40;

interface ReadLine {
  text: string;
  confidence: number;
}

/** tesseract.js's blocks (`recognize(…, { blocks: true })`), as much of them as is read here. */
export interface ReadBlock {
  paragraphs: { lines: ReadLine[] }[];
}

export function confidentText(blocks: readonly ReadBlock[] | null | undefined): string {
  const paragraphs: string[] = [];
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      const lines = paragraph.lines.filter((line) => line.confidence >= MIN_LINE_CONFIDENCE);
      if (lines.length) paragraphs.push(lines.map((line) => line.text).join(''));
    }
  }
  return paragraphs.join('\n').trim();
}
